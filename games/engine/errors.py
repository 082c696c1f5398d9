"""The single exception type of the engine."""


class EngineError(Exception):
    """Anything the engine refuses: an illegal move, malformed notation, a bad deck or
    options, an unknown variant or a corrupt snapshot.

    ``str(error)`` is one plain sentence that can be shown to a player as it is.
    """
