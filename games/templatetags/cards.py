"""How a face-up card looks: the rank, a suit shape and an accessible name."""

import json
from functools import cache

from django import template
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.engine import card_name, is_red, rank_of, suit_of

register = template.Library()

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
SUIT_CLASSES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_LABELS = {"T": "10"}
# What json_script escapes, so that the JSON can sit in a single-quoted attribute
# without the &quot; that autoescaping would put round every key.
_JSON_ATTRIBUTE_ESCAPES = {
    ord("&"): "\\u0026",
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("'"): "\\u0027",
}


def card_face_context(code: str) -> dict[str, str]:
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


@cache
def card_face_html(code: str) -> SafeString:
    """A card's face (games/_card_face.html), rendered once per card: a board shows
    dozens of faces and each is the same markup every time."""
    return render_to_string("games/_card_face.html", card_face_context(code))


_CARD_BACK = '<span class="card back"></span>'


def pile_cards_html(
    *,
    down: int,
    up: list[str],
    place: str,
    number: int,
    detail_url: str,
    selected_key: str,
    active: bool,
) -> SafeString:
    """A tableau pile's cards: its backs, then each face-up card, on an active board a
    link that selects it (and what it heads) and names it with its place. One call per
    pile, where a template spent a dozen escaped lookups per card, the board's hottest
    loop (docs/decisions.md, "The board's templates")."""
    if not active:
        faces = "".join(f'<span class="card up">{card_face_html(code)}</span>' for code in up)
        return mark_safe(_CARD_BACK * down + faces)  # nosec B308 B703: escaped parts
    link, where, count = escape(detail_url), escape(place), len(up)
    cards = []
    for index, code in enumerate(up):
        depth = count - index
        key = f"{where}/{depth}"
        selected = " selected" if key == selected_key else ""
        heads = "top card" if depth == 1 else f"heads {depth} cards"
        cards.append(
            f'<a class="card up{selected}" href="{link}?sel={key}" data-tap-source="{where}" '
            f'data-tap-count="{depth}" aria-label="{_spoken(code)}, pile {number}, {heads}">'
            f"{card_face_html(code)}</a>"
        )
    return mark_safe(_CARD_BACK * down + "".join(cards))  # nosec B308 B703: escaped parts


@cache
def _spoken(code: str) -> str:
    return escape(card_label(code))


@register.simple_tag
def card_face(code: str) -> SafeString:
    return card_face_html(code)


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


@register.filter
def json_attribute(value: object) -> SafeString:
    """Compact JSON for a single-quoted HTML attribute (`data-moves='...'`)."""
    text = json.dumps(value, separators=(",", ":")).translate(_JSON_ATTRIBUTE_ESCAPES)
    # Safe: the four characters that could end the attribute or open markup are escaped.
    return mark_safe(text)  # nosec B308 B703


@register.filter
@cache
def card_label(code: str) -> str:
    """A card's spoken name ("7 of hearts"), for labels that add its place. Where
    the name spells out the rank the face shows, it starts with that rank ("K, king
    of spades"): a control's name holds its visible text (WCAG 2.5.3), so a speech
    user can say what they see."""
    name = card_name(code)
    shown = RANK_LABELS.get(rank_of(code), rank_of(code))
    return name if name.startswith(shown) else f"{shown}, {name}"


def place_name(place: str) -> str:
    """How a place is spoken: t4 is "pile 4", r2 "reserve slot 2", f "the foundation"."""
    if place.startswith("t") and place[1:].isdigit():
        return f"pile {place[1:]}"
    if place.startswith("r") and place[1:].isdigit():
        return f"reserve slot {place[1:]}"
    if place == "f":
        return "the foundation"
    if place == "w":
        return "the waste"
    return place


@register.simple_tag
def move_label(card: str, place: str, onto: str | None = None) -> str:
    """What a move target says: "Move the 7 of hearts onto the 8 of clubs, pile 4"."""
    if onto:
        return f"Move the {card_name(card)} onto the {card_name(onto)}, {place_name(place)}"
    return f"Move the {card_name(card)} to {place_name(place)}"
