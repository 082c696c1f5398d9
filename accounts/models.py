from django.conf import settings
from django.db import models


class Profile(models.Model):
    """A player's public face and play preferences, one per user.

    Rows are created on demand by `accounts.services.profile_get_or_create`,
    so a user without a row simply has the defaults.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    public = models.BooleanField(
        default=True, help_text="Others may see the statistics on the profile page."
    )
    highlight_moves = models.BooleanField(
        default=False, help_text="Highlight the places a picked card can go."
    )
    reduced_motion = models.BooleanField(
        default=False, help_text="Keep card animations to a minimum."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "profile"
        verbose_name_plural = "profiles"

    def __str__(self) -> str:
        return f"Profile of user {self.user_id}"


class UsernameSkeleton(models.Model):
    """What a user's name looks like (`accounts.usernames.username_skeleton`), so that
    a new name is compared with every existing one by an index lookup.

    Written by `accounts.services.username_skeleton_store` on every save of a user
    (a post_save receiver), so sign-up, the admin and management commands all keep it.
    Not unique: names taken before the check existed may share a skeleton.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_skeleton",
    )
    # A username has at most 150 characters; case folding can triple one.
    skeleton = models.CharField(max_length=450, db_index=True)

    class Meta:
        verbose_name = "username skeleton"
        verbose_name_plural = "username skeletons"

    def __str__(self) -> str:
        return f"Skeleton of user {self.user_id}"
