"""Steps' two figures: the action points of the rulebook's table 2.5, earned move by
move, and the Architect Ledger of 2.7, which is the score
(docs/rules/steps.md#action-points, docs/rules/steps.md#the-architect-ledger)."""

from ..klondike_family import FULL_FOUNDATIONS
from ..notation import FOUNDATION, RECYCLE, TRANSFER, WASTE, Move
from ..variant import Json
from .state import FOUNDATION_SOURCE_INDEX, RESERVE_INDEX, StepsState

# Action points, table 2.5
WASTE_TO_TABLEAU = 5
TO_FOUNDATION = 10
TURNED_UP = 5
INTO_RESERVE = -2
FROM_RESERVE = 5
RECYCLE_POINTS = -20
RETRIEVAL_POINTS = -10

# The Architect Ledger, 2.7
PER_FOUNDATION_CARD = 10
PER_RECYCLE = -20
FLAWLESS_BONUS = 100
TIME_BONUS_POINTS = 2
TIME_BONUS_EVERY = 10
LEDGER_LABELS = (
    "Cards on the foundations (10 each)",
    "Recycles (-20 each)",
    "Flawless ascension (no reserve slot used)",
)


def move_points(move: Move, turned_up: bool) -> int:
    """The action points a move earns (table 2.5): every line that applies, so a tableau
    card to its foundation that turns a card up earns 10 + 5. ``turned_up`` says whether
    the move turned a tableau card face up."""
    if move.kind == RECYCLE:
        return RECYCLE_POINTS
    if move.kind != TRANSFER:
        return 0  # draw
    src, dst = move.src, move.dst
    points = TURNED_UP if turned_up else 0
    if src in RESERVE_INDEX:
        return points + FROM_RESERVE  # to a pile or a foundation alike: +5 only
    if dst in RESERVE_INDEX:
        return points + INTO_RESERVE
    if src in FOUNDATION_SOURCE_INDEX:
        return RETRIEVAL_POINTS
    if dst == FOUNDATION:
        return points + TO_FOUNDATION
    if src == WASTE:
        return WASTE_TO_TABLEAU
    return points


def ledger_values(state: StepsState) -> tuple[int, int, int]:
    """The Architect Ledger without the time bonus, line by line in the order of
    LEDGER_LABELS: the one place it is computed."""
    flawless = state.reserve_uses == 0 and state.foundations == FULL_FOUNDATIONS
    return (
        PER_FOUNDATION_CARD * sum(state.foundations),
        PER_RECYCLE * state.recycles,
        FLAWLESS_BONUS if flawless else 0,
    )


def ledger(state: StepsState) -> int:
    """The Architect Ledger without the time bonus: the score."""
    return sum(ledger_values(state))


def ledger_lines(state: StepsState) -> list[Json]:
    """The Architect Ledger line by line, without the time bonus."""
    return [
        {"label": label, "value": value}
        for label, value in zip(LEDGER_LABELS, ledger_values(state), strict=True)
    ]


def time_bonus(seconds_left: int) -> int:
    """The ledger's time bonus in timed play: 2 points for every full 10 seconds left."""
    return TIME_BONUS_POINTS * (max(0, seconds_left) // TIME_BONUS_EVERY)
