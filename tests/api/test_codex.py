"""The Citadel Layout Codex through the API: the campaign as the web's Codex page shows
it (the same selectors), playing a scenario (the web's Play), a scenario's leaderboard,
and never a scenario's seed or its solver's line."""

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from codex import selectors
from codex.leaderboard import PAGE_SIZE
from codex.services import master_architect_update, scenario_play
from games.codex import (
    codex_scenario,
    codex_scenarios,
    par_margin_moves,
    scenario_certify,
    scenario_track,
)
from games.models import Game
from games.services import game_resume_or_start
from tests.api.conftest import ApiClient, error_codes
from tests.api.doc_examples import commands_output, section_commands
from tests.api.test_games import STATE_FIELDS
from tests.api.test_hidden_information import SECRET_KEYS, keys_of
from tests.codex.test_codex import tier, win, won_row
from tests.codex.test_leaderboard import closed
from tests.games.test_query_counts import SIGNED_IN

pytestmark = pytest.mark.django_db

FIRST = tier(1)[0]
VESTIBULE = codex_scenario("the-kings-vestibule")
LOCKED = tier(2)[0]
LEDGER = codex_scenario("the-unforgiving-ledger")
CODEX_FIELDS = {"tiers", "rules", "master_architect", "totals"}
TIER_FIELDS = {"tier", "name", "unlocked", "lock_reason", "won", "scenarios"}
SCENARIO_FIELDS = {
    "key",
    "number",
    "name",
    "lore",
    "tier",
    "handicaps",
    "handicap_data",
    "par",
    "two_star_moves",
    "difficulty",
    "solver_effort",
    "unlocked",
    "progress",
}
ROW_FIELDS = {
    "rank",
    "username",
    "won",
    "hints_used",
    "score",
    "elapsed_seconds",
    "move_count",
    "finished_at",
    "is_viewer",
}


def no_seed(response) -> None:
    """No scenario's seed in the answer, and no field that could carry one (nor a
    solver's line: a game's `moves` are the moves played)."""
    text = response.content.decode()
    for scenario in codex_scenarios():
        assert scenario.seed not in text
    assert "seed" not in text
    body = response.json()
    assert not keys_of(body) & (SECRET_KEYS | {"line", "solution", "nodes"})


def scenarios_of(body) -> list[dict]:
    return [scenario for tier_body in body["tiers"] for scenario in tier_body["scenarios"]]


def entry(body, key: str) -> dict:
    return next(scenario for scenario in scenarios_of(body) if scenario["key"] == key)


