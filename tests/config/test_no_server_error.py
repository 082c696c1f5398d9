"""No input gives a server error: Hypothesis sends requests to every URL pattern
of the project (allauth's and the admin's included) and no answer may be a 500.

Each pattern gets its own run, so every one is visited on every run: first a fixed
sweep (explicit examples), then random requests. A path value is the id of an
object that exists (a game of each variant, a daily deal's day, a username, an
admin object's primary key) or hostile text: digits that are not ASCII, NUL, a
very long string, bytes that are not UTF-8. Query strings and form bodies carry the
parameter names the views read with the same kinds of values (the test client
checks no CSRF token, so every form reaches its view), and JSON bodies carry them
nested from one to thousands of arrays or objects deep (a JSON parser recurses into
each: 2 KB of brackets made RecursionError a 500). The request comes from an
anonymous visitor, a player with a game of each variant, a reviewer or a
superuser. Each example runs inside a savepoint that is rolled back, so every
request sees the same data. A failure names the pattern, the request and the last
lines of the traceback; Hypothesis prints the falsifying example.
"""

import json
import re
import traceback
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import quote, quote_from_bytes

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.signals import got_request_exception
from django.db import transaction
from django.test import Client, TestCase
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.models import Profile
from achievements.models import Award
from core.json_depth import MAX_DEPTH
from games import services
from games.models import Game
from games.specs import game_keys
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_play, daily_deals_ensure
from matches.modes import match_mode_keys
from reviews.models import AuditEntry
from tests.matches.helpers import sprint
from tests.reviews.conftest import ensure_reviewers_group

# Each project pattern gets this many examples, each pattern of allauth or the
# admin fewer: with the sweeps about 3,000 requests, some 20 s on PostgreSQL.
PROJECT_EXAMPLES = 80
THIRD_PARTY_EXAMPLES = 12

HOSTILE = [
    "",
    "0",
    "-1",
    "1",
    "²",
    "¹²",
    "٣",
    "߃",
    "Ⅻ",
    "1²",
    "\x00",
    "a\x00b",
    "t1/²",
    "w/²",
    "t1/\x00",
    "0001-01",
    "9999-12",
    "0000-00",
    "2024-13",
    "1e400",
    " 1",
    "9" * 40,
    "x" * 5000,
    "../..",
    "%",
    "<b>",
    "'\"",
    "\u202e",
    "İ",
]
PARAM_NAMES = [
    "page",
    "month",
    "sel",
    "try",
    "step",
    "period",
    "variant",
    "options",
    "next",
    "q",
    "o",
    "p",
    "e",
    "all",
    "_changelist_filters",
    "_to_field",
    "_popup",
    "status__exact",
]
FIELD_NAMES = [
    "revision",
    "move",
    "source",
    "count",
    "confirm",
    "mode",
    "draw",
    "buffers",
    "recycles",
    "retrieval",
    "login",
    "password",
    "remember",
    "email",
    "username",
    "password1",
    "password2",
    "oldpassword",
    "action",
    "_selected_action",
    "select_across",
    "index",
    "post",
    "note",
    "public",
    "highlight_moves",
    "reduced_motion",
    "next",
]
PROJECT_APPS = {"accounts", "achievements", "config", "games", "leaderboards", "reviews"}
ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<regex>[^)]*)\)")
# The values every pattern gets in its explicit examples: each one in every
# query parameter at once, in every form field at once, and in every path value.
SWEEP_QUERY = ["²", "\x00", "0001-01", "9999-12", "t1/²", "w/²", "", "x" * 5000]
SWEEP_BODY = ["²", "\x00", ""]
SWEEP_PATH = ["\x00", "²"]
THIRD_PARTY_SWEEP = ["\x00", ""]
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
# Nesting depths of the JSON bodies: within the limit, just past it, and where
# Python's recursion gives out (about 900 inside a request, 1,000 anywhere).
DEPTHS = [1, 2, MAX_DEPTH, MAX_DEPTH + 1, 900, 1000, 5000]


@dataclass(frozen=True)
class Seeded:
    """What exists while the examples run: values that name real objects, by the
    name of the path parameter (then by converter), and the sessions to send."""

    by_name: dict[str, list[str]]
    by_converter: dict[str, list[str]]
    sessions: dict[str, str]

    def existing(self, parameter: "Parameter") -> list[str]:
        return (
            self.by_name.get(parameter.name)
            or self.by_converter.get(parameter.converter or "str")
            or ["1"]
        )


@dataclass(frozen=True)
class Parameter:
    """A value in a URL pattern: a route's `<converter:name>` or a regex's group."""

    name: str
    converter: str | None
    regex: str | None = None


