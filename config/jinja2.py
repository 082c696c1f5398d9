"""The Jinja2 environment of the board's templates (jinja_templates/).

The board is the page a player requests on every move, and Django's template
language spent half of a move's time rendering it (docs/decisions.md, "The board's
templates"): Jinja2 compiles the same markup to Python. The names below are the
board's whole vocabulary, the Jinja2 counterparts of the `cards` and `holds`
template tags, so that both renderings of a card stay the same.
"""

from typing import Any

from django.templatetags.static import static
from django.urls import reverse
from jinja2 import ChainableUndefined, Environment

from games.holds import hold_label, hold_note
from games.templatetags.cards import (
    card_face_html,
    card_label,
    clock,
    json_attribute,
    move_label,
    pile_cards_html,
    suit_class,
    suit_symbol,
)


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def pluralize(count: int, suffix: str = "s") -> str:
    return "" if count == 1 else suffix


def environment(**options: Any) -> Environment:
    # Like Django's templates, a missing name renders as nothing instead of failing:
    # the board's parts are shared by views that pass different boards.
    options = {k: v for k, v in options.items() if k not in ("undefined", "autoescape")}
    env = Environment(autoescape=True, undefined=ChainableUndefined, **options)
    env.globals.update(
        url=url,
        static=static,
        # A SafeString has __html__: Jinja2 prints it as it is.
        card_face=card_face_html,
        move_label=move_label,
        pile_cards=pile_cards_html,
    )
    env.filters.update(
        card_label=card_label,
        clock=clock,
        json_attribute=json_attribute,
        suit_class=suit_class,
        suit_symbol=suit_symbol,
        pluralize=pluralize,
        hold_label=hold_label,
        hold_note=hold_note,
    )
    return env
