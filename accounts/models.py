from django.conf import settings
from django.db import models


class Felt(models.TextChoices):
    # GAME is each game's own look from its rulebook: Steps' forest green felt with
    # gilded borders, Spike's Alpine Snow, the classic green felt for the others.
    GAME = "game", "Each game's own"
    GREEN = "green", "Classic green felt"
    FOREST = "forest", "Forest green felt, gilded borders"
    NAVY = "navy", "Royal navy felt, gilded borders"
    ALPINE = "alpine", "Alpine Snow"
    GRANITE = "granite", "Granite Rock"
    AURORA = "aurora", "Aurora Borealis"


class CardBack(models.TextChoices):
    LATTICE = "lattice", "Blue lattice"
    RUBY = "ruby", "Ruby diamonds"
    SUMMIT = "summit", "Mountain summit"
    DECO = "deco", "Art-deco gold"


class CardSize(models.TextChoices):
    SMALL = "small", "Small"
    MEDIUM = "medium", "Medium"
    LARGE = "large", "Large"


class ColourScheme(models.TextChoices):
    SYSTEM = "system", "As my device is set"
    LIGHT = "light", "Light"
    DARK = "dark", "Dark"


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
    felt = models.CharField(
        max_length=16,
        choices=Felt.choices,
        default=Felt.GAME,
        help_text="The board's felt or backdrop.",
    )
    card_back = models.CharField(max_length=16, choices=CardBack.choices, default=CardBack.LATTICE)
    four_colour_deck = models.BooleanField(
        default=False, help_text="Spades black, hearts red, diamonds blue, clubs green."
    )
    card_size = models.CharField(max_length=8, choices=CardSize.choices, default=CardSize.MEDIUM)
    colour_scheme = models.CharField(
        max_length=8,
        choices=ColourScheme.choices,
        default=ColourScheme.SYSTEM,
        help_text="Light or dark pages, or whatever the device prefers.",
    )
    sound = models.BooleanField(default=False, help_text="Card taps and a fanfare on a win.")
    single_tap_moves = models.BooleanField(
        default=False,
        help_text="A single tap moves a card that has exactly one sensible destination.",
    )
    auto_foundation = models.BooleanField(
        default=False,
        help_text="Cards the tableau can never need again go to the foundations by themselves.",
    )
    winnable_only = models.JSONField(
        default=list,
        blank=True,
        help_text="The games (keys) whose new casual deals come from the certified pool.",
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
