"""A proven loss is announced, not closed (issue 14, section 3): a move into a lost
position leaves the game active with a banner that says why and offers Undo or Accept
the loss; any other move is refused with the reason; accepting, finishing, the clock
running out or leaving the game for a new deal close it as lost."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import format_move, get_variant
from games.errors import MoveRefused
from games.models import Game
from games.services.actions import NOT_LOST_MESSAGE
from leaderboards.models import Result
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_play, daily_deals_ensure
from tests.games.helpers import (
    hidden_cards,
    leaked_cards,
    load_fixture,
    refusal_code,
    start_with_deck,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
VARIANTS = ["kingsley", "spiderette"]


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.id})


def play(game: Game, moves: list[str]) -> None:
    for move in moves:
        game.refresh_from_db()
        services.game_move_play(
            game_id=game.id, player=game.player, move=move, revision=game.revision
        )
    game.refresh_from_db()


def one_move_from_lost(player, variant: str) -> tuple[Game, str]:
    """A game of the lost fixture with every move played but the last, and that move."""
    case = load_fixture(f"{variant}_lost.json")
    game = start_with_deck(player, case["deck"], variant=variant)
    played_before(game, case["moves"][:-1])
    assert get_variant(variant).status(get_variant(variant).load(game.state)) == "in_progress"
    return game, case["moves"][-1]


def played_before(game: Game, moves: list[str]) -> None:
    """The game as if these moves had been played through the service (its logs, state
    and figures), written at once: a long fixture stays quick."""
    engine = get_variant(game.variant)
    state = engine.load(game.state)
    for move in moves:
        step = engine.play(state, move)
        state = step.state
        game.move_log.append(move)
        game.undo_log.append(step.undo)
    game.state = engine.dump(state)
    game.move_count = len(game.move_log)
    game.score = engine.score(state)
    game.revision += len(moves)
    game.save(update_fields=["state", "move_log", "undo_log", "move_count", "score", "revision"])


def lost_game(player, variant: str) -> Game:
    game, last = one_move_from_lost(player, variant)
    play(game, [last])
    return game


def banner(html: str) -> str:
    start = html.index('id="lost-banner"')
    return html[start : html.index('<div class="table', start)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_move_into_a_lost_position_leaves_the_game_active_with_the_banner(
    player_client, player, variant
):
    game, last = one_move_from_lost(player, variant)
    response = player_client.post(
        url("move", game), {"move": last, "revision": game.revision}, **HX
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.finished_at is None
    assert game.final_score is None
    engine = get_variant(variant)
    assert engine.status(engine.load(game.state)) == "lost"
    html = response.content.decode()
    shown = banner(html)
    assert "This game is lost" in shown
    assert engine.public_view(engine.load(game.state))["lost_reason"] in shown
    # Undo and Accept the loss are real forms: POST, htmx, the board's revision, and
    # on the page (which works without JavaScript) the CSRF token; htmx sends it in a
    # header, so the partial leaves it out.
    accept = url("accept_loss", game)
    assert f'method="post" action="{accept}" hx-post="{accept}"' in shown
    assert "csrfmiddlewaretoken" not in shown
    assert "csrfmiddlewaretoken" in banner(player_client.get(url("detail", game)).content.decode())
    assert f'name="revision" value="{game.revision}"' in shown
    assert 'id="lost-undo"' in shown
    assert 'id="accept-loss"' in shown
    assert 'id="summary"' not in html  # not closed: no final summary


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_banner_shows_no_hidden_card(player_client, player, variant):
    game = lost_game(player, variant)
    html = player_client.get(url("detail", game)).content.decode()
    assert leaked_cards(banner(html), hidden_cards(game)) == []
    assert game.seed not in html


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_undo_takes_the_loss_back_and_play_continues(player_client, player, variant):
    game = lost_game(player, variant)
    response = player_client.post(url("undo", game), {"revision": game.revision}, **HX)
    assert response.status_code == 200
    assert 'id="lost-banner"' not in response.content.decode()
    game.refresh_from_db()
    engine = get_variant(variant)
    state = engine.load(game.state)
    assert game.status == Game.Status.ACTIVE
    assert engine.status(state) == "in_progress"
    moves_before = game.move_count
    another = engine.legal_moves(state)[0]
    played = player_client.post(
        url("move", game), {"move": format_move(another), "revision": game.revision}, **HX
    )
    assert played.status_code == 200
    game.refresh_from_db()
    assert game.move_count == moves_before + 1
    assert game.status == Game.Status.ACTIVE


@pytest.mark.parametrize("variant", VARIANTS)
def test_accept_the_loss_closes_the_game_as_lost(player_client, player, variant):
    game = lost_game(player, variant)
    response = player_client.post(url("accept_loss", game), {"revision": game.revision}, **HX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    assert game.finished_at is not None
    assert game.final_score is not None
    html = response.content.decode()
    assert 'id="summary"' in html
    assert 'id="lost-reason"' in html
    assert 'id="lost-banner"' not in html
    refused = player_client.post(url("undo", game), {"revision": game.revision}, **HX)
    assert refusal_code(refused) == "game_closed"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_move_in_the_lost_position_is_refused_with_the_reason(player_client, player, variant):
    game = lost_game(player, variant)
    engine = get_variant(variant)
    before = (game.revision, game.state, game.move_log)
    # Any move: a move the notation knows, legal or not in the position.
    for move in ["t1-t2", "t2-t3", "deal" if variant == "spiderette" else "draw"]:
        response = player_client.post(
            url("move", game), {"move": move, "revision": game.revision}, **HX
        )
        assert refusal_code(response) == "illegal_move"
        assert "already lost" in response.content.decode()
    tapped = player_client.post(url("tap", game), {"source": "t1", "revision": game.revision}, **HX)
    assert refusal_code(tapped) == "illegal_move"
    assert "The game is lost: the stock is empty" in tapped.content.decode()
    game.refresh_from_db()
    assert (game.revision, game.state, game.move_log) == before
    assert game.status == Game.Status.ACTIVE
    assert engine.status(engine.load(game.state)) == "lost"


def test_a_stale_accept_is_refused_and_a_position_that_is_not_lost_cannot_be_accepted(
    player_client, player
):
    game, last = one_move_from_lost(player, "spiderette")
    with pytest.raises(MoveRefused, match="not lost"):
        services.game_loss_accept(game_id=game.id, player=player, revision=game.revision)
    response = player_client.post(url("accept_loss", game), {"revision": game.revision}, **HX)
    assert refusal_code(response) == "illegal_move"
    assert NOT_LOST_MESSAGE.split(":")[0] in response.content.decode()
    play(game, [last])
    stale = player_client.post(url("accept_loss", game), {"revision": game.revision - 1}, **HX)
    assert refusal_code(stale) == "stale_revision"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.parametrize("leave", ["new_deal", "restart"])
def test_leaving_a_lost_game_for_a_new_deal_records_the_loss(player_client, player, leave):
    game = lost_game(player, "kingsley")
    if leave == "new_deal":
        target = reverse("games:new_deal", args=["kingsley"])
    else:
        target = url("restart", game)
    asked = player_client.post(target, {}, **HX)
    assert "ends as lost" in asked.content.decode()
    player_client.post(target, {"confirm": "on"}, **HX)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    assert game.finished_at is not None


def test_a_game_that_is_not_lost_is_still_abandoned(player_client, player):
    game, _ = one_move_from_lost(player, "kingsley")
    player_client.post(reverse("games:new_deal", args=["kingsley"]), {"confirm": "on"}, **HX)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_finish_in_a_lost_position_closes_as_lost(player_client, player):
    game = lost_game(player, "spiderette")
    player_client.post(url("finish", game), {"revision": game.revision, "confirm": "on"}, **HX)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST


def test_the_clock_running_out_in_a_lost_position_closes_it_as_lost(player):
    game = lost_game(player, "spiderette")
    Game.objects.filter(id=game.id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert services.game_close_if_time_up(game_id=game.id)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST


def daily_kingsley_one_move_from_lost(player) -> tuple[Game, str]:
    deal = next(d for d in daily_deals_ensure(day=today_utc()) if d.variant == "kingsley")
    game = daily_deal_play(player=player, deal=deal)
    assert game.is_ranked
    case = load_fixture("kingsley_lost.json")
    engine = get_variant("kingsley")
    game.state = engine.dump(engine.deal(case["deck"], game.options))
    played_before(game, case["moves"][:-1])
    return game, case["moves"][-1]


def test_a_daily_loss_counts_once_accepted(player_client, player):
    game, last = daily_kingsley_one_move_from_lost(player)
    play(game, [last])
    assert game.status == Game.Status.ACTIVE
    assert not Result.objects.filter(game=game).exists()  # announced, not yet counted
    player_client.post(url("accept_loss", game), {"revision": game.revision}, **HX)
    result = Result.objects.get(game=game)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    assert (result.won, result.score) == (False, game.final_score)


def test_a_daily_loss_counts_when_abandoned(player_client, player):
    game, last = daily_kingsley_one_move_from_lost(player)
    play(game, [last])
    player_client.post(url("restart", game), {"confirm": "on"}, **HX)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    assert Result.objects.get(game=game).won is False


def test_where_the_search_cannot_decide_the_board_offers_finish(player_client, player, monkeypatch):
    # The position of issue 14, section 6, with the old cap: the search stops undecided.
    from games.engine import shuffled_deck, spiderette_lost
    from tests.engine.test_stuck_search import HOPELESS_MOVES, HOPELESS_SEED

    monkeypatch.setattr(spiderette_lost, "SEARCH_CAP", 2_000)
    spiderette_lost._verdict.cache_clear()
    try:
        game = start_with_deck(player, shuffled_deck(HOPELESS_SEED), variant="spiderette")
        played_before(game, HOPELESS_MOVES)
        html = player_client.get(url("detail", game)).content.decode()
        assert 'id="maybe-stuck"' in html
        assert 'id="lost-banner"' not in html
        finish = url("finish", game)
        assert f'method="post" action="{finish}" hx-post="{finish}"' in html
        assert 'id="maybe-stuck-finish"' in html
    finally:
        monkeypatch.undo()
        spiderette_lost._verdict.cache_clear()
    # With the search's own cap the same position is lost.
    html = player_client.get(url("detail", game)).content.decode()
    assert 'id="lost-banner"' in html
    assert 'id="maybe-stuck"' not in html