class TestCampaign:
    def test_a_visitor_sees_the_twenty_scenarios_the_rules_and_no_progress(self, anonymous_api):
        response = anonymous_api.get("/api/v1/codex")
        assert response.status_code == 200
        body = response.json()
        assert set(body) == CODEX_FIELDS
        assert [t["tier"] for t in body["tiers"]] == [1, 2, 3, 4]
        assert [t["name"] for t in body["tiers"]] == list(selectors.TIER_NAMES.values())
        assert [t["unlocked"] for t in body["tiers"]] == [True, False, False, False]
        assert body["tiers"][0]["lock_reason"] is None
        assert body["tiers"][1]["lock_reason"] == (
            "Tier 2 opens when 3 scenarios of tier 1 are won: 0 won so far"
        )
        assert all(set(t) == TIER_FIELDS and t["won"] is None for t in body["tiers"])
        assert [s["key"] for s in scenarios_of(body)] == [s.key for s in codex_scenarios()]
        assert all(set(s) == SCENARIO_FIELDS and s["progress"] is None for s in scenarios_of(body))
        assert body["totals"] is None
        assert body["master_architect"] is None
        assert body["rules"]["wins_to_open_next_tier"] == selectors.WINS_TO_OPEN_NEXT_TIER == 3
        assert body["rules"]["par_margin_percent"] == 20
        assert "when 3 scenarios of the tier before it are won" in body["rules"]["unlocking"]
        assert "within par plus 20 percent" in body["rules"]["stars"]
        no_seed(response)

    def test_each_scenario_as_the_web_page_reads_it(self, anonymous_api):
        body = anonymous_api.get("/api/v1/codex").json()
        web = selectors.codex_campaign(player=None)
        for tier_entry in web.tiers:
            for scenario in tier_entry.scenarios:
                shown = entry(body, scenario.key)
                assert (
                    shown["number"],
                    shown["name"],
                    shown["lore"],
                    shown["tier"],
                    shown["handicaps"],
                    shown["par"],
                    shown["two_star_moves"],
                    shown["difficulty"],
                    shown["solver_effort"],
                    shown["unlocked"],
                ) == (
                    scenario.number,
                    scenario.name,
                    scenario.lore,
                    tier_entry.tier,
                    scenario.handicaps,
                    scenario.par,
                    scenario.two_star_moves,
                    scenario.difficulty,
                    scenario.solver_effort,
                    scenario.unlocked,
                )
        assert entry(body, FIRST.key)["handicap_data"] == {
            "draw": FIRST.options["draw"],
            "buffers": FIRST.options["buffers"],
            "recycles": FIRST.options["recycles"],
            "retrieval": FIRST.options["retrieval"],
            "undo_allowance": None,
            "time_limit_seconds": None,
        }
        ledger = entry(body, LEDGER.key)
        assert ledger["handicap_data"]["undo_allowance"] == 3
        assert ledger["handicap_data"]["time_limit_seconds"] == 720
        assert "3 undos" in ledger["handicaps"]
        assert "12:00 on the clock" in ledger["handicaps"]

    def test_a_player_sees_wins_stars_ledgers_the_game_in_progress_and_totals(self, api, player):
        game = win(player, FIRST)
        playing = scenario_play(player=player, key=VESTIBULE.key)
        response = api.get("/api/v1/codex")
        assert response.status_code == 200
        body = response.json()
        web = selectors.codex_campaign(player=player)
        won = web.tiers[0].scenarios[0]
        assert won.won
        assert won.stars >= 1
        assert entry(body, FIRST.key)["progress"] == {
            "won": True,
            "best_ledger": game.final_score,
            "stars": won.stars,
            "review": None,
            "game_in_progress": None,
        }
        assert entry(body, VESTIBULE.key)["progress"] == {
            "won": False,
            "best_ledger": None,
            "stars": 0,
            "review": None,
            "game_in_progress": str(playing.id),
        }
        assert body["tiers"][0]["won"] == 1
        assert body["tiers"][1]["won"] == 0
        assert body["tiers"][1]["lock_reason"].endswith("1 won so far")
        assert body["totals"] == {
            "won": 1,
            "scenarios": 20,
            "stars": won.stars,
            "max_stars": 60,
            "ledger": game.final_score,
        }
        no_seed(response)

    def test_three_wins_of_tier_one_open_tier_two(self, api, player):
        for scenario in tier(1)[:3]:
            won_row(player, scenario)
        body = api.get("/api/v1/codex").json()
        assert [t["unlocked"] for t in body["tiers"]] == [True, True, False, False]
        assert body["tiers"][1]["lock_reason"] is None
        assert all(s["unlocked"] for s in body["tiers"][1]["scenarios"])
        assert body["tiers"][2]["lock_reason"].endswith("0 won so far")

    def test_names_the_master_architect(self, anonymous_api, player):
        won_row(player, FIRST, score=640)
        master_architect_update()
        holder = anonymous_api.get("/api/v1/codex").json()["master_architect"]
        reign = selectors.master_architect_reign()
        assert holder == {
            "username": player.username,
            "ledger": 640,
            "since": reign.started_at.isoformat().replace("+00:00", "Z"),
        }

    def test_a_timed_scenario_whose_clock_ran_out_is_not_in_progress(self, api, player):
        game = game_resume_or_start(player=player, variant="steps", track=scenario_track(LEDGER))
        Game.objects.filter(id=game.id).update(deadline_at=timezone.now() - timedelta(seconds=1))
        body = api.get("/api/v1/codex").json()
        assert entry(body, LEDGER.key)["progress"]["game_in_progress"] is None
        game.refresh_from_db()
        assert game.status != Game.Status.ACTIVE

    def test_a_browser_session_reads_it(self, player_client, player):
        scenario_play(player=player, key=FIRST.key)
        body = player_client.get("/api/v1/codex").json()
        assert body["totals"]["won"] == 0
        assert entry(body, FIRST.key)["progress"]["game_in_progress"] is not None

    def test_a_dead_token_is_refused_even_here(self):
        response = ApiClient(token="no-such-session").get("/api/v1/codex")
        assert response.status_code == 401
        assert error_codes(response) == ["invalid_session_token"]

    def test_queries_for_a_visitor(self, anonymous_api, django_assert_num_queries):
        """The Master Architect's reign: the campaign of a visitor reads no game."""
        with django_assert_num_queries(1):
            assert anonymous_api.get("/api/v1/codex").status_code == 200

    def test_queries_for_a_player(self, api, player, django_assert_num_queries):
        """The clocks run out, the player's closed scenario games (the campaign), their
        games in progress, the reign: as many with twenty games as with none."""
        win(player, FIRST)
        scenario_play(player=player, key=VESTIBULE.key)
        with django_assert_num_queries(SIGNED_IN + 4) as captured:
            assert api.get("/api/v1/codex").status_code == 200
        tables = [
            re.search(r'FROM "(\w+)"', query["sql"]).group(1)
            for query in captured.captured_queries[SIGNED_IN:]
        ]
        assert tables == ["games_game", "games_game", "codex_titlereign", "games_game"]


