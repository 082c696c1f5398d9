import json

import pytest
from django.test import Client
from django.urls import reverse
from markupsafe import escape

from games import services
from games.engine import format_move, get_variant
from games.models import Game
from games.throttles import DealRateThrottle
from tests.api.conftest import ApiClient
from tests.games.helpers import load_fixture, refusal_code, start_with_deck

pytestmark = pytest.mark.django_db

KLONDIKE = get_variant("klondike")
HX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


@pytest.fixture
def game(player):
    return services.game_start(player=player, variant="klondike")


def test_play_deals_once_then_resumes(player_client, player):
    first = player_client.post(reverse("games:play", args=["klondike"]))
    second = player_client.post(reverse("games:play", args=["klondike"]))
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Game.objects.filter(player=player).count() == 1
    resumed = player_client.get(reverse("games:play", args=["klondike"]))
    assert resumed["Location"] == first["Location"]


def test_unknown_game_kind_is_404(player_client):
    assert player_client.post(reverse("games:play", args=["chess"])).status_code == 404


def test_board_page_is_a_full_page_and_htmx_gets_the_partial(player_client, game):
    page = player_client.get(url("detail", game))
    partial = player_client.get(url("detail", game), **HX)
    assert b"<html" in page.content
    assert b'id="board"' in page.content
    assert b"<html" not in partial.content
    assert partial.content.lstrip().startswith(b'<section id="board"')


def test_a_move_with_htmx_returns_the_new_board(player_client, game):
    response = player_client.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    assert response.status_code == 200
    assert b'data-revision="1"' in response.content
    game.refresh_from_db()
    assert game.move_log == ["draw"]


def test_a_move_without_javascript_redirects_back_to_the_board(player_client, game):
    response = player_client.post(url("move", game), {"move": "draw", "revision": 0})
    assert response.status_code == 302
    assert response["Location"] == url("detail", game)


def test_an_illegal_move_gets_a_clear_message_and_changes_nothing(player_client, game):
    response = player_client.post(url("move", game), {"move": "w-t1", "revision": 0}, **HX)
    assert refusal_code(response) == "illegal_move"
    assert b'id="refusal"' in response.content
    game.refresh_from_db()
    assert (game.revision, game.move_log) == (0, [])


def test_an_illegal_move_without_javascript_shows_the_message_after_redirect(player_client, game):
    response = player_client.post(url("move", game), {"move": "t9-t1", "revision": 0}, follow=True)
    assert response.status_code == 200
    assert b'class="message error"' in response.content


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"move": "draw"},
        {"move": "draw", "revision": "x"},
        {"revision": 0},
        # Digits of other scripts, which int() reads: a form of the site writes ASCII.
        {"move": "draw", "revision": "\u0660"},
        {"move": "draw", "revision": "\uff10"},
    ],
)
def test_a_malformed_request_is_refused_as_malformed_and_changes_nothing(player_client, game, data):
    response = player_client.post(url("move", game), data, **HX)
    assert refusal_code(response) == "malformed"
    game.refresh_from_db()
    assert game.revision == 0


def test_a_repeated_submission_changes_nothing_and_returns_the_current_board(player_client, game):
    player_client.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    repeat = player_client.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    assert refusal_code(repeat) == "stale_revision"
    assert b'data-revision="1"' in repeat.content
    game.refresh_from_db()
    assert game.move_log == ["draw"]


def test_two_tabs_cannot_both_apply_a_move_made_on_the_same_board(player, game):
    tab_one, tab_two = Client(), Client()
    tab_one.force_login(player)
    tab_two.force_login(player)
    first = tab_one.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    second = tab_two.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    assert (refusal_code(first), refusal_code(second)) == (None, "stale_revision")
    game.refresh_from_db()
    assert game.move_log == ["draw"]