@dataclass(frozen=True)
class Pattern:
    """One URL pattern, from the root: literal text and parameters, in order."""

    pieces: tuple[str | Parameter, ...]
    own: bool
    admin: bool

    def __str__(self) -> str:
        return "/" + "".join(
            piece if isinstance(piece, str) else f"<{piece.name}>" for piece in self.pieces
        )


@dataclass(frozen=True)
class Probe:
    """One request, printed as the falsifying example when it gets a 500."""

    identity: str
    method: str
    path: str
    query: str
    body: str
    htmx: bool
    content_type: str = FORM

    def describe(self) -> str:
        url = f"{self.path}?{self.query}" if self.query else self.path
        body = self.body if len(self.body) < 200 else f"{self.body[:90]}...{self.body[-90:]}"
        return (
            f"{self.method} {url} as {self.identity} (htmx={self.htmx}) "
            f"{self.content_type} body={body!r}"
        )


def _pieces(pattern: object) -> list[str | Parameter]:
    if isinstance(pattern, RoutePattern):
        text, expression = str(pattern), ROUTE_PARAMETER
    else:
        assert isinstance(pattern, RegexPattern)
        text, expression = str(pattern).removeprefix("^").removesuffix("$"), REGEX_GROUP
    pieces: list[str | Parameter] = []
    position = 0
    for match in expression.finditer(text):
        pieces.append(text[position : match.start()])
        groups = match.groupdict()
        pieces.append(Parameter(groups["name"], groups.get("converter"), groups.get("regex")))
        position = match.end()
    pieces.append(text[position:])
    return [piece for piece in pieces if piece != ""]


def _url_patterns() -> list[Pattern]:
    """Every URL pattern of the project, allauth's and the admin's included."""
    found: list[Pattern] = []

    def walk(patterns: list[object], chain: tuple[str | Parameter, ...]) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, (*chain, *_pieces(entry.pattern)))
            elif isinstance(entry, URLPattern):
                module = getattr(entry.callback, "__module__", "") or ""
                pieces = (*chain, *_pieces(entry.pattern))
                own = module.split(".")[0] in PROJECT_APPS
                admin = bool(pieces) and str(pieces[0]).startswith("admin/")
                found.append(Pattern(pieces, own, admin))

    walk(get_resolver().url_patterns, ())
    return found


def _hostile_text() -> st.SearchStrategy[str]:
    hostile = st.sampled_from(HOSTILE)
    return st.one_of(
        hostile,
        hostile,
        st.text(max_size=30),
        st.text(st.characters(categories=("Nd", "No", "Nl")), min_size=1, max_size=4),
        st.integers().map(str),
        st.builds(
            lambda year, month: f"{year:04d}-{month:02d}",
            st.integers(0, 9999),
            st.integers(0, 13),
        ),
        st.builds(
            lambda source, count: f"{source}/{count}",
            st.sampled_from(["t1", "t3", "w", "r1", "s1", "f1", "x"]),
            st.one_of(hostile, st.integers().map(str)),
        ),
    )


def _value(seeded: Seeded, parameter: Parameter) -> st.SearchStrategy[str | bytes]:
    """A path value: what exists three times out of six (so that the view behind
    the converter runs), else hostile text or bytes or what the regex matches."""
    known = st.sampled_from(seeded.existing(parameter))
    other: st.SearchStrategy[str | bytes] = st.binary(min_size=1, max_size=8)
    if parameter.converter == "uuid":
        other = st.uuids().map(str)
    elif parameter.regex is not None:
        other = st.from_regex(parameter.regex, fullmatch=True)
    return st.one_of(known, known, known, _hostile_text(), other, st.binary(min_size=1))


def _encode(value: str | bytes) -> str:
    if isinstance(value, bytes):
        return quote_from_bytes(value, safe="")
    return quote(value, safe="")


def _path(pattern: Pattern, values: list[str | bytes]) -> str:
    given_values = iter(values)
    return "/" + "".join(
        quote(piece, safe="/") if isinstance(piece, str) else _encode(next(given_values))
        for piece in pattern.pieces
    )


def _parameters(pattern: Pattern) -> list[Parameter]:
    return [piece for piece in pattern.pieces if isinstance(piece, Parameter)]


def _pairs(names: list[str]) -> st.SearchStrategy[str]:
    """A query string or form body: each known name maybe, and random names."""
    value = st.one_of(_hostile_text(), st.binary(max_size=8))
    known = st.fixed_dictionaries({}, optional=dict.fromkeys(names, value))
    unknown = st.lists(st.tuples(st.text(max_size=8), _hostile_text()), max_size=2)
    return st.tuples(known, unknown).map(
        lambda both: "&".join(
            f"{_encode(name)}={_encode(text)}" for name, text in [*both[0].items(), *both[1]]
        )
    )


