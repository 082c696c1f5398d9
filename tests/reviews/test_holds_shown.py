"""Every place that shows a game, a result or a match the review holds says so: the
API's `review` ("held", "voided" or null) on a game, a history item, the daily result,
a match and a match of the history, a Codex scenario and a challenge; the history's
figures count the games they leave out; the pages say "Under review" or "Voided" on
the history, the daily deals, the deal's leaderboard, the Codex, the challenges, the
match and the profile; a held match says it is not rated for now."""

import pytest
from django.test import Client
from django.urls import reverse

from challenges.models import Challenge
from challenges.services import challenge_play
from codex.services import scenario_play
from games import services as game_services
from games.codex import codex_scenarios, scenario_certify
from tests.api.conftest import ApiClient
from tests.challenges.conftest import DAY, play_line
from tests.leaderboards.helpers import deal_of
from tests.matches.helpers import games_of, sprint
from tests.reviews.helpers import committed, finish, finished_game

pytestmark = pytest.mark.django_db

LABEL = {"held": "Under review", "voided": "Voided"}


def api_of(user) -> ApiClient:
    api = ApiClient()
    assert api.log_in(user.username).status_code == 200
    return api


def web_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def daily(player, hold, settings):
    """The player's ranked daily game, held, and two clear casual games."""
    settings.REDIS_URL = ""
    deal = deal_of("klondike")
    with committed():
        clear = [finished_game(player, moves=moves) for moves in (6, 8)]
    with hold.closing(), committed():
        held = finished_game(player, moves=12, deal=deal)
    hold.closed(held)
    return deal, held, clear


def test_the_api_names_the_hold_on_the_game_the_history_and_the_daily_result(daily, player, hold):
    _, held, clear = daily
    api = api_of(player)
    assert api.get(f"/api/v1/games/{held.id}").json()["review"] == hold.kind
    assert api.get(f"/api/v1/games/{clear[0].id}").json()["review"] is None
    history = api.get("/api/v1/games").json()
    assert {item["id"]: item["review"] for item in history["results"]} == {
        str(held.id): hold.kind,
        str(clear[0].id): None,
        str(clear[1].id): None,
    }
    # Every game is listed; the figures leave out the held one and say how many.
    assert history["count"] == 3
    assert (history["figures"]["played"], history["figures"]["held"]) == (2, 1)
    (entry,) = [e for e in api.get("/api/v1/daily").json()["deals"] if e["variant"] == "klondike"]
    assert entry["ranked_game"]["review"] == hold.kind
    assert entry["rank"] is None


def test_polling_a_game_sees_its_hold_change(player, hold, settings):
    """The ETag follows the review's hold: a client polling with If-None-Match gets the
    state again when a reviewer voids the game and when the hold is released."""
    settings.REDIS_URL = ""
    with hold.closing(), committed():
        game = finished_game(player, moves=8)
    api = api_of(player)
    seen = api.get(f"/api/v1/games/{game.id}")
    if hold.kind == "voided":
        assert seen.json()["review"] is None
        hold.closed(game)
        seen = api.get(f"/api/v1/games/{game.id}", headers={"If-None-Match": seen["ETag"]})
        assert seen.status_code == 200
    assert seen.json()["review"] == hold.kind
    unchanged = api.get(f"/api/v1/games/{game.id}", headers={"If-None-Match": seen["ETag"]})
    assert unchanged.status_code == 304
    hold.release(game)
    cleared = api.get(f"/api/v1/games/{game.id}", headers={"If-None-Match": seen["ETag"]})
    assert (cleared.status_code, cleared.json()["review"]) == (200, None)


def test_the_pages_say_the_result_is_held(daily, player, hold):
    deal, _, _ = daily
    web = web_of(player)
    history = web.get(reverse("games:history")).content.decode()
    assert f'<span class="tag review-label">{LABEL[hold.kind]}</span>' in history
    assert (
        '<p class="note" id="stats-held">1 game under review or voided is left out of these '
        "figures.</p>"
    ) in history
    day = web.get(reverse("leaderboards:daily")).content.decode()
    row = next(r for r in day.split("<tr") if 'data-daily="klondike"' in r)
    assert f'<span class="tag review-label">{LABEL[hold.kind]}</span>' in row
    board = web.get(reverse("leaderboards:deal", args=[deal.date.isoformat(), "klondike"]))
    why = {
        "held": "Your result is under review: it is left off this leaderboard until it is cleared.",
        "voided": "Your result was voided by a review: it is not on this leaderboard.",
    }[hold.kind]
    assert f'<p class="note" id="viewer-held">{why}</p>' in board.content.decode()


def test_a_cleared_result_is_shown_as_any_other(daily, player, hold):
    deal, held, _ = daily
    hold.release(held)
    api = api_of(player)
    assert api.get(f"/api/v1/games/{held.id}").json()["review"] is None
    assert api.get("/api/v1/games").json()["figures"]["held"] == 0
    web = web_of(player)
    assert "stats-held" not in web.get(reverse("games:history")).content.decode()
    board = web.get(reverse("leaderboards:deal", args=[deal.date.isoformat(), "klondike"]))
    assert "viewer-held" not in board.content.decode()