def test_another_players_game_is_404_everywhere(client, make_user, game):
    client.force_login(make_user("mallory"))
    assert client.get(url("detail", game)).status_code == 404
    for name in ("move", "tap", "undo", "finish", "auto_complete", "restart"):
        response = client.post(url(name, game), {"move": "draw", "revision": 0, "source": "w"})
        assert response.status_code == 404, name
    game.refresh_from_db()
    assert game.revision == 0


def test_anonymous_visitors_are_sent_to_log_in(client, game):
    response = client.get(url("detail", game))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_every_write_needs_the_csrf_token(player):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    game = services.game_start(player=player, variant="klondike")
    assert strict.post(url("move", game), {"move": "draw", "revision": 0}).status_code == 403
    assert strict.post(reverse("games:play", args=["klondike"])).status_code == 403
    page = strict.get(url("detail", game))
    token = page.context["csrf_token"]
    assert f"&quot;X-CSRFToken&quot;: &quot;{token}&quot;".encode() in page.content or (
        f'"X-CSRFToken": "{token}"'.encode() in page.content
    )
    ok = strict.post(
        url("move", game), {"move": "draw", "revision": 0}, HTTP_X_CSRFTOKEN=str(token)
    )
    assert ok.status_code == 302


def test_selecting_a_card_shows_where_it_can_go(player_client, player):
    case = load_fixture("klondike_win.json")
    game = start_with_deck(player, case["deck"])
    state = KLONDIKE.load(game.state)
    move = next(m for m in KLONDIKE.legal_moves(state) if m.kind == "transfer")
    key = f"{move.src}/{move.count}"
    response = player_client.get(url("detail", game) + f"?sel={key}", **HX)
    assert b"selected" in response.content
    assert f'name="move" value="{format_move(move)}"'.encode() in response.content


def test_a_nonsense_selection_selects_nothing(player_client, game):
    response = player_client.get(url("detail", game) + "?sel=t9/99", **HX)
    assert response.status_code == 200
    assert b"selection-bar" not in response.content


def test_tap_undo_and_the_move_number(player_client, player):
    # The winning fixture's deal has a card that a tap sends somewhere from the start.
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    state = KLONDIKE.load(game.state)
    tap_target = next(
        place
        for place in ("t1", "t2", "t3", "t4", "t5", "t6", "t7")
        if KLONDIKE.tap(state, place, 1)
    )
    player_client.post(url("move", game), {"move": "draw", "revision": 0}, **HX)
    undo = player_client.post(url("undo", game), {"revision": 1}, **HX)
    assert undo.status_code == 200
    game.refresh_from_db()
    assert (game.move_log, game.revision) == ([], 2)
    tapped = player_client.post(url("tap", game), {"source": tap_target, "revision": 2}, **HX)
    assert tapped.status_code == 200
    game.refresh_from_db()
    assert game.move_log == [format_move(KLONDIKE.tap(state, tap_target, 1))]
    bad = player_client.post(url("tap", game), {"source": "x9", "revision": game.revision}, **HX)
    assert refusal_code(bad) == "malformed"
    game.refresh_from_db()
    assert game.move_count == 1


def test_finish_asks_first_then_makes_the_result_final(player_client, game):
    ask = player_client.post(url("finish", game), {"revision": 0}, **HX)
    assert b"Finish this game?" in ask.content
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    done = player_client.post(url("finish", game), {"revision": 0, "confirm": "on"}, **HX)
    assert done.status_code == 200
    assert b'id="summary"' in done.content
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    refused = player_client.post(url("undo", game), {"revision": game.revision}, **HX)
    assert refusal_code(refused) == "game_closed"
    assert b"final" in refused.content


def test_new_deal_and_restart(player_client, player, game):
    new = player_client.post(reverse("games:new_deal", args=["klondike"]), {"confirm": "on"})
    assert new.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    restart = player_client.post(url("restart", game), {"confirm": "on"}, **HX)
    assert restart.status_code == 200
    latest = Game.objects.filter(player=player, status=Game.Status.ACTIVE).get()
    assert restart["HX-Redirect"] == url("detail", latest)
    assert latest.seed == game.seed


