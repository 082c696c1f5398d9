from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import services
from games.engine import format_move, get_variant, replay, shuffled_deck
from games.errors import GameClosed, MoveRefused, StaleAction
from games.models import Game
from games.tracks import casual_track
from leaderboards.periods import today_utc
from leaderboards.services import daily_deal_play, daily_deals_ensure, daily_track
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = pytest.mark.django_db

KLONDIKE = get_variant("klondike")


def stored_state(game: Game):
    game.refresh_from_db()
    return KLONDIKE.load(game.state)


def snapshot(game: Game) -> dict:
    game.refresh_from_db()
    return {
        field: getattr(game, field)
        for field in ("state", "move_log", "undo_log", "revision", "move_count", "score", "status")
    }


def test_start_deals_the_seed_and_keeps_it_secret_on_the_server(player):
    game = services.game_start(player=player, variant="klondike")
    assert len(game.seed) == 32
    assert KLONDIKE.load(game.state) == KLONDIKE.deal(shuffled_deck(game.seed))
    assert game.status == Game.Status.ACTIVE
    assert (game.revision, game.move_count, game.score, game.move_log) == (0, 0, 0, [])


def test_a_new_deal_abandons_the_active_game(player):
    first = services.game_start(player=player, variant="klondike")
    second = services.game_start(player=player, variant="klondike")
    first.refresh_from_db()
    assert first.status == Game.Status.ABANDONED
    assert first.finished_at is not None
    assert second.status == Game.Status.ACTIVE
    assert first.seed != second.seed


def test_the_database_allows_one_active_game_per_player_and_variant(player):
    game = services.game_start(player=player, variant="klondike")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            player=player,
            variant="klondike",
            seed="x",
            state=game.state,
            started_at=timezone.now(),
            last_action_at=timezone.now(),
        )


def test_a_deal_that_abandons_nothing_gets_the_game_already_active(player):
    """What a resume does when another request dealt first: its insert breaks the
    one-active-game rule, and it gets that game, which stays as it was."""
    active = services.game_start(player=player, variant="klondike")
    resumed = services.game_start(player=player, variant="klondike", abandon_active=False)
    assert resumed.id == active.id
    active.refresh_from_db()
    assert active.is_active
    assert Game.objects.filter(player=player).count() == 1


def test_a_deal_broken_by_another_rule_is_not_hidden(player):
    """Only an active game already dealt answers for a failed insert: a second
    ranked attempt at a daily deal, with no game active, still fails."""
    deal = daily_deals_ensure(day=today_utc())[0]
    ranked = daily_deal_play(player=player, deal=deal)
    services.game_finish(game_id=ranked.id, player=player, revision=0)
    with pytest.raises(IntegrityError):
        services.game_start(
            player=player, variant=deal.variant, track=daily_track(deal=deal, ranked=True)
        )
    assert Game.objects.filter(player=player).count() == 1


def test_resume_returns_the_same_game_with_the_same_cards(player):
    game = services.game_start(player=player, variant="klondike")
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    resumed = services.game_resume_or_start(player=player, variant="klondike")
    assert resumed.id == game.id
    assert resumed.move_log == ["draw"]


def test_restart_deals_the_same_seed_again(player):
    game = services.game_start(player=player, variant="klondike")
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    again = services.game_restart(game_id=game.id, player=player)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert again.seed == game.seed
    assert again.restart_of_id == game.id
    assert KLONDIKE.load(again.state) == KLONDIKE.deal(shuffled_deck(game.seed))
    assert again.move_log == []


def test_a_move_updates_log_state_and_counters(player):
    game = services.game_start(player=player, variant="klondike")
    before = stored_state(game)
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game.refresh_from_db()
    assert game.move_log == ["draw"]
    assert (game.revision, game.move_count) == (1, 1)
    assert KLONDIKE.load(game.state) == KLONDIKE.play(before, "draw").state


@pytest.mark.parametrize("move", ["", "t9-t1", "w-t1", "nonsense", "fS-t1", "deal"])
def test_a_malformed_or_illegal_move_is_refused_and_changes_nothing(player, move):
    game = services.game_start(player=player, variant="klondike")
    before = snapshot(game)
    with pytest.raises(MoveRefused) as refusal:
        services.game_move_play(game_id=game.id, player=player, move=move, revision=0)
    assert refusal.value.message
    assert snapshot(game) == before


def test_a_stale_move_number_changes_nothing(player):
    game = services.game_start(player=player, variant="klondike")
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    before = snapshot(game)
    with pytest.raises(StaleAction):
        services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    assert snapshot(game) == before


def test_undo_restores_the_exact_previous_state(player):
    game = services.game_start(player=player, variant="klondike")
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    after_draw = snapshot(game)
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=1)
    services.game_move_undo(game_id=game.id, player=player, revision=2)
    undone = snapshot(game)
    assert undone["state"] == after_draw["state"]
    assert undone["move_log"] == ["draw"]
    assert undone["move_count"] == 1
    assert undone["revision"] == 3
    game.refresh_from_db()
    assert game.undo_count == 1


def test_undo_with_no_move_is_refused(player):
    game = services.game_start(player=player, variant="klondike")
    with pytest.raises(MoveRefused, match="no move to undo"):
        services.game_move_undo(game_id=game.id, player=player, revision=0)