@pytest.fixture
def held_match(make_user, hold):
    """A settled Sprint whose winner's game the review holds."""
    ann, ben = make_user("ann"), make_user("ben")
    match = sprint(ann, ben)
    anns, bens = games_of(match)
    with committed():
        finish(bens)
    with hold.closing(), committed():
        finish(anns)
    hold.closed(anns)
    return match, ann, ben, anns


def test_a_held_match_says_it_is_not_rated_for_now(held_match, hold):
    match, ann, ben, anns = held_match
    for user in (ann, ben):
        body = api_of(user).get(f"/api/v1/matches/{match.id}").json()
        assert (body["rated"], body["review"]) == (False, hold.kind)
        (item,) = api_of(user).get(f"/api/v1/players/{user.username}/matches").json()["results"]
        assert (item["rated"], item["review"]) == (False, hold.kind)
        page = web_of(user).get(reverse("matches:detail", args=[match.id])).content.decode()
        why = {
            "held": "Under review: a game of this match is being checked, and the match is "
            "not rated until it is cleared.",
            "voided": "Voided: a game of this match was voided, and the match is not rated.",
        }[hold.kind]
        assert f'<p class="note" id="match-review">{why}</p>' in page
        profile = web_of(user).get(reverse("players:profile", args=[user.username]))
        row = next(r for r in profile.content.decode().split("<tr>") if str(match.id) in r)
        assert f'<span class="tag review-label">{LABEL[hold.kind]}</span>' in row
        assert "not rated" in row
    hold.release(anns)
    body = api_of(ann).get(f"/api/v1/matches/{match.id}").json()
    assert (body["rated"], body["review"]) == (True, None)
    (item,) = api_of(ann).get("/api/v1/players/ann/matches").json()["results"]
    assert (item["rated"], item["review"]) == (True, None)
    page = web_of(ann).get(reverse("matches:detail", args=[match.id])).content.decode()
    assert "match-review" not in page


def test_a_held_codex_win_is_shown_under_review_not_as_not_yet(player, hold):
    scenario = codex_scenarios()[0]
    game = scenario_play(player=player, key=scenario.key)
    with hold.closing(), committed():
        for move in scenario_certify(scenario).moves:
            game.refresh_from_db()
            game_services.game_move_play(
                game_id=game.id, player=player, move=move, revision=game.revision
            )
    hold.closed(game)
    page = web_of(player).get(reverse("codex:home")).content.decode()
    row = page.split(f'id="scenario-{scenario.key}"')[1].split("</tr>")[0]
    assert (
        f'<td class="scenario-won"><span class="tag review-label">{LABEL[hold.kind]}</span></td>'
        in row
    )
    assert "Not yet" not in row
    codex = api_of(player).get("/api/v1/codex").json()
    (entry,) = [s for t in codex["tiers"] for s in t["scenarios"] if s["key"] == scenario.key]
    assert entry["progress"]["won"] is False
    assert entry["progress"]["review"] == hold.kind
    hold.release(game)
    codex = api_of(player).get("/api/v1/codex").json()
    (entry,) = [s for t in codex["tiers"] for s in t["scenarios"] if s["key"] == scenario.key]
    assert (entry["progress"]["won"], entry["progress"]["review"]) == (True, None)


def test_a_held_challenge_is_shown_under_review(make_challenge, player, clock, hold):
    challenge = make_challenge(variant="steps", difficulty=Challenge.Difficulty.EASY)
    game = challenge_play(player=player, challenge_id=challenge.id, today=DAY)
    play_line(game=game, player=player, line=challenge.proof_line)
    with hold.closing(), committed():
        finish(game)
    hold.closed(game)
    api = api_of(player)
    (entry,) = [
        c
        for c in api.get("/api/v1/challenges", day=DAY.isoformat()).json()["challenges"]
        if c["id"] == challenge.id
    ]
    assert (entry["done"], entry["review"]) == (False, hold.kind)
    page = web_of(player).get(reverse("challenges:home"), {"day": DAY.isoformat()})
    row = page.content.decode().split(f'id="challenge-{challenge.id}"')[1].split("</tr>")[0]
    assert f'<td><span class="tag review-label">{LABEL[hold.kind]}</span></td>' in row
    assert "Not yet" not in row
    hold.release(game)
    (entry,) = [
        c
        for c in api.get("/api/v1/challenges", day=DAY.isoformat()).json()["challenges"]
        if c["id"] == challenge.id
    ]
    assert (entry["done"], entry["review"]) == (True, None)


@pytest.mark.parametrize(
    "component",
    ["Game", "HistoryGame", "RankedGame", "Match", "MatchHistoryItem", "Challenge"],
)
def test_the_schema_gives_every_review_field_its_values(client, component):
    schemas = client.get(reverse("api:schema"), {"format": "json"}).json()["components"]["schemas"]
    review = schemas[component]["properties"]["review"]
    assert review.get("nullable") is True
    assert "review" in schemas[component]["required"]
    choices = {
        value for ref in review["oneOf"] for value in schemas[ref["$ref"].rsplit("/", 1)[1]]["enum"]
    }
    assert choices == {"held", "voided", None}
