"""What the match services refuse, each with a message a player can read."""


class MatchRefused(Exception):
    """The request was refused and nothing changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class MatchNotYours(MatchRefused):
    """The action is another player's to take (only its maker starts a match)."""
