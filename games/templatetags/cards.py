"""How a face-up card looks: the rank, a suit shape and an accessible name."""

from django import template

from games.engine import card_name, is_red, rank_of, suit_of

register = template.Library()

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_CLASSES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_LABELS = {"T": "10"}


@register.inclusion_tag("games/_card_face.html")
def card_face(code: str) -> dict[str, str]:
    rank = rank_of(code)
    suit = suit_of(code)
    return {
        "code": code,
        "rank": RANK_LABELS.get(rank, rank),
        "symbol": SUIT_SYMBOLS[suit],
        "suit_class": SUIT_CLASSES[suit],
        "colour": "red" if is_red(code) else "black",
        "name": card_name(code),
    }


@register.filter
def suit_symbol(suit: str) -> str:
    return SUIT_SYMBOLS.get(suit, "")


@register.filter
def suit_class(suit: str) -> str:
    return SUIT_CLASSES.get(suit, "")


@register.filter
def clock(seconds: int) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def with_depth(cards: list[str]) -> list[tuple[str, int]]:
    """Each face-up card with how many cards it heads (itself to the top of the pile)."""
    return [(code, len(cards) - index) for index, code in enumerate(cards)]


@register.filter
def tableau_place(index: int) -> str:
    return f"t{index}"


@register.filter
def source_key(place: str, depth: int) -> str:
    return f"{place}/{depth}"


@register.filter
def times(count: int) -> range:
    return range(int(count))


@register.filter
def seconds_from_ms(milliseconds: int) -> int:
    return int(milliseconds) // 1000


@register.filter
def make_list_of_one(item: object) -> list[object]:
    return [item]