ON_THE_BOARD = {**HX, "HTTP_HX_TARGET": "board"}


def test_new_deal_and_restart_on_the_board_fetch_the_new_board_in_place(
    player_client, player, game
):
    """htmx is told to fetch the new game's board into the old one's place (and to push
    its address): a bare HX-Location would swap the board alone into <body>."""
    new = player_client.post(
        reverse("games:new_deal", args=["klondike"]), {"confirm": "on"}, **ON_THE_BOARD
    )
    dealt = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    restart = player_client.post(url("restart", dealt), {"confirm": "on"}, **ON_THE_BOARD)
    restarted = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    assert restarted.restart_of_id == dealt.id
    for answer, shown in ((new, dealt), (restart, restarted)):
        assert answer.status_code == 200
        assert json.loads(answer["HX-Location"]) == {
            "path": url("detail", shown),
            "target": "#board",
            "swap": "outerHTML",
        }
    fetched = player_client.get(url("detail", restarted), **ON_THE_BOARD)
    assert fetched.content.lstrip().startswith(b'<section id="board"')


def test_the_board_address_answers_a_history_restore_with_the_whole_page(player_client, game):
    """htmx asks again for a page it pushed when its history cache misses: the page,
    not the board alone; and the browser keeps the two answers apart (Vary)."""
    restored = player_client.get(
        url("detail", game), HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert b"<html" in restored.content
    assert b'id="keys-help"' in restored.content
    for answer in (restored, player_client.get(url("detail", game), **HX)):
        assert "HX-Request" in answer["Vary"]


def test_history_pages_ten_games_with_the_figures(player_client, player):
    for _ in range(12):
        services.game_start(player=player, variant="klondike")
    page_one = player_client.get(reverse("games:history"))
    assert page_one.content.count(b"<tr>") == 11  # header + 10 games
    assert b'id="stat-played">12<' in page_one.content
    page_two = player_client.get(reverse("games:history") + "?page=2", **HX)
    assert page_two.content.count(b"<tr>") == 3
    assert b"<html" not in page_two.content


def test_rules_page(client):
    response = client.get(reverse("games:rules", args=["klondike"]))
    assert response.status_code == 200
    assert b"the full points table comes later" in response.content


def test_history_says_which_daily_attempt_was_ranked_and_which_was_practice(player_client, player):
    from leaderboards.periods import today_utc
    from leaderboards.services import daily_deal_play, daily_deals_ensure

    deal = next(d for d in daily_deals_ensure(day=today_utc()) if d.variant == "klondike")
    ranked = daily_deal_play(player=player, deal=deal)
    services.game_restart(game_id=ranked.id, player=player)
    page = player_client.get(reverse("games:history"))
    assert page.content.count(b"daily \xc2\xb7 ranked") == 1
    assert page.content.count(b"daily \xc2\xb7 practice") == 1


def test_a_daily_game_in_progress_does_not_stand_in_for_the_casual_one(player_client, player):
    from leaderboards.periods import today_utc
    from leaderboards.services import daily_deal_play, daily_deals_ensure

    deal = next(d for d in daily_deals_ensure(day=today_utc()) if d.variant == "klondike")
    daily = daily_deal_play(player=player, deal=deal)
    casual = player_client.get(reverse("games:play", args=["klondike"]))
    casual_game = Game.objects.get(player=player, track=Game.Track.CASUAL)
    assert casual_game.id != daily.id
    assert casual["Location"] == url("detail", casual_game)
    assert player_client.get(reverse("games:play", args=["klondike"]))["Location"] == url(
        "detail", casual_game
    )
    daily.refresh_from_db()
    assert daily.is_active


@pytest.mark.parametrize("confirm", ["maybe", "yes", "true", "1", "ON", "on "])
def test_finish_with_any_other_confirm_value_is_refused_and_changes_nothing(
    player_client, game, confirm
):
    refused = player_client.post(url("finish", game), {"revision": 0, "confirm": confirm}, **HX)
    assert refusal_code(refused) == "malformed"
    assert b"malformed" in refused.content
    assert b"Finish this game?" not in refused.content
    plain = player_client.post(url("finish", game), {"revision": 0, "confirm": confirm})
    assert plain.status_code == 302
    assert plain["Location"] == url("detail", game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.revision == 0
    assert game.finished_at is None


def test_every_code_the_board_refuses_with_is_one_of_the_apis():
    from api.errors import ERROR_CODES
    from games.errors import MALFORMED, GameActionError, GameClosed, MoveRefused, StaleAction

    codes = {kind.code for kind in (GameActionError, MoveRefused, StaleAction, GameClosed)}
    assert codes | {MALFORMED} <= ERROR_CODES.keys()


@pytest.mark.parametrize(
    ("body", "closed", "code"),
    [
        ({"move": "t1-f", "revision": 0}, False, "illegal_move"),
        ({"move": "t5-f", "revision": 3}, False, "stale_revision"),
        ({"move": "t5-f", "revision": "zero"}, False, "malformed"),
        ({"move": "draw", "revision": 1}, True, "game_closed"),
    ],
)
def test_the_board_refuses_with_the_apis_code_for_the_same_move(
    player_client, player, body, closed, code
):
    """The same refusal has the same code on the board (its HX-Trigger) as in the API."""
    from tests.api.conftest import ApiClient

    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    if closed:
        services.game_finish(game_id=game.id, player=player, revision=0)
    web = player_client.post(url("move", game), body, **HX)
    app = ApiClient()
    assert app.log_in(player.username).status_code == 200
    api = app.post(f"/api/v1/games/{game.id}/moves", body)
    refusal = api.json()["errors"][0]
    assert refusal_code(web) == refusal["code"] == code
    if code != "malformed":  # the API's message names the field; the board's says malformed
        assert f'id="refusal">{escape(refusal["message"])}<' in web.content.decode()


@pytest.fixture
def three_deals_a_minute(monkeypatch):
    # DRF reads the rates into the class when it loads.
    monkeypatch.setattr(DealRateThrottle, "THROTTLE_RATES", {"deals": "3/min"})


@pytest.mark.usefixtures("three_deals_a_minute")
@pytest.mark.parametrize("htmx", [False, True])
def test_dealing_is_throttled_with_429_and_retry_after(player_client, player, game, htmx):
    headers = HX if htmx else {}
    new_deal = reverse("games:new_deal", args=["klondike"])
    for _deal in range(2):
        assert player_client.post(new_deal, {"confirm": "on"}, **headers).status_code < 400
    latest = Game.objects.filter(player=player).latest("started_at")
    restarted = player_client.post(url("restart", latest), {"confirm": "on"}, **headers)
    assert restarted.status_code < 400
    dealt = Game.objects.filter(player=player).count()
    for refused in (
        player_client.post(new_deal, {"confirm": "on"}, **headers),
        player_client.post(url("restart", latest), {"confirm": "on"}, **headers),
    ):
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) > 0
        assert b"Too many new deals" in refused.content
    assert Game.objects.filter(player=player).count() == dealt
    # Play goes on: the throttle is on dealing only.
    active = Game.objects.get(player=player, status=Game.Status.ACTIVE)
    assert player_client.get(reverse("games:detail", args=[active.id])).status_code == 200


@pytest.mark.usefixtures("three_deals_a_minute")
def test_the_web_and_the_api_deal_from_one_budget(player_client, player):
    new_deal = reverse("games:new_deal", args=["klondike"])
    for _deal in range(3):
        assert player_client.post(new_deal, {"confirm": "on"}).status_code == 302
    api = ApiClient()
    assert api.log_in(player.username).status_code == 200
    refused = api.post("/api/v1/games", {"variant": "klondike", "confirm": True})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
