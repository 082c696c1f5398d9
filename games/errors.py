"""What the game services refuse, each with a message a player can read."""


class GameActionError(Exception):
    """An action was refused and the game is unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MoveRefused(GameActionError):
    """The move is malformed or illegal on this board."""


class StaleAction(GameActionError):
    """The request was made at an older move number (a second tab, a double submit)."""


class GameClosed(GameActionError):
    """The game is over: its result is final and no action changes it."""
