"""Writes on accounts: profiles, the demo account and the usernames' skeletons.

Sign-up, log-in, log-out and password reset are django-allauth's flows; this
module only holds what the arena adds on top of them.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.module_loading import import_string

from accounts.errors import DemoUserConflict
from accounts.models import Profile, UsernameSkeleton
from accounts.usernames import username_skeleton


def profile_get_or_create(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created with the defaults the first time it is needed."""
    profile, _created = Profile.objects.get_or_create(user_id=user.pk)
    return profile


def profile_update(
    *,
    user: AbstractBaseUser,
    public: bool,
    highlight_moves: bool,
    reduced_motion: bool,
    felt: str | None = None,
    card_back: str | None = None,
    card_size: str | None = None,
    colour_scheme: str | None = None,
    four_colour_deck: bool | None = None,
    sound: bool | None = None,
    single_tap_moves: bool | None = None,
    auto_foundation: bool | None = None,
    winnable_only: list[str] | None = None,
) -> Profile:
    """Store the player's privacy, looks and play preferences.

    A look or switch left as None keeps its stored value, so a caller that only
    knows the first three (the privacy tests, the toast's) changes nothing else.
    A value outside the field's choices raises ValidationError and stores nothing;
    so does a game in ``winnable_only`` that is not offered (winnable_only_choices).
    """
    given: dict[str, str | bool | list[str] | None] = {
        "public": public,
        "highlight_moves": highlight_moves,
        "reduced_motion": reduced_motion,
        "felt": felt,
        "card_back": card_back,
        "card_size": card_size,
        "colour_scheme": colour_scheme,
        "four_colour_deck": four_colour_deck,
        "sound": sound,
        "single_tap_moves": single_tap_moves,
        "auto_foundation": auto_foundation,
        "winnable_only": _winnable_only_games(winnable_only),
    }
    changed = [name for name, value in given.items() if value is not None]
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user_id=user.pk)
        for name in changed:
            setattr(profile, name, given[name])
        profile.full_clean()
        profile.save(update_fields=[*changed, "updated_at"])
    return profile


def winnable_only_choices() -> list[tuple[str, str]]:
    """The games a player can ask winnable deals only of, as (key, name): games owns
    the list (``settings.WINNABLE_ONLY_CHOICES`` names its function; accounts sits
    below games and does not import it)."""
    choices: list[tuple[str, str]] = import_string(settings.WINNABLE_ONLY_CHOICES)()
    return choices


def _winnable_only_games(keys: list[str] | None) -> list[str] | None:
    """The games asked for, in the order offered, each once; ValidationError for a
    game not offered."""
    if keys is None:
        return None
    offered = [key for key, _name in winnable_only_choices()]
    unknown = sorted(set(keys) - set(offered))
    if unknown:
        raise ValidationError(
            {"winnable_only": f"Winnable deals are not offered for {', '.join(unknown)}."}
        )
    return [key for key in offered if key in keys]


def demo_user_ensure(*, username: str, password: str, email: str | None = None) -> AbstractUser:
    """Create the demo account, or reset its password and e-mail if it exists.

    The e-mail address is stored as the account's verified, primary address in
    allauth, so the account can log in with it and reset its password. Running
    this twice leaves exactly the same rows as running it once.
    """
    from allauth.account.models import EmailAddress

    email = (email or f"{username}@example.com").lower()
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model.objects.filter(username__iexact=username).order_by("pk").first()
        taken = user_model.objects.filter(email__iexact=email)
        claimed = EmailAddress.objects.filter(email__iexact=email)
        if user is not None:
            taken = taken.exclude(pk=user.pk)
            claimed = claimed.exclude(user_id=user.pk)
        if taken.exists() or claimed.exists():
            raise DemoUserConflict(f"The e-mail address {email} belongs to another account.")

        if user is None:
            user = user_model(username=username)
        user.email = email
        user.is_active = True
        user.set_password(password)
        user.save()

        EmailAddress.objects.filter(user_id=user.pk).exclude(email__iexact=email).update(
            primary=False
        )
        address = EmailAddress.objects.filter(user_id=user.pk, email__iexact=email).first()
        if address is None:
            address = EmailAddress(user_id=user.pk, email=email)
        address.email = email
        address.verified = True
        address.primary = True
        address.save()

        profile_get_or_create(user=user)
    return user


def username_skeleton_store(*, user: AbstractBaseUser) -> UsernameSkeleton:
    """Record what the user's name looks like (after every save of the user)."""
    skeleton, _created = UsernameSkeleton.objects.update_or_create(
        user_id=user.pk, defaults={"skeleton": username_skeleton(user.get_username())}
    )
    return skeleton
