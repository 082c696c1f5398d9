"""What every page needs from the player's profile: how the board looks and sounds."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.models import Profile
from accounts.selectors import profile_for_user


def board_looks(request: HttpRequest) -> dict[str, object]:
    """`looks`: the player's profile (the defaults for a visitor), read on first use.

    Lazy, so a response that never prints it (a board partial, a JSON answer) costs
    no query; a page that does costs one, and none for a visitor.
    """
    user: AbstractBaseUser | AnonymousUser = request.user

    def read() -> Profile:
        if not user.is_authenticated:
            return Profile()
        return profile_for_user(user=user)

    return {"looks": SimpleLazyObject(read)}
