"""Helpers for the platform tests: games with a chosen deck and the hidden cards of a state."""

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from games.engine import card_name, full_deck, get_variant, rank_of, rank_value, suit_of
from games.engine.spike import is_exposed
from games.models import Game
from games.services import game_start
from games.templatetags.cards import RANK_LABELS, SUIT_SYMBOLS, card_face_html
from games.tracks import casual_track

FIXTURES = Path(__file__).resolve().parent.parent / "engine" / "fixtures"


def refusal_code(response) -> str | None:
    """The code of the refusal an htmx answer of the board carries (games.views._refused:
    200, the board with the reason and an HX-Trigger `refused` event), or None for an
    answer that did what was asked."""
    assert response.status_code == 200, response.status_code
    trigger = response.headers.get("HX-Trigger")
    return json.loads(trigger)["refused"]["code"] if trigger else None


def load_fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())


def start_with_deck(
    player, deck: list[str], variant: str = "klondike", options: dict[str, Any] | None = None
) -> Game:
    """A game dealt from a chosen deck (the seed stays a real secret one)."""
    game = game_start(player=player, variant=variant, track=casual_track(options=options))
    engine = get_variant(variant)
    state = engine.deal(deck, game.options)
    game.state = engine.dump(state)
    game.score = engine.score(state)
    game.save(update_fields=["state", "score"])
    return game


def hidden_cards(game: Game) -> set[str]:
    """Cards nobody may see: face-down and stock cards of the stored state, and
    every card that the public view itself does not show."""
    engine = get_variant(game.variant)
    state = engine.load(game.state)
    public = engine.public_view(state)
    hidden = set(state.stock)
    if game.variant == "spike":
        hidden.update(
            card
            for position, card in enumerate(state.spikes)
            if card is not None and not is_exposed(state.spikes, position)
        )
        shown = {
            slot["card"] for spike in public["spikes"] for row in spike["rows"] for slot in row
        } - {None}
        shown.add(public["waste"]["top"])
    else:
        for pile in state.tableau:
            hidden.update(pile.down)
        shown = {card for pile in public["tableau"] for card in pile["up"]}
        shown.update(public.get("waste", {}).get("fan", []))
        for foundation in public.get("foundations", []):
            if foundation["top"]:
                shown.update(_built_under(foundation))
        shown.update(slot["card"] for slot in public.get("reserves", []) if slot["card"])
        for suit in public.get("removed_runs", []):
            shown.update(card for card in full_deck() if suit_of(card) == suit)
    return hidden | (set(full_deck()) - shown)


def _built_under(foundation: dict[str, Any]) -> frozenset[str]:
    """A foundation's cards: its top and, on a foundation built up in one suit from the
    ace, every card under it (the player saw them go there; a move's announcement names
    them)."""
    top = foundation["top"]
    if "suit" not in foundation or foundation.get("count") != rank_value(top):
        return frozenset({top})
    return frozenset(
        card
        for card in full_deck()
        if suit_of(card) == suit_of(top) and rank_value(card) <= rank_value(top)
    )


def card_forms(card: str) -> tuple[re.Pattern[str], ...]:
    """Every form in which a template prints a card: code, name (aria-label),
    the rank and suit glyph as printed, and the whole rendered card face."""
    return tuple(pattern for _text, pattern in _card_prints(card))


@cache
def _card_prints(card: str) -> tuple[tuple[str | None, re.Pattern[str]], ...]:
    """The forms of a card, each with a piece of text that it cannot match
    without (None for the name, matched ignoring case), made once per card."""
    rank = RANK_LABELS.get(rank_of(card), rank_of(card))
    symbol = SUIT_SYMBOLS[suit_of(card)]
    face = card_face_html(card).strip()
    return (
        (card, re.compile(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])")),
        (None, re.compile(re.escape(card_name(card)), re.IGNORECASE)),
        (rank + symbol, re.compile(re.escape(rank + symbol))),
        (
            f">{rank}</span><span",
            re.compile(rf">{re.escape(rank)}</span><span[^>]*>{re.escape(symbol)}<"),
        ),
        (face, re.compile(re.escape(face))),
    )


def leaked_cards(html: str, cards: set[str]) -> list[str]:
    """The cards of `cards` that the page prints in any of their forms. A form's
    pattern is searched only where its piece of text occurs (a plain substring
    test, many times cheaper than the search), which finds exactly what
    searching every pattern would: most of the cost of the hidden-information
    walk was these searches."""
    return sorted(
        card
        for card in cards
        if any(
            (text is None or text in html) and pattern.search(html)
            for text, pattern in _card_prints(card)
        )
    )
