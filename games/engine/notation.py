"""The move notation shared by every variant: the stored move log, replays and the API.

See docs/notation.md. Parsing checks only the shape of a move; whether a variant knows
the move, and whether it is legal now, is the variant's business.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from .cards import SUITS, is_card
from .errors import EngineError

DRAW = "draw"
RECYCLE = "recycle"
DEAL = "deal"
TRANSFER = "transfer"
PLAY = "play"
WILD = "wild"
PASS = "pass"

WASTE = "w"
FOUNDATION = "f"
TABLEAU_PLACES = tuple(f"t{number}" for number in range(1, 8))
RESERVE_PLACES = tuple(f"r{number}" for number in range(1, 5))
FOUNDATION_SOURCES = tuple(FOUNDATION + suit for suit in SUITS)

# No deal of 52 cards can put more than 52 cards in one pile; the cap also keeps absurd
# digit strings away from int().
MAX_COUNT = 52

_SOURCES = frozenset((WASTE, *TABLEAU_PLACES, *FOUNDATION_SOURCES, *RESERVE_PLACES))
_DESTINATIONS = frozenset((FOUNDATION, *TABLEAU_PLACES, *RESERVE_PLACES))
_COUNT = re.compile(r"[1-9][0-9]{0,2}")
_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``kind`` is draw, recycle, deal, wild, pass (no other field), transfer
    (``src``, ``dst``, ``count``) or play (``card``, Spike)."""

    kind: str
    src: str | None = None
    dst: str | None = None
    count: int = 1
    card: str | None = None


_KEYWORD_MOVES = {kind: Move(kind) for kind in (DRAW, RECYCLE, DEAL, WILD, PASS)}


def parse_move(text: str) -> Move:
    """The Move written by ``text``, or EngineError saying what is wrong with it."""
    if not isinstance(text, str):
        raise EngineError(f"A move must be written as a string, not {type(text).__name__}")
    return _parse(text)


def format_move(move: Move) -> str:
    """The canonical text of a move (``/1`` is left out); EngineError if the Move could
    not have come from the notation."""
    if not isinstance(move, Move):
        raise EngineError(f"Not a move: {move!r}")
    try:
        return _format(move)
    except TypeError:  # an unhashable field, so not a move the notation can hold
        raise EngineError(f"Not a valid move: {move!r}") from None


@lru_cache(maxsize=_CACHE_SIZE)
def _parse(text: str) -> Move:
    if not text:
        raise EngineError("An empty string is not a move")
    keyword_move = _KEYWORD_MOVES.get(text)
    if keyword_move is not None:
        return keyword_move
    if is_card(text):
        return Move(PLAY, card=text)
    body, slash, count_text = text.partition("/")
    src, dash, dst = body.partition("-")
    if not dash:
        raise EngineError(
            f"{text!r} is not a move: write draw, recycle, deal, wild, pass, a card code such as "
            "'9D', or SRC-DST such as 'w-t3' or 't2-t5/3'"
        )
    _check_source(src, text)
    _check_destination(dst, text)
    if src == dst:
        raise EngineError(f"{text!r} moves a pile onto itself: source and destination differ")
    if src in FOUNDATION_SOURCES and dst == FOUNDATION:
        raise EngineError(f"{text!r} moves a foundation card to a foundation")
    count = _parse_count(count_text, text) if slash else 1
    if count > 1 and src not in TABLEAU_PLACES:
        raise EngineError(
            f"{text!r}: only a tableau pile moves several cards at once (/N); "
            f"'{src}' gives one card"
        )
    return Move(TRANSFER, src, dst, count)


def _check_source(src: str, text: str) -> None:
    if src in _SOURCES:
        return
    if src == FOUNDATION:
        raise EngineError(f"{text!r}: a foundation as a source needs its suit: fS, fH, fD or fC")
    _explain_bad_place(src, text, "source")


def _check_destination(dst: str, text: str) -> None:
    if dst in _DESTINATIONS:
        return
    if dst in FOUNDATION_SOURCES:
        raise EngineError(
            f"{text!r}: write the foundation destination as plain 'f'; "
            "a card always goes to its own suit's foundation"
        )
    if dst == WASTE:
        raise EngineError(
            f"{text!r}: the waste is not a destination (in Spike, play a card by its code)"
        )
    _explain_bad_place(dst, text, "destination")


def _explain_bad_place(place: str, text: str, role: str) -> None:
    if not place:
        raise EngineError(f"{text!r} has no {role}")
    if place[0] == "t" and place[1:].isdigit():
        raise EngineError(f"{text!r}: there is no pile '{place}'; tableau piles are t1 to t7")
    if place[0] == "r" and place[1:].isdigit():
        raise EngineError(f"{text!r}: there is no slot '{place}'; reserve slots are r1 to r4")
    raise EngineError(
        f"{text!r}: '{place}' is not a place; places are w, t1-t7, f (fS, fH, fD, fC as a "
        "source) and r1-r4"
    )


def _parse_count(count_text: str, text: str) -> int:
    if not _COUNT.fullmatch(count_text) or int(count_text) > MAX_COUNT:
        raise EngineError(
            f"{text!r}: the number after '/' must be a whole number of cards from 1 to "
            f"{MAX_COUNT}, without leading zeros"
        )
    return int(count_text)


@lru_cache(maxsize=_CACHE_SIZE)
def _format(move: Move) -> str:
    if move.kind == TRANSFER:
        text = f"{move.src}-{move.dst}"
        if move.count != 1:
            text += f"/{move.count}"
    elif move.kind == PLAY:
        text = str(move.card)
    else:
        text = move.kind
    # The notation is the only way moves are stored, so a Move it cannot reproduce
    # (a stray field, a bad place) must not be written out.
    try:
        valid = _parse(text) == move
    except EngineError:
        valid = False
    if not valid:
        raise EngineError(f"Not a valid move: {move!r}")
    return text
