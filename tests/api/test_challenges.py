"""The daily challenges through the API: a day's challenges, playing one, the month's
calendar with its stars and badge thresholds, an open proof and the monthly
leaderboard, as the web's challenges pages read them (the same selectors and
services), and never a live challenge's seed, a move of a proof before it opens, or a
hidden card."""

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client

from api.serializers.public import public_view
from challenges import selectors
from challenges.leaderboard import PAGE_SIZE
from challenges.models import Challenge, Completion
from challenges.proof import challenge_proof
from challenges.services import challenge_games
from games.engine import get_variant
from games.models import Game
from games.specs import game_keys
from tests.api.conftest import ApiClient, error_codes
from tests.api.doc_examples import commands_output, section_commands
from tests.api.test_games import STATE_FIELDS
from tests.api.test_hidden_information import SECRET_KEYS, assert_nothing_hidden, keys_of
from tests.challenges.conftest import DAY, SPIKE_SEED, STEPS_SEED
from tests.challenges.test_hidden_information import assert_no_secret
from tests.challenges.test_pages import completion, ranked_month
from tests.games.helpers import hidden_cards, leaked_cards
from tests.games.test_query_counts import SIGNED_IN

pytestmark = pytest.mark.django_db

TWO_ACES = {"kind": "foundation_rank", "rank": "A", "count": 2}
DAY_FIELDS = {"day", "today", "practice", "making", "challenges"}
CHALLENGE_FIELDS = {
    "id",
    "day",
    "variant",
    "name",
    "difficulty",
    "difficulty_label",
    "stars",
    "goal",
    "goal_data",
    "done",
    "review",
    "playable",
    "earns_stars",
    "proof_open",
}
MONTH_FIELDS = {
    "month",
    "previous_month",
    "next_month",
    "max_stars",
    "days",
    "thresholds",
    "progress",
}
CALENDAR_FIELDS = {"day", "made", "done", "stars", "is_today", "playable"}
ROW_FIELDS = {"rank", "username", "stars", "last_star_at", "is_viewer"}
POSITION_FIELDS = {"step", "move", "public", "state", "progress", "goal_met"}
LIST = "/api/v1/challenges"
MONTH = "/api/v1/challenges/month"
LEADERBOARD = "/api/v1/challenges/leaderboard"


def play_path(challenge: Challenge) -> str:
    return f"/api/v1/challenges/{challenge.id}/play"


def proof_path(challenge: Challenge) -> str:
    return f"/api/v1/challenges/{challenge.id}/proof"


def no_secret(response, challenges) -> None:
    """No seed and no move of a closed proof (in every form the web's test looks for),
    and no field that could carry either."""
    text = response.content.decode()
    assert_no_secret(text, [c for c in challenges if c.proof_line])
    assert not [c.seed for c in challenges if c.seed in text]
    assert not keys_of(response.json()) & (SECRET_KEYS | {"proof_line", "line", "solution"})


def complete_through_the_api(api: ApiClient, challenge: Challenge) -> dict:
    """Play the challenge's proof line through the API's Play and moves: its goal met."""
    state = api.post(play_path(challenge)).json()
    for move in challenge.proof_line:
        answer = api.post(
            f"/api/v1/games/{state['id']}/moves", {"move": move, "revision": state["revision"]}
        )
        assert answer.status_code == 200, answer.json()
        state = answer.json()["game"]
    return state


def signed_in(username: str) -> ApiClient:
    """A fresh login: a test that moves the clock a month on outlives the first's session."""
    client = ApiClient()
    assert client.log_in(username).status_code == 200
    return client


def by_id(body) -> dict[int, dict]:
    return {entry["id"]: entry for entry in body["challenges"]}


