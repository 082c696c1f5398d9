"""Steps on the platform: the options of a deal, reserve slots on the board,
the live dashboard, the ledger line by line, and a win, a flawless win and a lockout."""

import pytest
from django.urls import reverse

from games import services
from games.engine import get_variant
from games.models import Game
from games.tracks import casual_track
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
STEPS = get_variant("steps")


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


def play_fixture(player, name: str, upto: int | None = None) -> Game:
    case = load_fixture(name)
    game = start_with_deck(player, case["deck"], variant="steps", options=case["options"])
    for revision, move in enumerate(case["moves"][:upto]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    game.refresh_from_db()
    return game


def test_the_options_are_chosen_stored_and_shown(player_client, player):
    page = player_client.get(reverse("games:play", args=["steps"]))
    assert b'name="buffers"' in page.content
    response = player_client.post(
        reverse("games:new_deal", args=["steps"]),
        {"draw": "3", "buffers": "2", "recycles": "1", "retrieval": "on"},
    )
    game = Game.objects.get(player=player, variant="steps")
    assert response["Location"] == url("detail", game)
    assert game.options == {"draw": 3, "buffers": 2, "recycles": 1, "retrieval": True}
    board = player_client.get(url("detail", game))
    assert b"Draw 3 \xc2\xb7 2 reserve slots \xc2\xb7 1 recycle \xc2\xb7" in board.content
    assert board.content.count(b"reserve-slot") == 2
    assert board.content.count(b"card slot locked") == 2


@pytest.mark.parametrize(
    "data",
    [
        {"draw": "2", "buffers": "4", "recycles": "3"},
        {"draw": "1", "buffers": "5", "recycles": "3"},
        {"draw": "1", "buffers": "4", "recycles": "-1"},
        # "٣" and "٢" are Arabic-Indic digits, which int() reads as 3 and 2.
        {"draw": "1", "buffers": "\u0663", "recycles": "3"},
        {"draw": "1", "buffers": "4", "recycles": "\u0662"},
    ],
)
def test_bad_options_are_refused_and_deal_nothing(player_client, player, data):
    response = player_client.post(reverse("games:new_deal", args=["steps"]), data)
    assert response.status_code == 400
    assert not Game.objects.filter(player=player).exists()


def test_new_deal_keeps_the_options_of_the_game(player_client, player):
    game = services.game_start(
        player=player,
        variant="steps",
        track=casual_track(options={"draw": 3, "buffers": 1, "recycles": 0}),
    )
    page = player_client.get(url("detail", game))
    assert b'name="buffers" value="1"' in page.content
    player_client.post(
        reverse("games:new_deal", args=["steps"]),
        {"draw": "3", "buffers": "1", "recycles": "0", "retrieval": "False", "confirm": "on"},
    )
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    latest = Game.objects.filter(player=player, status=Game.Status.ACTIVE).get()
    assert latest.options == {"draw": 3, "buffers": 1, "recycles": 0, "retrieval": False}


def test_a_card_goes_into_a_reserve_slot_and_the_dashboard_follows(player_client, player):
    case = load_fixture("steps_win.json")
    first_reserve = next(i for i, m in enumerate(case["moves"]) if "-r" in m)
    game = play_fixture(player, "steps_win.json", upto=first_reserve)
    before = STEPS.public_view(STEPS.load(game.state))
    move = case["moves"][first_reserve]
    source = move.split("-")[0]
    selected = player_client.get(url("detail", game) + f"?sel={source}/1", **HX)
    assert f'name="move" value="{move}"'.encode() in selected.content
    response = player_client.post(
        url("move", game), {"move": move, "revision": game.revision}, **HX
    )
    assert response.status_code == 200
    after = STEPS.public_view(STEPS.load(Game.objects.get(id=game.id).state))
    assert after["points"] == before["points"] - 2
    assert f'id="points">{after["points"]}<'.encode() in response.content
    assert b"no flawless bonus" in response.content


def test_a_win_shows_the_ledger_line_by_line(player_client, player):
    game = play_fixture(player, "steps_win_flawless.json")
    assert game.status == Game.Status.WON
    view = STEPS.public_view(STEPS.load(game.state))
    assert game.final_score == view["ledger"] == 520 - 20 * view["recycles"] + 100
    page = player_client.get(url("detail", game))
    for line in view["ledger_lines"]:
        assert line["label"].encode() in page.content
    assert f'id="ledger-total">{view["ledger"]}<'.encode() in page.content
    assert f'id="action-points">{view["points"]}<'.encode() in page.content


def test_a_win_with_a_reserve_used_earns_no_flawless_bonus(player):
    game = play_fixture(player, "steps_win.json")
    assert game.status == Game.Status.WON
    view = STEPS.public_view(STEPS.load(game.state))
    assert view["reserve_used_ever"] is True
    assert game.final_score == 520 - 20 * view["recycles"]


def test_a_stagnation_lockout_ends_the_game_as_lost(player_client, player):
    game = play_fixture(player, "steps_lost.json")
    assert game.status == Game.Status.ACTIVE  # announced: Undo or Accept the loss
    page = player_client.get(url("detail", game))
    assert b'id="lost-banner"' in page.content
    services.game_loss_accept(game_id=game.id, player=player, revision=game.revision)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    page = player_client.get(url("detail", game))
    assert b'id="lost-reason"' in page.content


def test_a_reserve_card_taps_to_where_it_goes(player_client, player):
    case = load_fixture("steps_win.json")
    out_of_reserve = next(i for i, m in enumerate(case["moves"]) if m.startswith("r"))
    game = play_fixture(player, "steps_win.json", upto=out_of_reserve)
    state = STEPS.load(game.state)
    source = case["moves"][out_of_reserve].split("-")[0]
    expected = STEPS.tap(state, source, 1)
    assert expected is not None
    response = player_client.post(
        url("tap", game), {"source": source, "revision": game.revision}, **HX
    )
    assert response.status_code == 200
    assert STEPS.load(Game.objects.get(id=game.id).state) == STEPS.apply(state, expected).state


@pytest.mark.parametrize("data", [{}, {"csrfmiddlewaretoken": "x"}], ids=["empty", "token-only"])
def test_a_new_deal_posted_with_no_options_deals_the_defaults(player_client, player, data):
    response = player_client.post(reverse("games:new_deal", args=["steps"]), data)
    game = Game.objects.get(player=player, variant="steps")
    assert response.status_code == 302
    assert response["Location"] == url("detail", game)
    assert game.options == STEPS.normalize_options(None)


def test_a_new_deal_with_some_options_missing_is_refused_with_the_form_errors(
    player_client, player
):
    response = player_client.post(reverse("games:new_deal", args=["steps"]), {"draw": "3"})
    assert response.status_code == 400
    assert response.context["form"].errors.keys() == {"buffers", "recycles"}
    assert b"This field is required." in response.content
    assert not Game.objects.filter(player=player).exists()