class TestPlay:
    def test_deals_the_scenario_then_resumes_it(self, api, player):
        response = api.post(f"/api/v1/codex/{VESTIBULE.key}/play")
        assert response.status_code == 201
        state = response.json()
        assert set(state) == STATE_FIELDS
        game = Game.objects.get(player=player)
        assert state["id"] == str(game.id)
        assert (game.track, game.track_ref, game.seed) == (
            "scenario",
            VESTIBULE.key,
            VESTIBULE.seed,
        )
        assert state["track"] == "scenario"
        assert state["is_active"] is True
        assert state["move_count"] == 0
        assert state["options"] == VESTIBULE.options
        assert state["scenario"] == {
            "key": VESTIBULE.key,
            "number": VESTIBULE.number,
            "name": VESTIBULE.name,
            "tier": 1,
            "par": VESTIBULE.par,
            "two_star_moves": par_margin_moves(VESTIBULE.par),
            "stars_in_reach": 3,
            "handicaps": ["1 card a draw", "4 reserve slots", "3 recycles"],
        }
        assert state["undos_left"] is None
        no_seed(response)

        again = api.post(f"/api/v1/codex/{VESTIBULE.key}/play")
        assert again.status_code == 201
        assert again.json()["id"] == state["id"]
        assert Game.objects.filter(player=player).count() == 1

    def test_a_scenario_with_handicaps_deals_its_clock_and_undo_allowance(self, api, player):
        for scenario in [*tier(1)[:3], *tier(2)[:3], *tier(3)[:3]]:
            won_row(player, scenario)
        response = api.post(f"/api/v1/codex/{LEDGER.key}/play")
        assert response.status_code == 201
        state = response.json()
        assert state["undos_left"] == 3
        assert 700 < state["remaining_seconds"] <= 720
        assert "3 undos" in state["scenario"]["handicaps"]
        no_seed(response)
        path = f"/api/v1/games/{state['id']}"
        for undos_left in (2, 1, 0):
            move = {"move": state["legal_moves"][0], "revision": state["revision"]}
            state = api.post(f"{path}/moves", move).json()["game"]
            state = api.post(f"{path}/undo", {"revision": state["revision"]}).json()["game"]
            assert state["undos_left"] == undos_left
        move = {"move": state["legal_moves"][0], "revision": state["revision"]}
        state = api.post(f"{path}/moves", move).json()["game"]
        assert state["can_undo"] is False
        refused = api.post(f"{path}/undo", {"revision": state["revision"]})
        assert refused.status_code == 422
        assert refused.json()["errors"][0] == {
            "code": "illegal_move",
            "message": "This game allows 3 moves taken back, and all are used.",
            "param": None,
        }

    def test_a_resumed_game_whose_clock_ran_out_is_answered_closed(self, api, player):
        """As the web's Play leads to the board, which closes it; the next Play deals."""
        for scenario in [*tier(1)[:3], *tier(2)[:3], *tier(3)[:3]]:
            won_row(player, scenario)
        game = scenario_play(player=player, key=LEDGER.key)
        Game.objects.filter(id=game.id).update(deadline_at=timezone.now() - timedelta(seconds=1))
        response = api.post(f"/api/v1/codex/{LEDGER.key}/play")
        assert response.status_code == 201
        assert response.json()["id"] == str(game.id)
        assert response.json()["is_active"] is False
        again = api.post(f"/api/v1/codex/{LEDGER.key}/play").json()
        assert again["id"] != str(game.id)
        assert again["is_active"] is True

    def test_a_locked_tier_is_refused_with_the_reason_and_nothing_changes(self, api, player):
        response = api.post(f"/api/v1/codex/{LOCKED.key}/play")
        assert response.status_code == 409
        assert response.json() == {
            "status": 409,
            "errors": [
                {
                    "code": "scenario_locked",
                    "message": "Tier 2 opens when 3 scenarios of tier 1 are won: 0 won so far.",
                    "param": None,
                }
            ],
        }
        assert not Game.objects.exists()

    @pytest.mark.parametrize("key", ["no-such-scenario", "The-Kings-Vestibule"])
    def test_an_unknown_scenario_is_404(self, api, key):
        response = api.post(f"/api/v1/codex/{key}/play")
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]
        assert not Game.objects.exists()

    def test_no_credentials_is_401_and_plays_nothing(self, anonymous_api):
        response = anonymous_api.post(f"/api/v1/codex/{FIRST.key}/play")
        assert response.status_code == 401
        assert error_codes(response) == ["not_authenticated"]
        assert response["WWW-Authenticate"] == "X-Session-Token"
        assert not Game.objects.exists()

    def test_only_post(self, api):
        response = api.get(f"/api/v1/codex/{FIRST.key}/play")
        assert response.status_code == 405
        assert error_codes(response) == ["method_not_allowed"]

    def test_a_token_client_needs_no_csrf_token(self, player):
        app = ApiClient()
        app.client = Client(enforce_csrf_checks=True)
        app.log_in(player.username)
        assert app.post(f"/api/v1/codex/{FIRST.key}/play").status_code == 201

    def test_a_browser_session_without_its_csrf_token_is_refused(self, player):
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(player)
        response = browser.post(
            f"/api/v1/codex/{FIRST.key}/play", json.dumps({}), content_type="application/json"
        )
        assert response.status_code == 403
        assert error_codes(response) == ["csrf_failed"]
        assert not Game.objects.exists()

    def test_a_scenario_won_through_the_api_counts_in_the_campaign_and_its_leaderboard(
        self, api, player
    ):
        state = api.post(f"/api/v1/codex/{FIRST.key}/play").json()
        for move in scenario_certify(FIRST).moves:
            answer = api.post(
                f"/api/v1/games/{state['id']}/moves", {"move": move, "revision": state["revision"]}
            )
            assert answer.status_code == 200, answer.json()
            state = answer.json()["game"]
            no_seed(answer)
        assert state["state"] == "won"
        assert state["scenario"]["stars_in_reach"] >= 1
        progress = entry(api.get("/api/v1/codex").json(), FIRST.key)["progress"]
        assert progress["won"] is True
        assert progress["stars"] == state["scenario"]["stars_in_reach"]
        assert progress["best_ledger"] == state["final_score"]
        assert progress["game_in_progress"] is None
        board = api.get(f"/api/v1/codex/{FIRST.key}/leaderboard").json()
        assert board["viewer_row"]["rank"] == 1
        assert board["viewer_row"]["won"] is True
        assert board["viewer_row"]["score"] == state["final_score"]