def _every(names: list[str], value: str) -> str:
    return "&".join(f"{name}={_encode(value)}" for name in names)


def _nested(depth: int, kind: str) -> str:
    """JSON `depth` arrays or objects deep: closed, or left open (a parser recurses
    into every one before it finds the text broken)."""
    if kind == "objects":
        return '{"a": ' * depth + "1" + "}" * depth
    return "[" * depth + ("]" * depth if kind == "arrays" else "")


def _json_body(names: list[str], depth: int, kind: str) -> str:
    """A JSON object of the named fields, the first nested `depth` deep."""
    first, *others = names
    fields = [f"{json.dumps(first)}: {_nested(depth, kind)}"]
    fields += [f"{json.dumps(name)}: {json.dumps('1')}" for name in others]
    return "{" + ", ".join(fields) + "}"


def _payloads() -> st.SearchStrategy[tuple[str, str]]:
    """A body and its content type: form fields, or a JSON object nested deep."""
    json_bodies = st.builds(
        _json_body,
        st.lists(st.sampled_from(FIELD_NAMES), min_size=1, max_size=4, unique=True),
        st.sampled_from(DEPTHS),
        st.sampled_from(["arrays", "objects", "open"]),
    )
    return st.one_of(
        _pairs(FIELD_NAMES).map(lambda body: (FORM, body)),
        json_bodies.map(lambda body: (JSON, body)),
    )


def _probe(*, payload: tuple[str, str], **fields: object) -> Probe:
    content_type, body = payload
    return Probe(**fields, body=body, content_type=content_type)  # type: ignore[arg-type]


def _probes(seeded: Seeded, pattern: Pattern) -> st.SearchStrategy[Probe]:
    return st.builds(
        _probe,
        identity=st.sampled_from(["anonymous", "player", "reviewer", "superuser"]),
        method=st.sampled_from(["GET", "GET", "POST", "POST", "HEAD", "PUT", "PATCH"]),
        path=st.tuples(*(_value(seeded, p) for p in _parameters(pattern))).map(
            lambda values: _path(pattern, list(values))
        ),
        query=_pairs(PARAM_NAMES),
        payload=_payloads(),
        htmx=st.booleans(),
    )


def _explicit(seeded: Seeded, pattern: Pattern) -> list[Probe]:
    """The sweep every pattern gets on every run, before the random examples: the
    path of what exists with each hostile value in every query parameter and in
    every form field, each hostile value in every path value, and "1" in each path
    value in turn."""
    parameters = _parameters(pattern)
    real = _path(pattern, [seeded.existing(p)[0] for p in parameters])
    identity = ("reviewer" if pattern.own else "superuser") if pattern.admin else "player"
    if not pattern.own and not pattern.admin:
        identity = "anonymous"

    def probe(
        method: str, path: str, query: str = "", body: str = "", content_type: str = FORM
    ) -> Probe:
        return Probe(identity, method, path, query, body, htmx=False, content_type=content_type)

    sweep_query = SWEEP_QUERY if pattern.own else THIRD_PARTY_SWEEP
    sweep_body = SWEEP_BODY if pattern.own else THIRD_PARTY_SWEEP[:1]
    probes = [probe("GET", real, _every(PARAM_NAMES, value)) for value in sweep_query]
    probes += [probe("POST", real, body=_every(FIELD_NAMES, value)) for value in sweep_body]
    # Every field a thousand arrays deep, to whatever parses the pattern's JSON bodies.
    deep = "{" + ", ".join(f'"{name}": {_nested(1000, "arrays")}' for name in FIELD_NAMES) + "}"
    probes += [probe(method, real, body=deep, content_type=JSON) for method in ("POST", "PATCH")]
    if parameters:
        probes += [
            probe("GET", _path(pattern, [value] * len(parameters)))
            for value in (SWEEP_PATH if pattern.own else SWEEP_PATH[:1])
        ]
        # A small number where one key is expected, the other values real.
        existing = [seeded.existing(p)[0] for p in parameters]
        probes += [
            probe("GET", _path(pattern, [*existing[:i], "1", *existing[i + 1 :]]))
            for i in range(len(parameters))
        ]
    return probes


class _Undo(Exception):
    """Leaves the example's savepoint with everything the request wrote undone."""


