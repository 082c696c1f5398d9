"""Reads of the review of results: who is a reviewer, what the reviewers' pages show,
and the replay viewer's board (what a player is told of a hold is games.holds).

The replay board is the only view of a game that shows every card, face-down
and stock cards included: it is built from the engine's full snapshot (`dump`)
and only ever rendered by the reviewers' admin view.
"""

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from games.engine import RANKS, SUITS, is_red
from games.engine.cards import is_card
from games.models import Game
from leaderboards.models import Result
from leaderboards.selectors import daily_deal_of
from reviews.models import AuditEntry, Flag, GameReview, Verification
from reviews.replays import UnplayableGame, replay_game

REVIEW_PERMISSION = "reviews.review_results"
REVIEWERS_GROUP = "Reviewers"


def is_reviewer(user: Any) -> bool:
    """Staff with the review permission (the "Reviewers" group, or a superuser)."""
    return bool(
        getattr(user, "is_active", False)
        and getattr(user, "is_staff", False)
        and user.has_perm(REVIEW_PERMISSION)
    )


@dataclass(frozen=True)
class ReviewDetail:
    """What the reviewers' page of one game shows besides its fields."""

    state: str
    state_label: str
    result: Result | None
    verifications: list[Verification]
    flags: list[Flag]
    open_flags: list[Flag]
    audit: list[AuditEntry]


def review_detail(*, game: Game) -> ReviewDetail:
    review = GameReview.objects.filter(game=game).first()
    flags = list(Flag.objects.filter(game=game).select_related("raised_by", "resolved_by"))
    return ReviewDetail(
        state=review.state if review is not None else "",
        state_label=review.get_state_display() if review is not None else "Not reviewed yet",
        result=Result.objects.filter(game=game).first(),
        verifications=list(Verification.objects.filter(game=game).select_related("requested_by")),
        flags=flags,
        open_flags=[flag for flag in flags if flag.status == Flag.Status.OPEN],
        audit=list(AuditEntry.objects.filter(game_id=game.id)),
    )


# -- the replay viewer ---------------------------------------------------------------


def replay_refusal(*, game: Game, viewer: Any, today: date) -> str | None:
    """Why `viewer` may not see this game's replay now, or None. The replay shows
    every card of the deal, so while a daily deal is live (its day is today, UTC,
    or later) a reviewer who has an attempt of their own at it (ranked or practice,
    open or closed) cannot open any replay of it until the day is over."""
    deal = daily_deal_of(game=game)
    if deal is None or deal.date < today:
        return None
    attempts = Game.objects.filter(player_id=viewer.pk, track=game.track, track_ref=game.track_ref)
    if not attempts.exists():
        return None
    opens = deal.date + timedelta(days=1)
    return (
        f"You have an attempt of your own at the {deal.variant} daily deal of "
        f"{deal.date:%Y-%m-%d}, which is still live: its replays show every card, so they "
        f"open for you on {opens:%Y-%m-%d} at 00:00 UTC, once the day is over. Another "
        "reviewer can review this game now."
    )


RANK_TEXT = {"T": "10"}
SUIT_TEXT = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@dataclass(frozen=True)
class CardView:
    code: str
    text: str
    hidden: bool
    """Not visible to the player at this step (face down, in the stock, under the waste)."""
    red: bool = False
    empty: bool = False


@dataclass(frozen=True)
class PileView:
    name: str
    down: list[CardView]
    up: list[CardView]


@dataclass(frozen=True)
class Section:
    title: str
    piles: list[PileView]
    rows: list[list[CardView]]
    figures: list[tuple[str, str]]


@dataclass(frozen=True)
class MoveView:
    number: int
    text: str
    done: bool
    current: bool


