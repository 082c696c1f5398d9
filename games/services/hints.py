"""A hint on a game: one suggested move from what the player can see
(games.engine.hints), counted on the game.

Like every action it is one transaction on the locked game row, refused on a closed
game and on an older board. It changes no position, so it leaves the revision alone:
a form of the board the hint was asked from stays valid. It counts on the game
(``hints_used``) and, like any action, on the clock.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User

from accounts.session_user import UserClaim
from games.clock import clock_tick
from games.engine import Variant
from games.engine.hints import Hint, hint, hint_card_places
from games.errors import MoveRefused
from games.models import Game
from games.services.actions import ActionOutcome, game_act

HINT_FIELDS = ["hints_used", "elapsed_ms", "last_action_at"]
"""What a hint writes: its count and the clock, never the position or the revision."""


@dataclass(frozen=True)
class HintOutcome:
    """The game after the hint, and the hint with where its move starts and ends on
    the board (games.engine.hints.hint_card_places)."""

    game: Game
    hint: Hint
    source: str | None
    destination: str | None

    @property
    def shown(self) -> dict[str, str | None]:
        """What a board (or an app) shows of the hint: its move, its words, and where
        the move starts and ends."""
        return {
            "move": self.hint.move,
            "text": self.hint.text,
            "source": self.source,
            "destination": self.destination,
        }


MATCH_HINT_MESSAGE = "A match is raced without hints: the solver would play for you."


def game_hint(*, game_id: UUID, player: User | UserClaim, revision: int) -> HintOutcome:
    """Suggest a move for the player's game as it stands at ``revision`` and count the
    hint. GameClosed on a finished game, StaleAction on an older board; another
    player's game is Game.DoesNotExist."""
    answers: list[tuple[Hint, str | None, str | None]] = []

    def ask(game: Game, variant: Variant[Any], now: datetime) -> ActionOutcome:
        if game.track == Game.Track.MATCH:
            raise MoveRefused(MATCH_HINT_MESSAGE)
        state = variant.load(game.state)
        suggested = hint(variant, state)
        places: tuple[str | None, str | None] = (None, None)
        if suggested.move is not None:
            places = hint_card_places(suggested.move, variant.public_view(state))
        answers.append((suggested, *places))
        game.hints_used += 1
        clock_tick(game, now=now)
        game.save(update_fields=HINT_FIELDS)
        return ActionOutcome(game=game)

    outcome = game_act(game_id=game_id, player=player, revision=revision, action=ask)
    suggested, source, destination = answers[0]
    return HintOutcome(game=outcome.game, hint=suggested, source=source, destination=destination)
