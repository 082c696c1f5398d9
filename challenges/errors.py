class ChallengeRefused(Exception):
    """A challenge that is not made, or not played, and why (the message says it)."""