class TestDay:
    def test_a_visitor_sees_todays_fifteen_as_the_web_lists_them(
        self, anonymous_api, full_day, clock
    ):
        made = full_day()
        response = anonymous_api.get(LIST)
        assert response.status_code == 200
        body = response.json()
        assert set(body) == DAY_FIELDS
        assert (body["day"], body["today"]) == (DAY.isoformat(), DAY.isoformat())
        assert (body["practice"], body["making"]) == (False, False)
        web = selectors.challenges_of_day(day=DAY, player=None, today=DAY)
        assert [entry["id"] for entry in body["challenges"]] == [entry.id for entry in web]
        assert len(body["challenges"]) == 15
        assert [entry["variant"] for entry in body["challenges"][::3]] == [
            key for key in game_keys() if key in challenge_games()
        ]
        assert all(set(entry) == CHALLENGE_FIELDS for entry in body["challenges"])
        assert all(entry["done"] is None for entry in body["challenges"])
        first, second, third = body["challenges"][:3]
        assert [c["difficulty"] for c in (first, second, third)] == [1, 2, 3]
        assert [c["stars"] for c in (first, second, third)] == [1, 2, 3]
        assert first == {
            "id": web[0].id,
            "day": DAY.isoformat(),
            "variant": "klondike",
            "name": "Klondike",
            "difficulty": 1,
            "difficulty_label": "Easy",
            "stars": 1,
            "goal": "Win the deal",
            "goal_data": {"kind": "win"},
            "done": None,
            "playable": True,
            "earns_stars": True,
            "proof_open": False,
            "review": None,
        }
        for shown, entry in zip(body["challenges"], web, strict=True):
            assert (shown["goal"], shown["goal_data"]) == (entry.words, entry.goal)
        no_secret(response, made)

    def test_a_player_sees_what_they_completed_and_a_proof_still_closed(
        self, api, player, make_challenge, clock
    ):
        easy = make_challenge(goal=TWO_ACES)
        medium = make_challenge(variant="spike", difficulty=Challenge.Difficulty.MEDIUM)
        complete_through_the_api(api, easy)
        response = api.get(LIST)
        assert response.status_code == 200
        shown = by_id(response.json())
        assert shown[easy.id]["done"] is True
        assert shown[easy.id]["goal"] == "Play two aces to the foundations"
        assert shown[easy.id]["goal_data"] == TWO_ACES
        assert shown[medium.id]["done"] is False
        assert not any(entry["proof_open"] for entry in shown.values())
        assert response.json()["making"] is True  # three of fifteen made so far
        no_secret(response, [easy, medium])

    def test_an_earlier_day_of_the_month_still_earns_its_stars(self, api, make_challenge, clock):
        earlier = make_challenge(goal=TWO_ACES, day=DAY - timedelta(days=1))
        body = api.get(LIST, day="2026-12-01").json()
        assert (body["day"], body["today"], body["practice"]) == ("2026-12-01", "2026-12-02", False)
        assert body["making"] is False  # only today's are made on the way
        (entry,) = body["challenges"]
        assert (entry["id"], entry["playable"], entry["earns_stars"]) == (earlier.id, True, True)

    def test_a_day_of_an_earlier_month_is_practice(self, anonymous_api, make_challenge, clock):
        old = make_challenge(goal=TWO_ACES, day=date(2026, 11, 20))
        body = anonymous_api.get(LIST, day="2026-11-20").json()
        assert body["practice"] is True
        (entry,) = body["challenges"]
        assert (entry["id"], entry["playable"], entry["earns_stars"]) == (old.id, True, False)

    def test_a_day_without_challenges_is_an_empty_list(self, anonymous_api, clock):
        body = anonymous_api.get(LIST, day="2026-11-03").json()
        assert (body["challenges"], body["making"]) == ([], False)

    @pytest.mark.parametrize("day", ["2026-12-03", "2027-06-01"])
    def test_a_later_day_is_not_open_yet(self, api, anonymous_api, make_challenge, clock, day):
        later = make_challenge(goal=TWO_ACES, day=DAY + timedelta(days=1))
        for client in (api, anonymous_api):
            response = client.get(LIST, day=day)
            assert response.status_code == 404
            assert response.json()["errors"] == [
                {
                    "code": "not_found",
                    "message": "That day's challenges are not open yet.",
                    "param": None,
                }
            ]
            no_secret(response, [later])

    @pytest.mark.parametrize("day", ["2026-13-40", "yesterday", "2026-12-2", "٢٠٢٦-١٢-٠٢"])
    def test_a_day_not_written_yyyy_mm_dd_is_malformed(self, anonymous_api, clock, day):
        response = anonymous_api.get(LIST, day=day)
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"code": "malformed", "message": "A day is written YYYY-MM-DD.", "param": "day"}
        ]

    def test_a_browser_session_reads_it(self, player_client, player, make_challenge, clock):
        easy = make_challenge(goal=TWO_ACES)
        assert by_id(player_client.get(LIST).json())[easy.id]["done"] is False

    def test_a_dead_token_is_refused_even_here(self, clock):
        response = ApiClient(token="no-such-session").get(LIST)
        assert response.status_code == 401
        assert error_codes(response) == ["invalid_session_token"]

    def test_queries(self, api, anonymous_api, full_day, clock, django_assert_num_queries):
        """The day's challenges; a player's completions of them besides, and their games
        of the others that met the goal but are held by the review."""
        full_day()
        with django_assert_num_queries(1):
            assert anonymous_api.get(LIST).status_code == 200
        with django_assert_num_queries(SIGNED_IN + 3):
            assert api.get(LIST).status_code == 200