class TestLeaderboard:
    def test_ranks_each_players_best_by_the_leaderboards_rule(self, anonymous_api, make_user):
        loser, winner, hinted = (make_user(name) for name in ("loser", "winner", "hinted"))
        closed(loser, status=Game.Status.LOST, score=900)
        closed(winner, status=Game.Status.WON, score=300, seconds=125, moves=133)
        closed(winner, status=Game.Status.LOST, score=50)
        closed(hinted, status=Game.Status.WON, score=999, hints=1)
        response = anonymous_api.get(f"/api/v1/codex/{FIRST.key}/leaderboard")
        assert response.status_code == 200
        body = response.json()
        assert (body["key"], body["number"], body["name"], body["tier"], body["par"]) == (
            FIRST.key,
            FIRST.number,
            FIRST.name,
            FIRST.tier,
            FIRST.par,
        )
        assert (body["count"], body["page"], body["num_pages"]) == (3, 1, 1)
        assert body["next"] is None
        assert body["previous"] is None
        assert [(row["rank"], row["username"]) for row in body["results"]] == [
            (1, "winner"),
            (2, "loser"),
            (3, "hinted"),
        ]
        first = body["results"][0]
        assert set(first) == ROW_FIELDS
        assert (first["won"], first["score"], first["elapsed_seconds"], first["move_count"]) == (
            True,
            300,
            125,
            133,
        )
        assert first["hints_used"] == 0
        assert first["is_viewer"] is False
        assert body["results"][2]["hints_used"] == 1
        assert body["viewer_row"] is None
        no_seed(response)

    def test_pages_by_fifty_with_the_viewers_row_off_the_page(self, make_user):
        players = [make_user(f"p{index:02}") for index in range(PAGE_SIZE + 1)]
        for index, someone in enumerate(players):
            closed(someone, status=Game.Status.WON, score=1000 - index)
        viewer = ApiClient()
        viewer.log_in(players[-1].username)
        url = f"/api/v1/codex/{FIRST.key}/leaderboard"
        first = viewer.get(url).json()
        assert (first["count"], first["page"], first["num_pages"]) == (51, 1, 2)
        assert len(first["results"]) == 50
        assert first["next"] == f"http://testserver{url}?page=2"
        assert not any(row["is_viewer"] for row in first["results"])
        assert (first["viewer_row"]["rank"], first["viewer_row"]["username"]) == (51, "p50")
        assert first["viewer_row"]["is_viewer"] is True
        second = viewer.get(url, page=2).json()
        assert [(row["rank"], row["username"], row["is_viewer"]) for row in second["results"]] == [
            (51, "p50", True)
        ]
        assert second["previous"] == f"http://testserver{url}"
        assert viewer.get(url, page=9).json()["page"] == 2
        assert viewer.get(url, page="x").json()["errors"][0]["param"] == "page"

    def test_another_scenarios_games_are_not_on_it(self, anonymous_api, player):
        closed(player, status=Game.Status.WON, scenario=tier(1)[1])
        body = anonymous_api.get(f"/api/v1/codex/{FIRST.key}/leaderboard").json()
        assert body["count"] == 0
        assert body["results"] == []

    @pytest.mark.parametrize("key", ["no-such-scenario", "bad%20key"])
    def test_an_unknown_scenario_is_404(self, anonymous_api, key):
        response = anonymous_api.get(f"/api/v1/codex/{key}/leaderboard")
        assert response.status_code == 404
        assert error_codes(response) == ["not_found"]

    def test_reads_the_board_in_one_query(
        self, anonymous_api, api, make_user, django_assert_num_queries
    ):
        for index in range(5):
            closed(make_user(f"p{index}"), status=Game.Status.WON, score=100 + index)
        with django_assert_num_queries(1):
            assert anonymous_api.get(f"/api/v1/codex/{FIRST.key}/leaderboard").status_code == 200
        with django_assert_num_queries(SIGNED_IN + 1):
            assert api.get(f"/api/v1/codex/{FIRST.key}/leaderboard").status_code == 200


