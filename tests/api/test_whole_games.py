"""A client that knows only the API plays a game of each kind to its end, sees the
badges it earned, and its daily deal's rank."""

import pytest

from games.specs import game_keys
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", game_keys())
def test_a_winning_game_of_every_kind_played_through_the_api(
    api, player, variant, django_capture_on_commit_callbacks
):
    case = load_fixture(f"{variant}_win.json")
    game = start_with_deck(player, case["deck"], variant=variant, options=case["options"])
    path = f"/api/v1/games/{game.id}"
    revision = 0
    for move in case["moves"]:
        state = api.get(path).json()
        if state["state"] != "active":
            break
        # Safe cards may have gone home on their own after a move (the player's setting).
        if move not in state["legal_moves"] and state["revision"] != revision:
            continue
        # The win's badges are awarded by a task once the move commits.
        with django_capture_on_commit_callbacks(execute=True):
            answer = api.post(f"{path}/moves", {"move": move, "revision": state["revision"]})
        assert answer.status_code == 200, answer.json()
        revision = answer.json()["game"]["revision"]
    final = api.get(path).json()
    assert final["state"] == "won"
    assert final["finished_at"] is not None
    profile = api.get(f"/api/v1/players/{player.username}").json()
    badges = {badge["code"]: badge for badge in profile["badges"]}
    assert badges[f"first-win-{variant}"]["count"] == 1


def test_a_daily_deal_played_through_the_api_gets_its_rank(
    api, player, django_capture_on_commit_callbacks
):
    game = api.post("/api/v1/daily/klondike/play").json()
    assert (game["track"], game["is_ranked"]) == ("daily", True)
    with django_capture_on_commit_callbacks(execute=True):
        finished = api.post(
            f"/api/v1/games/{game['id']}/finish", {"revision": game["revision"], "confirm": True}
        )
    assert finished.json()["game"]["state"] == "finished"
    daily = api.get("/api/v1/daily").json()
    (klondike,) = [deal for deal in daily["deals"] if deal["variant"] == "klondike"]
    assert klondike["rank"] == 1
    assert klondike["ranked_game"]["id"] == game["id"]
    board = api.get(f"/api/v1/daily/{daily['day']}/klondike/leaderboard").json()
    assert board["viewer_row"]["username"] == player.username
    assert board["viewer_row"]["rank"] == 1
