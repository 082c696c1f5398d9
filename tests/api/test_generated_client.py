"""A client generated from the schema the server serves plays with no hand edits.

openapi-python-client generates a Python client from the live server's schema (once
for the module, with no warning: a part of the schema it could not generate would
be missing from the client), and the tests play through its generated functions and
models only: two players sign up and log in, make a Steps Sprint, join it, start it,
play their games from `legal_moves` until both have finished, and read the settled
match; a player plays a whole game on their own and a daily deal."""

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGE = "arena_client"
PASSWORD = "a-long-secret-42"
MOVES_A_GAME = 15
"""Moves each game plays before its player finishes it (a random line rarely wins)."""


@pytest.fixture(scope="module")
def arena(live_server, tmp_path_factory, django_db_blocker) -> Iterator[ModuleType]:
    """The generated client, imported: `arena.api`, `arena.models`, `arena.client`."""
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "config.yml"
    # No formatter run on the generated code: ruff is the project's, not the client's.
    config.write_text("post_hooks: []\n")
    generator = Path(sys.executable).parent / "openapi-python-client"
    # Django checks its connections at every request the live server takes, and the
    # fixture runs before any test has opened the database.
    with django_db_blocker.unblock():
        generated = _generate(generator, live_server.url, folder, config)
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "Warning" not in said, said
    assert "Skipping" not in said, said
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _generate(
    generator: Path, server_url: str, folder: Path, config: Path
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(generator),
            "generate",
            "--url",
            f"{server_url}/api/v1/schema?format=json",
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _module(arena: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{arena.__name__}.{name}")


class Play:
    """The generated client's functions and models, for one server."""

    def __init__(self, arena: ModuleType, base_url: str) -> None:
        self.base_url = base_url
        self.models = _module(arena, "models")
        self.client = _module(arena, "client")

    def call(self, group: str, operation: str, expected: type, **kwargs: Any) -> Any:
        """A generated operation's parsed answer, which must be of the expected model."""
        function = importlib.import_module(f"{PACKAGE}.api.{group}.{operation}")
        answer = function.sync(**kwargs)
        assert isinstance(answer, expected), f"{operation}: {answer!r}"
        return answer

    def anonymous(self) -> Any:
        return self.client.Client(base_url=self.base_url)

    def signed_in(self, token: str) -> Any:
        return self.client.AuthenticatedClient(
            base_url=self.base_url, token=token, prefix="", auth_header_name="X-Session-Token"
        )

    def sign_up(self, username: str) -> Any:
        models = self.models
        body = models.Signup(username=username, email=f"{username}@example.com", password=PASSWORD)
        answer = self.call(
            "authentication_account",
            "auth_signup_post",
            models.AuthenticatedResponse,
            client=self.anonymous(),
            body=body,
        )
        assert answer.meta.is_authenticated is True
        return answer

    def log_in(self, **login: str) -> Any:
        """A session token, by username or by e-mail address."""
        models = self.models
        answer = self.call(
            "authentication_account",
            "auth_login_post",
            models.AuthenticatedResponse,
            client=self.anonymous(),
            body=models.Login(password=PASSWORD, **login),
        )
        return self.signed_in(answer.meta.session_token)

    def game(self, client: Any, game_id: Any) -> Any:
        return self.call("games", "game_get", self.models.Game, client=client, game_id=game_id)

    def play_a_while(self, client: Any, state: Any, table: type) -> Any:
        """Moves from `legal_moves` (a card moved before a draw) until the game is over or
        has played its share; the state after them."""
        models = self.models
        for _move in range(MOVES_A_GAME):
            assert isinstance(state.public, table)
            if not state.is_active or not state.legal_moves:
                break
            moves = sorted(state.legal_moves, key=lambda move: move in ("draw", "recycle"))
            answer = self.call(
                "play",
                "game_move",
                models.ActionResult,
                client=client,
                game_id=state.id,
                body=models.MoveRequest(move=moves[0], revision=state.revision),
            )
            assert answer.game.revision == state.revision + 1
            state = answer.game
        return state

    def finish(self, client: Any, state: Any) -> Any:
        models = self.models
        asked = self.call(
            "play",
            "game_finish",
            models.Error,
            client=client,
            game_id=state.id,
            body=models.ConfirmedActionRequest(revision=state.revision),
        )
        assert asked.status == 409
        assert [error.code for error in asked.errors] == [models.CodeEnum.CONFIRMATION_REQUIRED]
        finished = self.call(
            "play",
            "game_finish",
            models.ActionResult,
            client=client,
            game_id=state.id,
            body=models.ConfirmedActionRequest(revision=state.revision, confirm=True),
        )
        assert finished.game.is_active is False
        assert finished.game.state == models.GameStateEnum.FINISHED
        return finished.game


@pytest.fixture
def play(arena, live_server) -> Play:
    return Play(arena, live_server.url)


def test_two_players_race_a_sprint_to_its_end(play):
    models = play.models
    play.sign_up("ada")
    play.sign_up("bea")
    ada = play.log_in(username="ada")
    bea = play.log_in(email="bea@example.com")
    made = play.call(
        "matches",
        "match_create",
        models.Match,
        client=ada,
        body=models.MatchCreateRequest(mode=models.ModeEnum.STEPS_SPRINT),
    )
    assert made.state == models.MatchStateEnum.OPEN
    joined = play.call("matches", "match_join", models.Match, client=bea, match_id=made.id)
    assert [seat.username for seat in joined.seats] == ["ada", "bea"]
    started = play.call("matches", "match_start", models.Match, client=ada, match_id=made.id)
    assert started.state == models.MatchStateEnum.RUNNING
    for client in (ada, bea):
        match = play.call("matches", "match_get", models.Match, client=client, match_id=made.id)
        assert all(seat.public is None for seat in match.seats)
        state = play.game(client, match.your_game_id)
        assert state.match_id == made.id
        state = play.play_a_while(client, state, models.StepsPublicView)
        assert state.move_count > 0
        play.finish(client, state)
    settled = play.call("matches", "match_get", models.Match, client=bea, match_id=made.id)
    assert settled.state == models.MatchStateEnum.FINISHED
    assert settled.rated is True
    assert sorted(seat.placement for seat in settled.seats) in ([1, 1], [1, 2])
    for seat in settled.seats:
        assert seat.game_state == models.GameStateEnum.FINISHED
        assert isinstance(seat.public, models.StepsPublicView)
        assert seat.cards_on_foundations == seat.public.cards_on_foundations
        assert seat.outcome in (
            models.OutcomeEnum.WIN,
            models.OutcomeEnum.DRAW,
            models.OutcomeEnum.LOSS,
        )


def test_a_player_plays_a_whole_game_of_their_own(play):
    models = play.models
    play.sign_up("cal")
    cal = play.log_in(username="cal")
    dealt = play.call(
        "games",
        "game_start",
        models.Game,
        client=cal,
        body=models.StartRequest(variant=models.StartVariantEnum.KLONDIKE),
    )
    assert isinstance(dealt.public, models.KlondikePublicView)
    assert dealt.public.state == models.TableStateEnum.IN_PROGRESS
    state = play.play_a_while(cal, dealt, models.KlondikePublicView)
    log = play.call("play", "game_moves_list", models.MoveLog, client=cal, game_id=state.id)
    assert (log.revision, len(log.moves)) == (state.revision, state.move_count)
    finished = play.finish(cal, state)
    assert play.game(cal, finished.id).finished_at is not None
    history = play.call("games", "games_list", models.HistoryPage, client=cal)
    assert history.count == 1
    assert history.results[0].state == models.GameStateEnum.FINISHED
    assert history.figures.total_moves == state.move_count


def test_a_player_plays_todays_daily_deal_and_gets_its_rank(play):
    models = play.models
    play.sign_up("dee")
    dee = play.log_in(username="dee")
    dealt = play.call("daily", "daily_play", models.Game, client=dee, variant="klondike")
    assert (dealt.track, dealt.is_ranked) == (models.TrackEnum.DAILY, True)
    state = play.play_a_while(dee, dealt, models.KlondikePublicView)
    play.finish(dee, state)
    daily = play.call("daily", "daily_get", models.Daily, client=dee)
    (klondike,) = [deal for deal in daily.deals if deal.variant == "klondike"]
    assert klondike.rank == 1
    assert klondike.ranked_game.id == dealt.id
    assert klondike.ranked_game.state == models.GameStateEnum.FINISHED