class TestPlay:
    def test_deals_the_challenge_with_its_goal_then_resumes_it(
        self, api, player, make_challenge, clock
    ):
        challenge = make_challenge(goal=TWO_ACES)
        response = api.post(play_path(challenge))
        assert response.status_code == 201
        state = response.json()
        assert set(state) == STATE_FIELDS
        game = Game.objects.get(player=player)
        assert state["id"] == str(game.id)
        assert (game.track, game.track_ref, game.seed, game.goal) == (
            Game.Track.CHALLENGE,
            challenge.track_ref,
            challenge.seed,
            TWO_ACES,
        )
        assert (state["track"], state["is_active"], state["move_count"]) == ("challenge", True, 0)
        assert state["goal"] == {
            "words": "Play two aces to the foundations",
            "progress": "Aces to the foundations: 0 of 2",
            "met": False,
            "failed": False,
        }
        assert_nothing_hidden(response, game)
        assert json.dumps(challenge.proof_line) not in response.content.decode()

        again = api.post(play_path(challenge))
        assert again.status_code == 201
        assert again.json()["id"] == state["id"]
        assert Game.objects.filter(player=player).count() == 1

    def test_the_proof_line_played_through_the_api_completes_it(
        self, api, player, make_challenge, clock
    ):
        challenge = make_challenge(goal=TWO_ACES)
        state = complete_through_the_api(api, challenge)
        assert state["goal"]["met"] is True
        assert state["goal"]["progress"] == "Aces to the foundations: done"
        completion_row = Completion.objects.get(player=player, challenge=challenge)
        assert (completion_row.stars, completion_row.month) == (1, date(2026, 12, 1))
        progress = api.get(MONTH).json()["progress"]
        assert (progress["stars"], progress["completed"]) == (1, 1)

    def test_a_later_challenge_is_refused_with_the_reason_and_nothing_changes(
        self, api, make_challenge, clock
    ):
        later = make_challenge(goal=TWO_ACES, day=DAY + timedelta(days=1))
        response = api.post(play_path(later))
        assert response.status_code == 409
        assert response.json() == {
            "status": 409,
            "errors": [
                {
                    "code": "challenge_refused",
                    "message": "This challenge opens on 03 December 2026 (UTC).",
                    "param": None,
                }
            ],
        }
        assert not Game.objects.exists()
        no_secret(response, [later])

    @pytest.mark.parametrize("challenge_id", [999, 10**30])
    def test_no_such_challenge_is_404(self, api, clock, challenge_id):
        response = api.post(f"/api/v1/challenges/{challenge_id}/play")
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]
        assert not Game.objects.exists()

    def test_no_credentials_is_401_and_plays_nothing(self, anonymous_api, make_challenge, clock):
        challenge = make_challenge(goal=TWO_ACES)
        response = anonymous_api.post(play_path(challenge))
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]
        assert response["WWW-Authenticate"] == "X-Session-Token"
        assert not Game.objects.exists()

    def test_only_post(self, api, make_challenge, clock):
        response = api.get(play_path(make_challenge(goal=TWO_ACES)))
        assert response.status_code == 405
        assert error_codes(response) == ["method_not_allowed"]

    def test_a_browser_session_plays(self, player_client, player, make_challenge, clock):
        challenge = make_challenge(goal=TWO_ACES)
        response = player_client.post(play_path(challenge), content_type="application/json")
        assert response.status_code == 201
        assert Game.objects.get(player=player).track_ref == challenge.track_ref

    def test_a_token_client_needs_no_csrf_token(self, player, make_challenge, clock):
        challenge = make_challenge(goal=TWO_ACES)
        app = ApiClient()
        app.client = Client(enforce_csrf_checks=True)
        app.log_in(player.username)
        assert app.post(play_path(challenge)).status_code == 201

    def test_a_browser_session_without_its_csrf_token_is_refused(
        self, player, make_challenge, clock
    ):
        challenge = make_challenge(goal=TWO_ACES)
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(player)
        response = browser.post(
            play_path(challenge), json.dumps({}), content_type="application/json"
        )
        assert response.status_code == 403
        assert error_codes(response) == ["csrf_failed"]
        assert not Game.objects.exists()

    @pytest.mark.parametrize("variant", ["steps", "spike"])
    def test_the_games_answers_show_no_hidden_card(
        self, api, player, make_challenge, clock, variant
    ):
        """The challenge's game played along its proof through the API: each answer holds
        no card the table does not show, and never the seed."""
        challenge = make_challenge(variant=variant, goal={"kind": "win"})
        played = api.post(play_path(challenge))
        game = Game.objects.get(player=player, track_ref=challenge.track_ref)
        assert_nothing_hidden(played, game)
        state = played.json()
        for move in challenge.proof_line[:12]:
            answer = api.post(
                f"/api/v1/games/{game.id}/moves", {"move": move, "revision": state["revision"]}
            )
            assert answer.status_code == 200
            assert_nothing_hidden(answer, game)
            state = answer.json()["game"]
        assert_nothing_hidden(api.get(f"/api/v1/games/{game.id}"), game)
        assert_nothing_hidden(api.post(play_path(challenge)), game)


