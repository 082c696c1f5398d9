"""Which answers are never compressed (config.middleware.BreachAwareGZipMiddleware)."""

from collections.abc import Callable
from functools import wraps
from typing import Any

UNCOMPRESSED = "uncompressed"
"""The response attribute that keeps an answer out of compression."""


def uncompressed(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view whose answer shows a secret beside what the asker sent (a match's invite
    link beside the ?code= it was opened with): never compressed, or its length would
    tell an attacker's guesses at the secret apart (BREACH)."""

    @wraps(view)
    def answer(*args: Any, **kwargs: Any) -> Any:
        response = view(*args, **kwargs)
        setattr(response, UNCOMPRESSED, True)
        return response

    return answer
