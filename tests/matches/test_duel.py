"""The Head-to-Head Duel as a match: two players take turns on one shared board (one
game), on a turn clock and the match clock; the games' pages and endpoints leave that
board alone; the duel page shows the move buttons to the seat to move only and never a
hidden card or the seed."""

import html
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from achievements.models import Award
from achievements.services import match_achievements_evaluate
from games import services as games_services
from games.engine import format_move, full_deck, get_variant
from games.errors import GameClosed, MoveRefused, StaleAction
from games.models import Game
from matches import selectors, services
from matches.models import Match, Seat
from tests.api.conftest import ApiClient
from tests.games.helpers import leaked_cards, refusal_code
from tests.matches.helpers import run_out_the_clock

pytestmark = pytest.mark.django_db

DUEL = get_variant("steps_duel")


def board_of(match: Match) -> Game:
    return Game.objects.get(track=Game.Track.MATCH, track_ref=str(match.id))


def stored(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.state, game.move_log, game.undo_log, game.revision, game.score, game.status)


def legal(game: Game, src: str, dst: str) -> str:
    """The notation of the legal move from src to dst on the shared board."""
    state = DUEL.load(game.state)
    return next(
        format_move(move) for move in DUEL.legal_moves(state) if (move.src, move.dst) == (src, dst)
    )


def play(match: Match, user, move: str) -> Game:
    game = board_of(match)
    return services.duel_move_play(
        match_id=match.id, player=user, move=move, revision=game.revision
    )


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# The shared deal


def test_the_duel_deals_one_board_that_both_seats_point_at(duel, player, bob):
    assert duel.status == Match.Status.RUNNING
    game = board_of(duel)
    assert set(Seat.objects.filter(match=duel).values_list("game_id", flat=True)) == {game.id}
    assert game.player == player
    assert game.variant == "steps_duel"
    assert game.seed == duel.seed
    assert game.deadline_at == duel.deadline_at
    state = DUEL.load(game.state)
    assert len(state.stock) + sum(len(p.down) + len(p.up) for p in state.tableau) == 104
    assert duel.turn_deadline_at == duel.started_at + timedelta(seconds=30)


# Turns


def test_the_seat_not_to_move_is_refused_and_nothing_changes(duel, bob):
    game = board_of(duel)
    before = stored(game)
    with pytest.raises(MoveRefused, match="It is alice's turn"):
        play(duel, bob, "draw")
    assert stored(game) == before


def test_a_stale_revision_is_refused(duel, player):
    game = board_of(duel)
    before = stored(game)
    with pytest.raises(StaleAction):
        services.duel_move_play(match_id=duel.id, player=player, move="draw", revision=7)
    assert stored(game) == before


def test_an_illegal_move_is_refused_with_the_engines_reason(duel, player):
    game = board_of(duel)
    before = stored(game)
    with pytest.raises(MoveRefused, match="Reserve slot r1 is empty"):
        play(duel, player, "r1-t1")
    assert stored(game) == before


def test_a_move_credits_its_points_to_the_mover_and_passes_the_turn(duel, player, bob):
    game = board_of(duel)
    # Pile 2's top card into a slot turns its face-down card up: 5 - 2 points.
    game = play(duel, player, legal(game, "t2", "r1"))
    state = DUEL.load(game.state)
    assert DUEL.seat_scores(state) == (3, 0)
    assert DUEL.seat_to_move(state) == 1
    assert (game.move_count, game.revision, game.move_log) == (1, 1, ["t2-r1"])
    duel.refresh_from_db()
    assert duel.turn_deadline_at > timezone.now() + timedelta(seconds=25)
    play(duel, bob, "draw")
    assert DUEL.seat_to_move(DUEL.load(board_of(duel).state)) == 0


def test_two_passes_end_the_duel_and_the_higher_score_wins(duel, player, bob):
    play(duel, player, legal(board_of(duel), "t2", "r1"))
    play(duel, bob, "pass")
    game = play(duel, player, "pass")
    assert game.status == Game.Status.LOST  # the board ended without a full build
    duel.refresh_from_db()
    assert duel.status == Match.Status.FINISHED
    assert duel.turn_deadline_at is None
    seats = {seat.player_id: seat for seat in duel.seats.all()}
    assert (seats[player.pk].score, seats[player.pk].outcome) == (3, Seat.Outcome.WIN)
    assert (seats[bob.pk].score, seats[bob.pk].outcome) == (0, Seat.Outcome.LOSS)
    with pytest.raises(GameClosed):
        play(duel, bob, "draw")