def test_the_restart_charge_is_scored_and_undo_gives_it_back(player):
    game = services.game_start(player=player, variant="klondike")
    revision = 0
    for _ in range(4):
        while KLONDIKE.public_view(stored_state(game))["can_draw"]:
            services.game_move_play(game_id=game.id, player=player, move="draw", revision=revision)
            revision += 1
        services.game_move_play(game_id=game.id, player=player, move="recycle", revision=revision)
        revision += 1
    game.refresh_from_db()
    assert game.score == -20
    services.game_move_undo(game_id=game.id, player=player, revision=revision)
    game.refresh_from_db()
    assert game.score == 0


def test_finish_makes_the_result_final(player):
    game = services.game_start(player=player, variant="klondike")
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    services.game_finish(game_id=game.id, player=player, revision=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    before = snapshot(game)
    for action in (
        lambda: services.game_move_play(game_id=game.id, player=player, move="draw", revision=2),
        lambda: services.game_move_undo(game_id=game.id, player=player, revision=2),
        lambda: services.game_finish(game_id=game.id, player=player, revision=2),
        lambda: services.game_auto_complete(game_id=game.id, player=player, revision=2),
    ):
        with pytest.raises(GameClosed):
            action()
    assert snapshot(game) == before


def test_a_full_board_closes_itself_as_a_win(player):
    case = load_fixture("klondike_win.json")
    game = start_with_deck(player, case["deck"])
    for revision, move in enumerate(case["moves"]):
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    assert game.finished_at is not None
    assert KLONDIKE.public_view(KLONDIKE.load(game.state))["cards_on_foundations"] == 52
    with pytest.raises(GameClosed):
        services.game_move_undo(game_id=game.id, player=player, revision=game.revision)


def test_auto_complete_is_refused_until_offered_then_wins(player):
    case = load_fixture("klondike_win.json")
    game = start_with_deck(player, case["deck"])
    with pytest.raises(MoveRefused, match="Auto-complete"):
        services.game_auto_complete(game_id=game.id, player=player, revision=0)
    revision = 0
    for move in case["moves"]:
        if KLONDIKE.auto_complete(stored_state(game)):
            break
        services.game_move_play(game_id=game.id, player=player, move=move, revision=revision)
        revision += 1
    services.game_auto_complete(game_id=game.id, player=player, revision=revision)
    game.refresh_from_db()
    assert game.status == Game.Status.WON


def test_tap_sends_the_card_where_the_engine_says(player):
    # In the winning fixture's deal piles 1 to 4 have nowhere to go and pile 5's
    # top card goes to its foundation.
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    state = stored_state(game)
    for place in ("t1", "t2", "t3", "t4"):
        with pytest.raises(MoveRefused, match="nowhere to go"):
            services.game_card_tap(
                game_id=game.id, player=player, source=place, count=1, revision=0
            )
    assert stored_state(game) == state
    services.game_card_tap(game_id=game.id, player=player, source="t5", count=1, revision=0)
    assert stored_state(game) == KLONDIKE.apply(state, KLONDIKE.tap(state, "t5", 1)).state
    game.refresh_from_db()
    assert game.move_log == ["t5-f"]


def test_the_stored_log_replays_to_the_stored_state(player):
    game = services.game_start(player=player, variant="klondike")
    for revision in range(30):
        moves = KLONDIKE.legal_moves(stored_state(game))
        move = next((m for m in moves if m.kind == "transfer"), moves[0])
        services.game_move_play(
            game_id=game.id, player=player, move=format_move(move), revision=revision
        )
    game.refresh_from_db()
    result = replay({"variant": "klondike", "seed": game.seed, "moves": game.move_log})
    assert result["error"] is None
    assert result["score"] == game.score
    assert result["moves_applied"] == game.move_count
    assert result["public"] == KLONDIKE.public_view(KLONDIKE.load(game.state))


def test_time_counts_each_idle_gap_for_at_most_the_cap(player, settings):
    settings.GAME_IDLE_GAP_CAP_SECONDS = 30
    game = services.game_start(player=player, variant="klondike")
    Game.objects.filter(id=game.id).update(last_action_at=timezone.now() - timedelta(hours=2))
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=0)
    game.refresh_from_db()
    assert 30_000 <= game.elapsed_ms < 31_000
    Game.objects.filter(id=game.id).update(last_action_at=timezone.now() - timedelta(seconds=12))
    services.game_move_play(game_id=game.id, player=player, move="draw", revision=1)
    game.refresh_from_db()
    assert 42_000 <= game.elapsed_ms < 43_000


def test_another_players_game_cannot_be_touched(player, make_user):
    game = services.game_start(player=player, variant="klondike")
    intruder = make_user("mallory")
    with pytest.raises(Game.DoesNotExist):
        services.game_move_play(game_id=game.id, player=intruder, move="draw", revision=0)
    with pytest.raises(Game.DoesNotExist):
        services.game_restart(game_id=game.id, player=intruder)


def test_the_best_score_in_the_figures_is_the_final_score(player):
    from games.selectors import game_stats_for_player

    game = services.game_start(
        player=player, variant="spike", track=casual_track(options={"mode": "classic"})
    )
    Game.objects.filter(id=game.id).update(elapsed_ms=50_000)
    services.game_move_play(game_id=game.id, player=player, move="wild", revision=0)
    services.game_finish(game_id=game.id, player=player, revision=1)
    game.refresh_from_db()
    assert game.final_score == game.score - 2 * (game.elapsed_ms // 1000)
    assert game.final_score < game.score
    assert game_stats_for_player(player=player, variant="spike").best_score == game.final_score