@dataclass(frozen=True)
class ReplayBoard:
    game: Game
    variant_name: str
    step: int
    last_step: int
    applied: int
    status: str
    score: int | None
    error: str | None
    sections: list[Section]
    moves: list[MoveView]

    @property
    def previous_step(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next_step(self) -> int | None:
        return self.step + 1 if self.step < self.last_step else None

    @property
    def current_move(self) -> str | None:
        """The move that led to this step."""
        return self.moves[self.step - 1].text if self.step > 0 else None


def replay_board(*, game: Game, step: int) -> ReplayBoard:
    """The whole board after the first `step` moves of the log (0: the deal)."""
    last = len(game.move_log)
    step = min(max(0, step), last)
    moves = [
        MoveView(number, str(text), number <= step, number == step)
        for number, text in enumerate(game.move_log, start=1)
    ]
    try:
        run = replay_game(game, upto=step)
    except UnplayableGame as error:
        return ReplayBoard(game, game.variant, step, last, 0, "", None, str(error), [], moves)
    variant, state = run.variant, run.state
    public = variant.public_view(state)
    return ReplayBoard(
        game=game,
        variant_name=variant.name,
        step=step,
        last_step=last,
        applied=run.applied,
        status=variant.status(state),
        score=variant.score(state),
        error=run.error.sentence() if run.error is not None else None,
        sections=board_sections(variant.dump(state), public),
        moves=moves,
    )


def _card(code: Any, visible: set[str], *, hidden: bool | None = None) -> CardView:
    if code is None:
        return CardView("", "\u2014", hidden=False, empty=True)
    text = str(code)
    if not is_card(text):
        return CardView(text, text, hidden=False)
    return CardView(
        text,
        RANK_TEXT.get(text[0], text[0]) + SUIT_TEXT[text[1]],
        hidden=text not in visible if hidden is None else hidden,
        red=is_red(text),
    )


def _cards_in(value: Any) -> set[str]:
    """Every card code anywhere in the public view: what the player can see."""
    if isinstance(value, str):
        return {value} if is_card(value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(item) for item in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_cards_in(item) for item in value))
    return set()


def _is_card_list(value: Any) -> bool:
    return isinstance(value, list) and all(item is None or isinstance(item, str) for item in value)


def _is_pile_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(pile, dict) and {"down", "up"} <= set(pile) for pile in value)
    )


def _title(key: str) -> str:
    return key.replace("_", " ").capitalize()


def board_sections(dump: dict[str, Any], public: dict[str, Any]) -> list[Section]:
    """The full snapshot as sections of cards. A card is marked hidden when the
    player cannot see it at this step (it is not in the public view)."""
    visible = _cards_in(public)
    sections: list[Section] = []
    figures: list[tuple[str, str]] = []
    for key, value in dump.items():
        if key == "variant":
            continue
        title = _title(key)
        if _is_pile_list(value):
            piles = [
                PileView(
                    f"{title} {number}",
                    [_card(code, visible, hidden=True) for code in pile["down"]],
                    [_card(code, visible) for code in pile["up"]],
                )
                for number, pile in enumerate(value, start=1)
            ]
            sections.append(Section(title, piles, [], []))
        elif key == "foundations" and isinstance(value, list) and len(value) == len(SUITS):
            row = [
                _card(RANKS[height - 1] + suit, visible)
                if isinstance(height, int) and 0 < height <= len(RANKS)
                else CardView("", SUIT_TEXT[suit], hidden=False, empty=True)
                for suit, height in zip(SUITS, value, strict=True)
            ]
            sections.append(Section(title, [], [row], []))
        elif key == "spikes" and _is_card_list(value) and isinstance(public.get("spikes"), list):
            sections.extend(_spike_sections(value, public["spikes"], visible))
        elif _is_card_list(value):
            row = [_card(code, visible) for code in value]
            sections.append(Section(f"{title} ({len(value)})", [], [row], []))
        elif isinstance(value, list) and value and all(_is_card_list(item) for item in value):
            rows = [[_card(code, visible) for code in item] for item in value]
            sections.append(Section(title, [], rows, []))
        else:
            figures.append((title, str(value)))
    if figures:
        sections.append(Section("Figures", [], [], figures))
    return sections


def _spike_sections(
    positions: list[Any], spikes: list[dict[str, Any]], visible: set[str]
) -> list[Section]:
    """Spike's positions in deal order, laid out in the rows of the public view
    (which lists each spike's positions in the same order)."""
    cards = iter(positions)
    sections = []
    for spike in spikes:
        rows = [[_card(next(cards, None), visible) for _ in row] for row in spike.get("rows", [])]
        sections.append(Section(f"Spike {spike.get('index', '')}", [], rows, []))
    return sections
