"""What the game services refuse, each with a message a player can read and the code
that names it on the web, in the API and on the sockets (api.errors.ERROR_CODES)."""

MALFORMED = "malformed"
"""The code of a request whose fields are missing or of the wrong type."""


class GameActionError(Exception):
    """An action was refused and the game is unchanged."""

    code = "game_closed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MoveRefused(GameActionError):
    """The move is malformed or illegal on this board."""

    code = "illegal_move"


class StaleAction(GameActionError):
    """The request was made at an older move number (a second tab, a double submit)."""

    code = "stale_revision"


class GameClosed(GameActionError):
    """The game is over: its result is final and no action changes it."""

    code = "game_closed"