def _send(probe: Probe, seeded: Seeded) -> tuple[int, str]:
    client = Client(raise_request_exception=False)
    if probe.identity in seeded.sessions:
        client.cookies[django_settings.SESSION_COOKIE_NAME] = seeded.sessions[probe.identity]
    extra: dict[str, str] = {"QUERY_STRING": probe.query}
    if probe.htmx:
        extra["HTTP_HX_REQUEST"] = "true"
    errors: list[str] = []

    def record(**_: object) -> None:
        errors.append("".join(traceback.format_exc().splitlines(keepends=True)[-6:]))

    got_request_exception.connect(record)
    try:
        with transaction.atomic():
            if probe.method in {"GET", "HEAD"}:
                send = client.get if probe.method == "GET" else client.head
                response = send(probe.path, **extra)
            else:
                send = {"POST": client.post, "PUT": client.put, "PATCH": client.patch}
                response = send[probe.method](
                    probe.path, data=probe.body, content_type=probe.content_type, **extra
                )
            raise _Undo
    except _Undo:
        pass
    finally:
        got_request_exception.disconnect(record)
    return response.status_code, "".join(errors)


def _seed(make_user) -> Seeded:
    """A player with an active game of each variant, a closed game and a ranked
    daily attempt (reviewed, with its badges), another player, a reviewer and a
    superuser."""
    player = make_user("alice")
    other = make_user("bob")
    reviewer = make_user("rita", is_staff=True)
    reviewer.groups.add(ensure_reviewers_group())
    superuser = make_user("root", is_staff=True, is_superuser=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        closed = services.game_start(player=player, variant="klondike")
        services.game_finish(game_id=closed.id, player=player, revision=0)
        deals = daily_deals_ensure(day=today_utc())
        ranked = daily_deal_play(player=player, deal=deals[0])
        services.game_finish(game_id=ranked.id, player=player, revision=0)
        active = [services.game_start(player=player, variant=key) for key in game_keys()]
        theirs = services.game_start(player=other, variant="klondike")
        racing = sprint(player, other)
        waiting = sprint(other, start=False)
    sessions = {}
    for identity, user in (("player", player), ("reviewer", reviewer), ("superuser", superuser)):
        client = Client()
        client.force_login(user)
        sessions[identity] = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    admin_keys = [
        str(closed.id),
        str(player.pk),
        *(str(pk) for pk in Group.objects.values_list("pk", flat=True)),
        *(str(pk) for pk in Profile.objects.values_list("pk", flat=True)),
        *(str(pk) for pk in Award.objects.values_list("pk", flat=True)),
        *(str(pk) for pk in AuditEntry.objects.values_list("pk", flat=True)),
    ]
    today = today_utc()
    return Seeded(
        by_name={
            "game_id": [str(game.id) for game in (*active, closed, ranked, theirs)],
            "object_id": admin_keys,
            "id": [str(player.pk), str(superuser.pk)],
            "username": ["alice", "ALICE", "bob", "rita"],
            "day": [today.isoformat(), (today - timedelta(days=1)).isoformat(), "2000-01-01"],
            "variant": [deals[0].variant, *game_keys(), "nope"],
            # Game's first: its primary key is a UUID that "1" is not.
            "content_type_id": [
                str(ContentType.objects.get_for_model(Game).pk),
                *(str(pk) for pk in ContentType.objects.values_list("pk", flat=True)[:5]),
            ],
            "app_label": ["games", "reviews", "auth"],
            "url": ["games/", "nope/"],
            "match_id": [str(racing.id), str(waiting.id)],
            "mode": [*match_mode_keys(), "nope"],
        },
        by_converter={"uuid": [str(ranked.id)], "int": ["1"], "str": ["alice"]},
        sessions=sessions,
    )


def _fuzz(pattern: Pattern, seeded: Seeded) -> list[str]:
    """The sweep and random requests to one pattern; the 500s they got."""
    failures: list[str] = []

    @settings(
        max_examples=PROJECT_EXAMPLES if pattern.own else THIRD_PARTY_EXAMPLES,
        deadline=None,
        database=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(probe=_probes(seeded, pattern))
    def probe_pattern(probe: Probe) -> None:
        status, error = _send(probe, seeded)
        assert status < 500, f"{status} for {probe.describe()}\n{error}"

    for explicit in _explicit(seeded, pattern):
        probe_pattern = example(probe=explicit)(probe_pattern)
    try:
        probe_pattern()
    except (AssertionError, ExceptionGroup) as failure:
        failures.append(f"{pattern}: {failure}")
    return failures


@pytest.mark.django_db
def test_no_request_to_any_url_pattern_gets_a_server_error(make_user):
    seeded = _seed(make_user)
    patterns = _url_patterns()
    assert sum(pattern.own for pattern in patterns) > 15, "the project's patterns are missing"
    assert sum(pattern.admin for pattern in patterns) > 30, "the admin's patterns are missing"
    failures = [failure for pattern in patterns for failure in _fuzz(pattern, seeded)]
    assert not failures, "\n\n".join(failures)
