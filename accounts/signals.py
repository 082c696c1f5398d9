"""Keep each user's username skeleton in step with the name, however it was saved."""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.services import username_skeleton_store


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-username-skeleton")
def username_skeleton_on_save(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    # Fixtures load raw rows; a save of other fields only (last_login on every
    # login) leaves the name as it was.
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    username_skeleton_store(user=instance)
