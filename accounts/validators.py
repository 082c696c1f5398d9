"""The username checks of sign-up and of the admin (docs/accounts.md, "Usernames")."""

from django.core.exceptions import ValidationError

from accounts.selectors import username_lookalike_taken
from accounts.usernames import (
    LOOKALIKE_MESSAGE,
    username_mixed_script,
    username_mixed_script_message,
)


def validate_username_one_alphabet(username: str) -> None:
    """Refuse a name that mixes alphabets with letters that look alike ("paypal"
    with a Cyrillic a, U+0430); digits and "_ . @ + -" belong to no alphabet."""
    mixed = username_mixed_script(username)
    if mixed is not None:
        raise ValidationError(username_mixed_script_message(mixed), code="username_mixed_script")


def validate_username_unlike_others(username: str, *, exclude_user_id: int | None = None) -> None:
    """Refuse a name that looks the same as another user's (the same skeleton)."""
    if username_lookalike_taken(username=username, exclude_user_id=exclude_user_id):
        raise ValidationError(LOOKALIKE_MESSAGE, code="username_lookalike")