class TestMonth:
    def test_a_visitor_sees_the_calendar_the_stars_it_is_worth_and_the_thresholds(
        self, anonymous_api, full_day, make_challenge, clock
    ):
        made = full_day()
        made.append(make_challenge(goal=TWO_ACES, day=date(2026, 12, 1)))
        response = anonymous_api.get(MONTH)
        assert response.status_code == 200
        body = response.json()
        assert set(body) == MONTH_FIELDS
        assert (body["month"], body["previous_month"], body["next_month"]) == (
            "2026-12",
            "2026-11",
            None,
        )
        assert body["max_stars"] == 31
        assert [cell["day"] for cell in body["days"]] == [
            date(2026, 12, day).isoformat() for day in range(1, 32)
        ]
        assert all(set(cell) == CALENDAR_FIELDS for cell in body["days"])
        first, second, third = body["days"][:3]
        assert first == {
            "day": "2026-12-01",
            "made": 1,
            "done": None,
            "stars": None,
            "is_today": False,
            "playable": True,
        }
        assert (second["made"], second["is_today"], second["playable"]) == (15, True, True)
        assert (third["made"], third["is_today"], third["playable"]) == (0, False, False)
        assert body["thresholds"] == [
            {"badge": "bronze", "title": "Bronze", "stars": 30, "reached": None, "to_go": None},
            {"badge": "silver", "title": "Silver", "stars": 120, "reached": None, "to_go": None},
            {"badge": "gold", "title": "Gold", "stars": 300, "reached": None, "to_go": None},
            {"badge": "perfect", "title": "Perfect", "stars": None, "reached": None, "to_go": None},
        ]
        assert body["progress"] is None
        no_secret(response, made)

    def test_a_player_sees_their_stars_and_the_stars_to_go(
        self, api, player, make_challenge, clock
    ):
        easy = make_challenge(goal=TWO_ACES)
        make_challenge(variant="spike", difficulty=Challenge.Difficulty.MEDIUM)
        complete_through_the_api(api, easy)
        response = api.get(MONTH)
        body = response.json()
        web = selectors.month_view(player=player, month=DAY, today=DAY)
        assert body["progress"] == {"stars": 1, "completed": 1, "challenges": 2, "perfect": False}
        assert (web.facts.stars, web.facts.completed, web.facts.challenges) == (1, 1, 2)
        today = body["days"][1]
        assert (today["made"], today["done"], today["stars"]) == (2, 1, 1)
        assert body["days"][0]["done"] == 0
        assert [(t["badge"], t["reached"], t["to_go"]) for t in body["thresholds"]] == [
            ("bronze", False, 29),
            ("silver", False, 119),
            ("gold", False, 299),
            ("perfect", False, None),
        ]
        assert [t.to_go for t in web.thresholds] == [29, 119, 299, None]
        no_secret(response, [easy])

    def test_a_threshold_reached_is_said_so(self, api, player, make_challenge, clock):
        easy = make_challenge(goal=TWO_ACES)
        completion(easy, player, stars=30, at=datetime(2026, 12, 2, 9, tzinfo=UTC))
        thresholds = api.get(MONTH).json()["thresholds"]
        assert [(t["reached"], t["to_go"]) for t in thresholds[:2]] == [(True, 0), (False, 90)]

    def test_an_earlier_month(self, anonymous_api, make_challenge, clock):
        make_challenge(goal=TWO_ACES, day=date(2026, 11, 20))
        body = anonymous_api.get(MONTH, month="2026-11").json()
        assert (body["month"], body["previous_month"], body["next_month"]) == (
            "2026-11",
            "2026-10",
            "2026-12",
        )
        assert len(body["days"]) == 30
        assert body["days"][19]["made"] == 1
        assert body["max_stars"] == 1

    @pytest.mark.parametrize(("asked", "shown"), [("2031-05", "2026-12"), ("1999-01", "2000-01")])
    def test_a_month_out_of_range_is_the_nearest_one_as_on_the_web(
        self, anonymous_api, clock, asked, shown
    ):
        assert anonymous_api.get(MONTH, month=asked).json()["month"] == shown

    @pytest.mark.parametrize("month", ["2026-13", "December", "2026-12-01"])
    def test_a_month_not_written_yyyy_mm_is_malformed(self, anonymous_api, clock, month):
        response = anonymous_api.get(MONTH, month=month)
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"code": "malformed", "message": "A month is written YYYY-MM.", "param": "month"}
        ]

    def test_queries(self, api, anonymous_api, full_day, clock, django_assert_num_queries):
        """The month's challenges by day; for a player their completions by day and the
        month's figures (their stars, the challenges made, the days made whole)."""
        full_day()
        with django_assert_num_queries(1):
            assert anonymous_api.get(MONTH).status_code == 200
        with django_assert_num_queries(SIGNED_IN + 5):
            assert api.get(MONTH).status_code == 200