def test_equal_points_are_a_draw(duel, player, bob):
    play(duel, player, "pass")
    play(duel, bob, "pass")
    outcomes = set(Seat.objects.filter(match=duel).values_list("score", "outcome"))
    assert outcomes == {(0, Seat.Outcome.DRAW)}


# The clocks


def overdue(match: Match) -> None:
    Match.objects.filter(id=match.id).update(turn_deadline_at=timezone.now() - timedelta(seconds=1))


def test_an_overdue_turn_is_passed_once(duel):
    assert not services.duel_turn_time_up(match_id=duel.id)  # not overdue yet
    overdue(duel)
    assert services.duel_turn_time_up(match_id=duel.id)
    assert not services.duel_turn_time_up(match_id=duel.id)
    game = board_of(duel)
    assert game.move_log == ["pass"]
    state = DUEL.load(game.state)
    assert (DUEL.seat_to_move(state), state.passes) == (1, 1)


def test_the_sweep_passes_an_overdue_turn(duel):
    overdue(duel)
    services.matches_close_expired()
    services.matches_close_expired()
    assert board_of(duel).move_log == ["pass"]


def test_the_duel_page_passes_an_overdue_turn(duel, bob):
    overdue(duel)
    page = client_of(bob).get(reverse("matches:duel", kwargs={"match_id": duel.id}))
    assert page.status_code == 200
    assert board_of(duel).move_log == ["pass"]
    assert 'id="duel-moves"' in page.content.decode()  # now bob's turn


def test_the_match_clock_closes_the_duel(duel, player, bob):
    play(duel, player, legal(board_of(duel), "t2", "r1"))
    run_out_the_clock(duel)
    with pytest.raises(GameClosed, match="Time is up"):
        play(duel, bob, "draw")
    assert not services.duel_turn_time_up(match_id=duel.id)
    assert services.match_close_if_time_up(match_id=duel.id)
    assert board_of(duel).status == Game.Status.FINISHED
    scores = dict(Seat.objects.filter(match=duel).values_list("player_id", "score"))
    assert scores == {player.pk: 3, bob.pk: 0}


# The games side leaves the shared board alone


def test_the_games_services_and_pages_refuse_the_shared_board(duel, player):
    game = board_of(duel)
    before = stored(game)
    with pytest.raises(MoveRefused, match="played on its match's page"):
        games_services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    client = client_of(player)
    assert client.get(reverse("games:detail", kwargs={"game_id": game.id})).status_code == 404
    move = client.post(
        reverse("games:move", kwargs={"game_id": game.id}), {"move": "draw", "revision": 0}
    )
    assert move.status_code == 404
    api = ApiClient()
    assert api.log_in(player.username).status_code == 200
    assert api.get(f"/api/v1/games/{game.id}").status_code == 404
    moved = api.post(f"/api/v1/games/{game.id}/moves", {"move": "draw", "revision": 0})
    assert moved.status_code == 404
    assert stored(game) == before
    history = client.get(reverse("games:history")).content.decode()
    assert reverse("games:detail", kwargs={"game_id": game.id}) not in history
    assert reverse("matches:detail", kwargs={"match_id": duel.id}) in history


# The duel page


def test_the_match_page_sends_both_players_to_the_duel(duel, player, bob):
    for user in (player, bob):
        response = client_of(user).get(reverse("matches:detail", kwargs={"match_id": duel.id}))
        assert response["Location"] == reverse("matches:duel", kwargs={"match_id": duel.id})


def test_only_the_seat_to_move_gets_move_buttons(duel, player, bob):
    url = reverse("matches:duel", kwargs={"match_id": duel.id})
    mine = client_of(player).get(url).content.decode()
    theirs = client_of(bob).get(url).content.decode()
    assert 'id="duel-moves"' in mine
    assert 'id="duel-pass">Pass</button>' in mine
    assert "Draw a card</button>" in mine
    assert 'method="post"' in mine
    assert 'name="revision" value="0"' in mine
    assert 'id="duel-moves"' not in theirs
    assert 'id="duel-pass"' not in theirs
    assert "Waiting for alice." in theirs
    assert 'ws-connect="/ws/matches/' in theirs


def test_the_live_panel_fetches_the_board_after_a_push_or_a_poll_but_not_on_the_page(duel, player):
    """The page already shows its board: fetching it again on load would cost a request."""
    page = client_of(player).get(reverse("matches:duel", kwargs={"match_id": duel.id}))
    assert 'id="duel-refresh"' not in page.content.decode()
    poll = client_of(player).get(reverse("matches:live", kwargs={"match_id": duel.id}))
    assert 'id="duel-refresh"' in poll.content.decode()
    pushed = render_to_string(
        "matches/_live_body.html", {"view": selectors.match_live_view(match_id=duel.id)}
    )
    assert 'id="duel-refresh"' in pushed


