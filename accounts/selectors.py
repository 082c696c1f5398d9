"""Reads on accounts. Views and templates get these dataclasses, never a query."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from accounts.models import Profile
from games.engine import get_variant, variant_keys
from games.selectors import GameStats, game_stats_for_player


@dataclass(frozen=True)
class StatsRow:
    """One line of the statistics table: a variant, or the overall figures."""

    key: str
    name: str
    played: int
    won: int
    win_rate: float
    best_score: int | None
    fastest_win_seconds: int | None
    total_moves: int


@dataclass(frozen=True)
class ProfilePage:
    username: str
    member_since: datetime
    is_owner: bool
    is_public: bool
    stats_visible: bool
    rows: list[StatsRow]
    overall: StatsRow | None


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


def _row(*, key: str, name: str, stats: GameStats) -> StatsRow:
    return StatsRow(
        key=key,
        name=name,
        played=stats.played,
        won=stats.won,
        win_rate=stats.win_rate,
        best_score=stats.best_score,
        fastest_win_seconds=stats.fastest_win_seconds,
        total_moves=stats.total_moves,
    )


def player_stats_rows(*, player: User) -> tuple[list[StatsRow], StatsRow]:
    """One row per variant the engine knows, and the overall row."""
    rows = [
        _row(
            key=key,
            name=get_variant(key).name,
            stats=game_stats_for_player(player=player, variant=key),
        )
        for key in variant_keys()
    ]
    overall = _row(key="overall", name="Overall", stats=game_stats_for_player(player=player))
    return rows, overall


def profile_for_username(*, username: str, viewer: AbstractBaseUser | AnonymousUser) -> ProfilePage:
    """The profile page as `viewer` may see it.

    The owner always sees their statistics; anyone else sees them only when the
    profile is public. Raises the user model's DoesNotExist for an unknown name.
    """
    user = user_for_username(username=username)
    profile = profile_for_user(user=user)
    is_owner = viewer.is_authenticated and viewer.pk == user.pk
    stats_visible = is_owner or profile.public
    rows: list[StatsRow] = []
    overall: StatsRow | None = None
    if stats_visible:
        rows, overall = player_stats_rows(player=user)
    return ProfilePage(
        username=user.get_username(),
        member_since=user.date_joined,
        is_owner=is_owner,
        is_public=profile.public,
        stats_visible=stats_visible,
        rows=rows,
        overall=overall,
    )