class TestProof:
    def test_closed_while_the_challenge_is_live_even_to_its_completer(
        self, api, make_challenge, clock
    ):
        challenge = make_challenge(goal=TWO_ACES)
        complete_through_the_api(api, challenge)
        response = api.get(proof_path(challenge))
        assert response.status_code == 404
        assert response.json()["errors"] == [
            {
                "code": "not_found",
                "message": "The proof is shown once its day is over, to those who completed it.",
                "param": None,
            }
        ]
        no_secret(response, [challenge])
        assert by_id(api.get(LIST).json())[challenge.id]["proof_open"] is False

    def test_after_the_day_it_opens_to_a_completer_only(
        self, api, player, make_user, make_challenge, clock
    ):
        challenge = make_challenge(goal=TWO_ACES)
        complete_through_the_api(api, challenge)
        make_user("other")
        clock.now = datetime(2026, 12, 3, 0, 0, 1, tzinfo=UTC)
        opened = api.get(proof_path(challenge))
        assert opened.status_code == 200
        assert opened.json()["challenge"]["done"] is True
        assert by_id(api.get(LIST, day=DAY.isoformat()).json())[challenge.id]["proof_open"]
        for outsider in (signed_in("other"), ApiClient()):
            closed = outsider.get(proof_path(challenge))
            assert closed.status_code == 404
            assert error_codes(closed) == ["not_found"]
            no_secret(closed, [challenge])

    def test_after_the_month_it_opens_to_everyone(self, anonymous_api, make_challenge, clock):
        challenge = make_challenge(goal=TWO_ACES)
        clock.now = datetime(2027, 1, 1, 0, 0, 1, tzinfo=UTC)
        assert anonymous_api.get(proof_path(challenge)).status_code == 200

    def test_every_position_of_the_line_as_the_web_steps_through_it(
        self, anonymous_api, make_challenge, clock
    ):
        challenge = make_challenge(goal=TWO_ACES)
        clock.now = datetime(2027, 1, 2, tzinfo=UTC)
        response = anonymous_api.get(proof_path(challenge))
        body = response.json()
        assert set(body) == {"challenge", "goal_step", "positions"}
        line = challenge.proof_line
        assert body["goal_step"] == len(line)
        assert body["challenge"]["id"] == challenge.id
        assert body["challenge"]["goal"] == "Play two aces to the foundations"
        assert (body["challenge"]["done"], body["challenge"]["proof_open"]) == (None, True)
        positions = body["positions"]
        assert [position["step"] for position in positions] == list(range(len(line) + 1))
        assert all(set(position) == POSITION_FIELDS for position in positions)
        assert [position["move"] for position in positions] == [None, *line]
        assert positions[0]["progress"] == "Aces to the foundations: 0 of 2"
        assert [position["goal_met"] for position in positions] == [False] * len(line) + [True]
        assert positions[-1]["progress"] == "Aces to the foundations: done"
        for step in (0, 1, len(line) // 2, len(line)):
            web = challenge_proof(
                challenge_id=challenge.id, player=None, step=step, today=date(2027, 1, 2)
            )
            # The web's view in the API's names (api.serializers.public).
            assert positions[step]["public"] == public_view(web.replay.board.public)
            assert positions[step]["state"] == web.replay.status
            assert positions[step]["progress"] == web.progress.text
        assert challenge.seed not in response.content.decode()

    @pytest.mark.parametrize("variant", ["steps", "spike"])
    def test_the_proof_shows_no_card_hidden_at_its_step(
        self, anonymous_api, make_challenge, clock, variant
    ):
        """Each position holds no card face down or in the stock at that step, and a card
        hidden at every step of the line is nowhere in the answer."""
        challenge = make_challenge(variant=variant, goal={"kind": "win"})
        clock.now = datetime(2027, 1, 2, tzinfo=UTC)
        response = anonymous_api.get(proof_path(challenge))
        assert response.status_code == 200
        engine = get_variant(challenge.variant, rules_version=challenge.rules_version)
        state = engine.deal(engine.deck_of_seed(challenge.seed), challenge.options)
        never_shown: set[str] | None = None
        for position in response.json()["positions"]:
            if position["move"] is not None:
                state = engine.play(state, position["move"]).state
            hidden = hidden_cards(Game(variant=challenge.variant, state=engine.dump(state)))
            assert leaked_cards(json.dumps(position), hidden) == [], position["step"]
            never_shown = hidden if never_shown is None else never_shown & hidden
        assert never_shown is not None
        assert leaked_cards(response.content.decode(), never_shown) == []
        assert challenge.seed not in response.content.decode()
        assert not keys_of(response.json()) & SECRET_KEYS

    def test_a_challenge_without_a_proof_line_has_none(self, anonymous_api, full_day, clock):
        stored = next(c for c in full_day() if not c.proof_line)
        clock.now = datetime(2027, 1, 2, tzinfo=UTC)
        response = anonymous_api.get(proof_path(stored))
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]

    @pytest.mark.parametrize("challenge_id", [999, 10**30])
    def test_no_such_challenge_is_404(self, anonymous_api, clock, challenge_id):
        response = anonymous_api.get(f"/api/v1/challenges/{challenge_id}/proof")
        assert response.status_code == 404
        assert response.json()["errors"][0]["message"] == "There is no such challenge."

    def test_queries(self, anonymous_api, player, make_challenge, clock, django_assert_num_queries):
        """The challenge, then its entry (the challenge's fields shown), and a player's
        completion of it with each: as the web's stepper reads them (the line a month
        old, open to everyone)."""
        challenge = make_challenge(goal=TWO_ACES)
        clock.now = datetime(2027, 1, 2, tzinfo=UTC)
        with django_assert_num_queries(2):
            assert anonymous_api.get(proof_path(challenge)).status_code == 200
        someone = signed_in(player.username)
        with django_assert_num_queries(SIGNED_IN + 4):
            assert someone.get(proof_path(challenge)).status_code == 200


