"""Reads on accounts: a player's preferences and finding a player by name."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User

from accounts.models import Profile, UsernameSkeleton
from accounts.usernames import username_skeleton


def profile_for_user(*, user: AbstractBaseUser) -> Profile:
    """The user's profile; a user who never saved one gets the defaults (unsaved)."""
    profile = Profile.objects.filter(user_id=user.pk).first()
    return profile if profile is not None else Profile(user_id=user.pk)


def user_for_username(*, username: str) -> User:
    """The account with this username, matched exactly or else case-insensitively.

    Raises the user model's DoesNotExist when there is none.
    """
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model.objects.filter(username__iexact=username).order_by("pk").first()
    if user is None:
        raise user_model.DoesNotExist(f"No player is called {username!r}")
    return user


def username_lookalike_taken(*, username: str, exclude_user_id: int | None = None) -> bool:
    """Whether another user's name looks the same as this one (the same skeleton)."""
    others = UsernameSkeleton.objects.filter(skeleton=username_skeleton(username))
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    return others.exists()