def test_no_answer_holds_a_scenarios_seed(api, anonymous_api, player, make_user):
    """Every Codex answer, and the scenario game's own, for a visitor and a player."""
    closed(make_user("rival"), status=Game.Status.WON)
    win(player, tier(1)[1])
    answers = [
        anonymous_api.get("/api/v1/codex"),
        api.get("/api/v1/codex"),
        api.post(f"/api/v1/codex/{FIRST.key}/play"),
        api.post(f"/api/v1/codex/{LOCKED.key}/play"),
        api.post("/api/v1/codex/no-such-scenario/play"),
    ]
    game_id = answers[2].json()["id"]
    answers += [
        api.get(f"/api/v1/games/{game_id}"),
        api.get("/api/v1/games"),
        api.post(f"/api/v1/games/{game_id}/moves", {"move": "t1-t1", "revision": 0}),
    ]
    for scenario in codex_scenarios():
        answers += [
            anonymous_api.get(f"/api/v1/codex/{scenario.key}/leaderboard"),
            api.get(f"/api/v1/codex/{scenario.key}/leaderboard"),
        ]
    assert {answer.status_code for answer in answers} == {200, 201, 404, 409, 422}
    for answer in answers:
        no_seed(answer)


@pytest.mark.django_db(transaction=True)
def test_the_docs_codex_examples_run_against_a_live_server(live_server, player):
    """docs/api.md's Codex commands, run as written, with a player's token as $AUTH."""
    output = commands_output(
        section_commands("## The Codex"), server_url=live_server.url, username=player.username
    )
    for line in (
        '{"tier":1,"name":"The Foundation Galleries","unlocked":true,"lock_reason":null}',
        '"lock_reason":"Tier 2 opens when 3 scenarios of tier 1 are won: 0 won so far"}',
        '{"track":"scenario","undos_left":null,"scenario":{"key":"the-kings-vestibule"',
        '"code":"scenario_locked"',
        '"game_in_progress":"',
        '{"won":0,"scenarios":20,"stars":0,"max_stars":60,"ledger":0}',
        '{"count":0,"results":[],"viewer_row":null}',
    ):
        assert line in output, output