class TestLeaderboard:
    def test_ranks_stars_then_the_earlier_last_star(self, make_user, make_challenge, clock):
        easy, hard = ranked_month(make_user, make_challenge)
        viewer = signed_in("cat")
        response = viewer.get(LEADERBOARD)
        assert response.status_code == 200
        body = response.json()
        assert (body["month"], body["previous_month"], body["next_month"]) == (
            "2026-12",
            "2026-11",
            None,
        )
        assert (body["count"], body["page"], body["num_pages"]) == (4, 1, 1)
        assert [(row["rank"], row["username"], row["stars"]) for row in body["results"]] == [
            (1, "ann", 4),
            (1, "cat", 4),
            (3, "bob", 4),
            (4, "dan", 1),
        ]
        assert all(set(row) == ROW_FIELDS for row in body["results"])
        assert body["results"][0]["last_star_at"] == "2026-12-02T13:00:00Z"
        assert [row["is_viewer"] for row in body["results"]] == [False, True, False, False]
        assert body["viewer_row"] == body["results"][1]
        november = ApiClient().get(LEADERBOARD, month="2026-11").json()
        assert [row["username"] for row in november["results"]] == ["eve"]
        assert (november["viewer_row"], november["next_month"]) == (None, "2026-12")
        no_secret(response, [easy, hard])

    def test_pages_by_fifty_with_the_viewers_row_off_the_page(
        self, make_user, make_challenge, clock
    ):
        easy = make_challenge(goal=TWO_ACES)
        start = datetime(2026, 12, 1, tzinfo=UTC)
        players = [make_user(f"p{index:02}") for index in range(PAGE_SIZE + 1)]
        for index, someone in enumerate(players):
            completion(easy, someone, stars=1, at=start + timedelta(minutes=index))
        viewer = signed_in(players[-1].username)
        first = viewer.get(LEADERBOARD).json()
        assert (first["count"], first["page"], first["num_pages"]) == (51, 1, 2)
        assert len(first["results"]) == 50
        assert first["next"] == f"http://testserver{LEADERBOARD}?page=2"
        assert not any(row["is_viewer"] for row in first["results"])
        assert (first["viewer_row"]["rank"], first["viewer_row"]["username"]) == (51, "p50")
        second = viewer.get(LEADERBOARD, page=2, month="2026-12").json()
        assert [(row["rank"], row["username"], row["is_viewer"]) for row in second["results"]] == [
            (51, "p50", True)
        ]
        assert second["previous"] == f"http://testserver{LEADERBOARD}?month=2026-12"
        assert viewer.get(LEADERBOARD, page=9).json()["page"] == 2
        assert viewer.get(LEADERBOARD, page="x").json()["errors"][0]["param"] == "page"

    def test_a_month_not_written_yyyy_mm_is_malformed(self, anonymous_api, clock):
        response = anonymous_api.get(LEADERBOARD, month="2026-1")
        assert response.status_code == 400
        assert error_codes(response) == ["malformed"]

    def test_reads_the_board_in_one_query(
        self, api, anonymous_api, make_user, make_challenge, clock, django_assert_num_queries
    ):
        easy = make_challenge(goal=TWO_ACES)
        for index in range(5):
            completion(easy, make_user(f"p{index}"), stars=1, at=datetime(2026, 12, 2, tzinfo=UTC))
        with django_assert_num_queries(1):
            assert anonymous_api.get(LEADERBOARD).status_code == 200
        with django_assert_num_queries(SIGNED_IN + 1):
            assert api.get(LEADERBOARD).status_code == 200


