"""The finish toast: the badges a game earned, on its finish summary."""

import json
import re

import pytest
from django.urls import reverse

from accounts.services import profile_update
from achievements.models import Evaluation
from achievements.tasks import achievements_evaluate_task
from achievements.views import TOAST_TRIES
from games import services as game_services
from games.models import Game
from tests.achievements.helpers import FIXTURES, closed_game, committed, spike_state

pytestmark = pytest.mark.django_db


def toast_url(game, attempt=None):
    url = reverse("achievements:finish_toast", kwargs={"game_id": game.id})
    return url if attempt is None else f"{url}?try={attempt}"


def gold_spike(player) -> Game:
    state = spike_state(cleared=5, stock_left=12)
    return closed_game(player, "spike", Game.Status.WON, state=state, options={"mode": "classic"})


def play_klondike_win(player, *, undo_at: int | None = None) -> Game:
    """The Klondike fixture played through the services (the on-commit task runs)."""
    case = json.loads((FIXTURES / "klondike_win.json").read_text())
    game = game_services.game_start(player=player, variant="klondike")
    from games.engine import get_variant

    engine = get_variant("klondike")
    game.state = engine.dump(engine.deal(case["deck"], game.options))
    game.save(update_fields=["state"])
    with committed():
        for index, move in enumerate(case["moves"]):
            game.refresh_from_db()
            game_services.game_move_play(
                game_id=game.id, player=player, move=move, revision=game.revision
            )
            if index == undo_at:
                game.refresh_from_db()
                game_services.game_move_undo(game_id=game.id, player=player, revision=game.revision)
                game.refresh_from_db()
                game_services.game_move_play(
                    game_id=game.id, player=player, move=move, revision=game.revision
                )
    game.refresh_from_db()
    return game


def test_a_won_game_shows_its_badges_on_the_finish_summary(player_client, player):
    game = play_klondike_win(player)
    assert game.status == Game.Status.WON

    page = player_client.get(reverse("games:detail", kwargs={"game_id": game.id}))
    html = page.content.decode()
    summary = html[html.index('id="summary"') :]
    assert f'hx-get="{toast_url(game)}"' in summary
    assert 'hx-trigger="load"' in summary

    response = player_client.get(toast_url(game), HTTP_HX_REQUEST="true")
    toast = response.content.decode()
    assert response.status_code == 200
    assert 'role="status"' in toast
    assert "3 badges earned" in toast
    for title in ("First Klondike win", "Klondike without undo", "Klondike in under 3 minutes"):
        assert title in toast
    assert response["Cache-Control"] == "no-store"


def test_an_undo_on_the_way_costs_the_no_undo_badge(player_client, player):
    game = play_klondike_win(player, undo_at=3)

    assert game.status == Game.Status.WON
    assert game.undo_count == 1
    toast = player_client.get(toast_url(game)).content.decode()
    assert "First Klondike win" in toast
    assert "without undo" not in toast


def test_the_toast_is_a_404_for_anybody_elses_game(client, player, make_user):
    game = closed_game(player, "klondike")
    achievements_evaluate_task.delay(str(game.id))

    assert client.get(toast_url(game)).status_code == 404  # a visitor
    client.force_login(make_user("bob"))
    assert client.get(toast_url(game)).status_code == 404


def test_the_toast_shows_nothing_secret(player_client, player):
    game = gold_spike(player)
    achievements_evaluate_task.delay(str(game.id))

    toast = player_client.get(toast_url(game)).content.decode()

    assert "Gold Summit" in toast
    assert game.seed not in toast
    for card in game.state["stock"]:
        assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", toast)


def test_a_game_that_earned_nothing_shows_no_toast(player_client, player):
    game = closed_game(player, "klondike", Game.Status.LOST)
    achievements_evaluate_task.delay(str(game.id))

    response = player_client.get(toast_url(game))

    assert response.status_code == 200
    assert response.content.decode().strip() == ""


def test_the_toast_waits_for_the_evaluation_then_gives_up(player_client, player):
    game = closed_game(player, "klondike")  # no task has judged it yet

    waiting = player_client.get(toast_url(game)).content.decode()
    assert f'hx-get="{toast_url(game, 2)}"' in waiting
    assert 'hx-trigger="load delay:1s"' in waiting

    assert player_client.get(toast_url(game, TOAST_TRIES)).content.decode().strip() == ""

    achievements_evaluate_task.delay(str(game.id))
    assert Evaluation.objects.filter(game=game).exists()
    assert "First Klondike win" in player_client.get(toast_url(game, 2)).content.decode()


def test_an_active_game_has_no_toast(player_client, player):
    game = game_services.game_start(player=player, variant="klondike")
    assert player_client.get(toast_url(game)).content.decode().strip() == ""


def test_a_repeatable_badge_shows_how_many_the_player_holds(player_client, player):
    games = [gold_spike(player), gold_spike(player)]
    for game in games:
        achievements_evaluate_task.delay(str(game.id))

    toast = player_client.get(toast_url(games[1])).content.decode()

    assert "Gold Summit" in toast
    assert 'aria-label="2 times"' in toast
    assert "First Spike win" not in toast  # the first game earned that one


def test_reduced_motion_turns_the_toast_animation_off(player_client, player):
    profile_update(user=player, public=True, highlight_moves=False, reduced_motion=True)
    game = closed_game(player, "klondike")
    achievements_evaluate_task.delay(str(game.id))

    assert "reduce-motion" in player_client.get(toast_url(game)).content.decode()


def test_the_toast_answers_get_only(player_client, player):
    game = closed_game(player, "klondike")
    assert player_client.post(toast_url(game)).status_code == 405