def test_a_move_through_the_page(duel, player, bob):
    url = reverse("matches:duel_move", kwargs={"match_id": duel.id})
    refused = client_of(bob).post(url, {"move": "draw", "revision": 0}, HTTP_HX_REQUEST="true")
    assert refusal_code(refused) == "illegal_move"
    assert "It is alice's turn." in html.unescape(refused.content.decode())
    played = client_of(player).post(url, {"move": "draw", "revision": 0})
    assert played["Location"] == reverse("matches:duel", kwargs={"match_id": duel.id})
    assert board_of(duel).move_log == ["draw"]
    stale = client_of(bob).post(url, {"move": "pass", "revision": 0}, HTTP_HX_REQUEST="true")
    assert refusal_code(stale) == "stale_revision"


def test_nobody_else_sees_the_duel(duel, make_user):
    stranger = client_of(make_user("carol"))
    assert stranger.get(reverse("matches:duel", kwargs={"match_id": duel.id})).status_code == 404
    move = stranger.post(
        reverse("matches:duel_move", kwargs={"match_id": duel.id}), {"move": "draw", "revision": 0}
    )
    assert move.status_code == 404


def test_the_rules_page_and_the_lobby_link(player_client):
    rules = player_client.get(reverse("matches:rules", kwargs={"mode": "steps_duel"}))
    assert rules.status_code == 200
    assert "Steps Duel rules" in rules.content.decode()
    lobby = player_client.get(reverse("matches:lobby")).content.decode()
    assert reverse("matches:rules", kwargs={"mode": "steps_duel"}) in lobby
    sprint = player_client.get(reverse("matches:rules", kwargs={"mode": "steps_sprint"}))
    assert sprint["Location"] == reverse("games:rules", kwargs={"variant": "steps"})


def shown_cards(game: Game) -> set[str]:
    """The card codes the public view shows face up (a code may also be face down
    elsewhere: two decks)."""
    public = DUEL.public_view(DUEL.load(game.state))
    shown = {card for pile in public["tableau"] for card in pile["up"]}
    shown.update(public["waste"]["fan"])
    shown.update(pillar["top"] for pillar in public["pillars"] if pillar["top"])
    shown.update(slot["card"] for slot in public["reserves"] if slot["card"])
    return shown


def test_the_duel_page_and_the_live_panel_show_no_hidden_card_nor_the_seed(duel, player, bob):
    duel_url = reverse("matches:duel", kwargs={"match_id": duel.id})
    live_url = reverse("matches:live", kwargs={"match_id": duel.id})
    for turn in range(12):
        game = board_of(duel)
        mover = (player, bob)[DUEL.seat_to_move(DUEL.load(game.state))]
        moves = [format_move(m) for m in DUEL.legal_moves(DUEL.load(game.state))]
        play(duel, mover, moves[turn % (len(moves) - 1)])  # never the pass
        game = board_of(duel)
        hidden = set(full_deck()) - shown_cards(game)
        pages = [client_of(user).get(duel_url).content.decode() for user in (player, bob)]
        pages.append(client_of(bob).get(live_url).content.decode())
        for page in pages:
            assert leaked_cards(page, hidden) == []
            assert duel.seed not in page


# The Duel badge


def test_a_duel_won_by_a_hundred_earns_the_badge(duel, player, bob):
    game = board_of(duel)
    game.state = {**game.state, "scores": [150, 20]}
    game.save(update_fields=["state"])
    play(duel, player, "pass")
    play(duel, bob, "pass")
    assert "duel-won-by-100" in match_achievements_evaluate(match_id=duel.id)
    assert list(Award.objects.filter(code="duel-won-by-100").values_list("player", flat=True)) == [
        player.pk
    ]


def test_a_duel_won_by_less_earns_no_badge(duel, player, bob):
    game = board_of(duel)
    game.state = {**game.state, "scores": [119, 20]}
    game.save(update_fields=["state"])
    play(duel, player, "pass")
    play(duel, bob, "pass")
    assert "duel-won-by-100" not in match_achievements_evaluate(match_id=duel.id)


def test_the_second_seat_earns_the_duel_badge_too(duel, player, bob):
    game = board_of(duel)
    game.state = {**game.state, "scores": [0, 150]}
    game.save(update_fields=["state"])
    play(duel, player, "pass")
    play(duel, bob, "pass")
    match_achievements_evaluate(match_id=duel.id)
    assert Award.objects.filter(code="duel-won-by-100", player=bob).exists()
