"""Reads on games. Templates and APIs receive what these return: the engine's
public view and safe figures, never the model with its seed and snapshot."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from core import params
from games.clock import clock_elapsed_seconds, clock_pending_gap_seconds, clock_remaining_seconds
from games.codex import ScenarioDashboard, scenario_dashboard
from games.engine import Move, Variant, format_move, suit_of
from games.engine.goals import goal_description
from games.goals import game_goal, game_goal_progress
from games.models import COUNTED, Game
from games.specs import TEMPLATE_PARTS, game_keys, game_spec
from games.variants import game_variant


@dataclass(frozen=True)
class Selection:
    """A face-up card (and what it heads) picked as the source of a two-click move.

    `moves` maps each place that takes it to the move that sends it there.
    """

    source: str
    count: int
    card: str
    moves: dict[str, str]
    refusal: str | None = None
    """Why it has nowhere to go, when `moves` is empty."""

    @property
    def key(self) -> str:
        return f"{self.source}/{self.count}"

    @property
    def foundation_suit(self) -> str:
        return suit_of(self.card)


@dataclass(frozen=True)
class Board:
    id: UUID
    variant: str
    variant_name: str
    options: dict[str, Any]
    status: str
    status_label: str
    revision: int
    move_count: int
    undo_count: int
    score: int
    elapsed_seconds: int
    clock_headroom_seconds: int
    is_active: bool
    can_undo: bool
    is_practice_restart: bool
    daily_label: str | None
    public: dict[str, Any]
    selection: Selection | None
    final_score: int
    time_scored: bool
    """Whether time changes the final score (Spike takes points off, a timed Steps
    game adds a bonus): then the board shows the final score beside the score."""
    remaining_seconds: int | None
    highlight: bool
    """Whether Spike's playable cards are marked: always_highlight, or asked for by
    selecting the waste."""
    always_highlight: bool
    """Whether the board lights where cards can go (a picked card's places, Spike's
    playable cards): the player's highlighting setting, or a game mode that always
    does (Spike's relaxed)."""
    templates: dict[str, str]
    """The game's own templates by part (board, hud, summary): games.specs."""
    move_map: dict[str, dict[str, str]]
    """For each unit that can move (`t3/2`, `w/1`, `r2/1`, `fH/1`), the places that take
    it and the move that sends it there: what board.js lights up and posts, so that
    picking a card needs no request. Only tableau-style transfers; Spike's plays are
    lit by its own highlighting."""
    legal_moves: tuple[str, ...] = ()
    """Every legal move in the notation (none once the game is closed): what the API
    offers a client. Like `move_map`, worked out from public information only."""
    certified_winnable: bool = False
    """Whether the deal came from the pool of certified winnable deals (games.services.pool)."""
    hints_used: int = 0
    track: str = Game.Track.CASUAL
    track_ref: str = ""
    is_ranked: bool = False
    moves: tuple[str, ...] = ()
    """The moves played, in the notation (an undone move is taken off)."""
    started_at: datetime | None = None
    last_action_at: datetime | None = None
    finished_at: datetime | None = None
    goal: "BoardGoal | None" = None
    undos_left: int | None = None
    """Moves that may still be taken back, where the track limits them; None for no limit."""
    scenario: "ScenarioDashboard | None" = None
    """A Codex scenario's game: its Architect Dashboard (games.codex)."""
    review: str = ""
    """The review's hold on the result (Game.ReviewHold: held, voided); empty while it
    counts, as for every game in progress."""

    @property
    def time_deduction(self) -> int:
        return self.score - self.final_score

    @property
    def time_bonus(self) -> int:
        return -self.time_deduction


@dataclass(frozen=True)
class BoardGoal:
    """The goal the game's track set (a daily challenge's) and how far the game is."""

    words: str
    """The goal in plain words: "Play two sevens to the foundations"."""
    progress: str
    """Where the game stands: "Sevens to the foundations: 1 of 2"."""
    met: bool
    """The game met it (at some move: it stays met)."""
    just_met: bool
    """This action met it: the board celebrates."""
    failed: bool
    """This game can no longer meet it (a new attempt can)."""


def _board_goal(
    game: Game, variant: Variant[Any], state: Any, public: dict[str, Any]
) -> BoardGoal | None:
    goal = game_goal(game, variant)
    progress = game_goal_progress(game, variant, state, goal, public)
    if goal is None or progress is None:
        return None
    met = game.goal_met_at is not None
    return BoardGoal(
        words=goal_description(goal, variant),
        progress=progress.text if not met or progress.met else f"{progress.label}: done",
        met=met,
        just_met=game.goal_met_now,
        failed=progress.failed and not met,
    )


def game_for_player(*, game_id: UUID, player: User) -> Game:
    """The player's own game of a game the site offers; anybody else's, and a board of
    an engine variant played only through another app (the Duel's, on its match's
    page), raise Game.DoesNotExist (a 404)."""
    return Game.objects.get(id=game_id, player=player, variant__in=game_keys())


def game_active_on_track(*, player: User, variant: str, track: str, ref: str = "") -> Game | None:
    """The player's active game of this variant on one track (the casual game, the
    game of one daily deal, ...): there is at most one (games.tracks)."""
    return Game.objects.filter(
        player=player, variant=variant, track=track, track_ref=ref, status=Game.Status.ACTIVE
    ).first()


def game_active_for_player(*, player: User, variant: str) -> Game | None:
    """The player's active casual game of this variant (every other track resumes
    through its own page)."""
    return game_active_on_track(player=player, variant=variant, track=Game.Track.CASUAL)


def _selected_card(public: dict[str, Any], source: str, count: int) -> str | None:
    """The face-up card heading the selected unit, or None when the key names none."""
    if source == "w" and count == 1:
        fan = public.get("waste", {}).get("fan", [])
        return fan[-1] if fan else None
    if source.startswith("r") and source[1:].isdigit() and count == 1:
        slots = {slot["slot"]: slot["card"] for slot in public.get("reserves", [])}
        return slots.get(source)
    if source.startswith("f") and len(source) == 2 and count == 1:
        tops = {f["suit"]: f["top"] for f in public.get("foundations", [])}
        return tops.get(source[1])
    if source.startswith("t") and source[1:].isdigit():
        piles = public.get("tableau", [])
        index = int(source[1:]) - 1
        if 0 <= index < len(piles) and 1 <= count <= len(piles[index]["up"]):
            return str(piles[index]["up"][-count])
    return None


def _selection(
    game: Game,
    variant: Variant[Any],
    state: Any,
    public: dict[str, Any],
    key: str | None,
    legal_moves: list[Move],
) -> Selection | None:
    """Parse `t3/2` or `w/1`; a key that cannot be read or names no face-up card
    selects nothing."""
    parsed = params.selection(key)
    if parsed is None or not game.is_active:
        return None
    source, count = parsed
    card = _selected_card(public, source, count)
    if card is None:
        return None
    moves = {
        move.dst: format_move(move)
        for move in legal_moves
        if move.kind == "transfer" and move.src == source and move.count == count and move.dst
    }
    refusal = None if moves else variant.tap_refusal(state, source, count)
    return Selection(source=source, count=count, card=card, moves=moves, refusal=refusal)


def _legal_moves(game: Game, variant: Variant[Any], state: Any) -> list[Move]:
    """Public information only: a variant's legal moves depend on face-up cards, pile
    sizes and counters the public view shows, never on a face-down card's identity
    (docs/decisions.md, "The board in the browser")."""
    return variant.legal_moves(state) if game.is_active else []


def _move_map(legal_moves: list[Move]) -> dict[str, dict[str, str]]:
    moves: dict[str, dict[str, str]] = {}
    for move in legal_moves:
        if move.kind == "transfer" and move.src and move.dst:
            moves.setdefault(f"{move.src}/{move.count}", {})[move.dst] = format_move(move)
    return moves


def _daily_label(game: Game) -> str | None:
    if game.track != Game.Track.DAILY:
        return None
    return "Daily deal · ranked attempt" if game.is_ranked else "Daily deal · practice"


def game_board(
    *,
    game: Game,
    selected: str | None = None,
    highlight_preference: bool = False,
    state: Any = None,
) -> Board:
    """What the board template receives. `highlight_preference` is the player's
    setting that keeps move highlighting on; `state` the game's position as the
    engine holds it, when an action has it already."""
    variant = game_variant(game)
    if state is None:
        state = variant.load(game.state)
    public = variant.public_view(state)
    now = timezone.now()
    gap = clock_pending_gap_seconds(game, now=now)
    elapsed_seconds = clock_elapsed_seconds(game, now=now)
    always_highlight = highlight_preference or public.get("mode") == "relaxed"
    legal_moves = _legal_moves(game, variant, state)
    return Board(
        id=game.id,
        variant=game.variant,
        variant_name=variant.name,
        options=game.options,
        status=game.status,
        status_label=game.get_status_display(),
        revision=game.revision,
        move_count=game.move_count,
        undo_count=game.undo_count,
        score=game.score,
        elapsed_seconds=elapsed_seconds,
        clock_headroom_seconds=int(settings.GAME_IDLE_GAP_CAP_SECONDS - gap),
        is_active=game.is_active,
        can_undo=game.is_active
        and bool(game.move_log)
        and (game.undo_limit is None or game.undo_count < game.undo_limit),
        undos_left=None if game.undo_limit is None else max(0, game.undo_limit - game.undo_count),
        is_practice_restart=game.restart_of_id is not None,
        daily_label=_daily_label(game),
        public=public,
        selection=_selection(game, variant, state, public, selected, legal_moves),
        final_score=(
            game.final_score
            if game.final_score is not None
            else variant.final_score(state, elapsed_seconds)
        ),
        time_scored=variant.final_score(state, elapsed_seconds + 60)
        != variant.final_score(state, elapsed_seconds),
        remaining_seconds=clock_remaining_seconds(game, now=now),
        highlight=always_highlight or selected == "w",
        always_highlight=always_highlight,
        templates=_templates(game.variant),
        move_map=_move_map(legal_moves),
        legal_moves=tuple(format_move(move) for move in legal_moves),
        # A Codex scenario is certified from its starting position (manage.py
        # codex_certify, run by CI), not by a row of certified seeds.
        certified_winnable=(
            game.certified_seed_id is not None or game.track == Game.Track.SCENARIO
        ),
        hints_used=game.hints_used,
        track=game.track,
        track_ref=game.track_ref,
        is_ranked=game.is_ranked,
        moves=tuple(game.move_log),
        started_at=game.started_at,
        last_action_at=game.last_action_at,
        finished_at=game.finished_at,
        review=game.review_hold,
        goal=_board_goal(game, variant, state, public) if game.goal else None,
        scenario=(
            scenario_dashboard(game=game, public=public)
            if game.track == Game.Track.SCENARIO
            else None
        ),
    )


def _templates(variant: str) -> dict[str, str]:
    spec = game_spec(variant)
    if spec is None:
        raise ValueError(f"The site offers no game {variant!r}")
    return {part: spec.template(part) for part in TEMPLATE_PARTS}


def game_history_for_player(*, player: User, variant: str | None = None) -> QuerySet[Game]:
    games = Game.objects.filter(player=player)
    if variant:
        games = games.filter(variant=variant)
    return games.only(
        "id",
        "variant",
        "status",
        "score",
        "move_count",
        "undo_count",
        "hints_used",
        "elapsed_ms",
        "started_at",
        "finished_at",
        "restart_of_id",
        "track",
        "track_ref",
        "is_ranked",
        "final_score",
        "review_hold",
    ).order_by("-started_at")


@dataclass(frozen=True)
class GameStats:
    played: int
    won: int
    best_score: int | None
    fastest_win_seconds: int | None
    total_moves: int
    held: int = 0
    """The player's games left out of these figures: those the review holds."""

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def game_stats_for_player(*, player: User, variant: str | None = None) -> GameStats:
    """Figures over every game the player has dealt (the active one included) but
    those the review holds (under review, voided: `Game.review_hold`), which it counts
    apart (`held`), in one query."""
    games = Game.objects.filter(player=player)
    if variant:
        games = games.filter(variant=variant)
    counted = COUNTED
    closed = counted & ~Q(status=Game.Status.ACTIVE)
    won = counted & Q(status=Game.Status.WON)
    figures = games.aggregate(
        played=Count("id", filter=counted),
        won=Count("id", filter=won),
        best_score=Max(Coalesce("final_score", "score"), filter=closed),
        fastest_win_ms=Min("elapsed_ms", filter=won),
        total_moves=Sum("move_count", filter=counted),
        held=Count("id", filter=~counted),
    )
    fastest = figures["fastest_win_ms"]
    return GameStats(
        played=figures["played"],
        won=figures["won"],
        best_score=figures["best_score"],
        fastest_win_seconds=None if fastest is None else fastest // 1000,
        total_moves=figures["total_moves"] or 0,
        held=figures["held"],
    )
