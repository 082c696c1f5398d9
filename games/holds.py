"""What a player is told of the review's hold on one of their games (Game.review_hold):
its label, and why it is left out, on the board's summary and in the history. Nothing
else of a review reaches a player: no flag, note, figure or reviewer."""

from games.models import Game

HOLD_NOTES = {
    Game.ReviewHold.HELD: (
        "this result is being checked and is left out of your figures until it is cleared"
    ),
    Game.ReviewHold.VOIDED: "a reviewer voided this result: it is left out of your figures",
}


def hold_label(hold: str) -> str:
    """ "Under review", "Voided", or nothing for a game that counts."""
    return Game.ReviewHold(hold).label if hold else ""


def hold_note(hold: str) -> str:
    return HOLD_NOTES.get(Game.ReviewHold(hold), "") if hold else ""