def test_no_answer_holds_a_live_challenges_seed_or_proof(
    api, anonymous_api, player, make_challenge, full_day, clock
):
    """Every challenge answer, for a visitor and for a player who completed a challenge,
    while today's challenges are live and tomorrow's is already made."""
    tomorrow = make_challenge(variant="steps", day=DAY + timedelta(days=1), goal={"kind": "win"})
    challenges = [*full_day(), tomorrow]
    steps = next(c for c in challenges if c.variant == "steps" and c.date == DAY)
    complete_through_the_api(api, steps)
    answers = []
    for client in (api, anonymous_api):
        answers += [
            client.get(LIST),
            client.get(LIST, day=DAY.isoformat()),
            client.get(LIST, day=tomorrow.date.isoformat()),
            client.get(MONTH),
            client.get(LEADERBOARD),
            client.post(play_path(tomorrow)),
        ]
        answers += [client.get(proof_path(challenge)) for challenge in challenges]
    assert {answer.status_code for answer in answers} == {200, 401, 404, 409}
    for answer in answers:
        no_secret(answer, challenges)


@pytest.mark.django_db(transaction=True)
def test_the_docs_challenge_examples_run_against_a_live_server(live_server, player):
    """docs/api.md's challenge commands, run as written, with a player's token as $AUTH,
    on today's challenges of Steps and Spike made on the tests' fixed seeds."""
    from challenges.services import challenge_build
    from leaderboards.periods import today_utc

    today = today_utc()
    for variant, seed in (("steps", STEPS_SEED), ("spike", SPIKE_SEED)):
        for difficulty in Challenge.Difficulty.values:
            challenge_build(day=today, variant=variant, difficulty=difficulty, seed=seed)
    output = commands_output(
        section_commands("## Daily challenges"),
        server_url=live_server.url,
        username=player.username,
    )
    for line in (
        '{"id":',
        ',"difficulty":1,"stars":1,"goal":"',
        '"done":false}',
        '{"track":"challenge","goal":{"words":',
        '{"code":"not_found","message":"The proof is shown once its day is over',
        '{"code":"not_found","message":"That day\'s challenges are not open yet."}',
        '{"stars":0,"completed":0,',
        '{"badge":"bronze","title":"Bronze","stars":30,"reached":false,"to_go":30}',
        '{"count":0,"results":[],"viewer_row":null}',
    ):
        assert line in output, output
