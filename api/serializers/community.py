"""What the API shows of the daily deals, the leaderboards and a player's profile:
the selectors' dataclasses (leaderboards.selectors, players.selectors, with the
profile's challenge month and Codex campaign from challenges.selectors and
codex.selectors), never a deal's seed or its solver's line."""

from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers

from achievements.selectors import Badge
from api.pagination import VIEWER_ROW_HELP, PageSerializer
from api.serializers.challenges import MONTH_HELP, month_text
from api.serializers.codex import CodexTotalsSerializer
from api.serializers.review import HOLD_HELP, ReviewHoldField
from codex.selectors import Reign, TierEntry
from games.models import Game
from leaderboards.models import PeriodBest
from leaderboards.selectors import DailyEntry, DealCertificate, LeaderboardRow
from players.selectors import ChallengeMonth, ProfilePage, StatsRow


class CertificateSerializer(serializers.Serializer[DealCertificate]):
    certified = serializers.BooleanField(help_text="The solver won this deal: it can be won.")
    par = serializers.IntegerField(
        allow_null=True, help_text="The moves of the solver's win; null when not certified."
    )
    difficulty = serializers.IntegerField(allow_null=True)
    difficulty_word = serializers.CharField(allow_null=True)
    replay_open = serializers.BooleanField(
        help_text="The day is over: the solver's line can be stepped through on the web site."
    )


class RankedGameSerializer(serializers.Serializer[Game]):
    id = serializers.UUIDField()
    state = serializers.ChoiceField(choices=Game.Status.choices, source="status")
    final_score = serializers.IntegerField(allow_null=True)
    review = ReviewHoldField(
        source="review_hold",
        help_text=HOLD_HELP + " A held result has no rank (`rank` is null) until then.",
    )


class DailyEntrySerializer(serializers.Serializer[DailyEntry]):
    variant = serializers.CharField(source="deal.variant")
    name = serializers.CharField()
    attempts = serializers.IntegerField(help_text="Your games of this deal, ranked and practice.")
    rank = serializers.IntegerField(
        allow_null=True, help_text="Your rank on the deal, once your ranked game is over."
    )
    ranked_game = RankedGameSerializer(
        allow_null=True, help_text="Your first attempt, the one ranked; null before you play."
    )
    certificate = CertificateSerializer()


class DailySerializer(serializers.Serializer[Any]):
    day = serializers.DateField(help_text="Today, in UTC: the deals change at 00:00 UTC.")
    deals = DailyEntrySerializer(many=True)
    streak = serializers.IntegerField(help_text="Days in a row with a daily deal played.")
    seconds_to_next = serializers.IntegerField(help_text="Seconds until the next deals.")


class LeaderboardRowSerializer(serializers.Serializer[LeaderboardRow]):
    rank = serializers.IntegerField(help_text="Equal results share a rank (1, 2, 2, 4).")
    username = serializers.CharField()
    won = serializers.BooleanField()
    score = serializers.IntegerField()
    elapsed_seconds = serializers.IntegerField()
    move_count = serializers.IntegerField()
    is_viewer = serializers.BooleanField(help_text="The row is yours.")


class DealLeaderboardSerializer(PageSerializer):
    results = LeaderboardRowSerializer(many=True)
    viewer_row = LeaderboardRowSerializer(allow_null=True, help_text=VIEWER_ROW_HELP)
    day = serializers.DateField()
    variant = serializers.CharField()
    name = serializers.CharField()
    certificate = CertificateSerializer()


class PeriodLeaderboardSerializer(PageSerializer):
    results = LeaderboardRowSerializer(many=True)
    viewer_row = LeaderboardRowSerializer(allow_null=True, help_text=VIEWER_ROW_HELP)
    variant = serializers.CharField()
    name = serializers.CharField()
    period = serializers.ChoiceField(choices=PeriodBest.Period.choices)
    period_start = serializers.DateField(help_text="The week's Monday; 2000-01-01 for all time.")


def period_row(best: PeriodBest, *, viewer: User | None) -> LeaderboardRow:
    """A row of a weekly or all-time table as a deal's rows read."""
    return LeaderboardRow(
        rank=best.rank,
        username=best.player.get_username(),
        won=best.won,
        score=best.score,
        elapsed_seconds=best.elapsed_ms // 1000,
        move_count=best.move_count,
        is_viewer=viewer is not None and best.player_id == viewer.pk,
    )


class StatsRowSerializer(serializers.Serializer[StatsRow]):
    key = serializers.CharField(help_text='The game\'s key, or "overall".')
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="Won over played, from 0 to 1.")
    best_score = serializers.IntegerField(allow_null=True)
    fastest_win_seconds = serializers.IntegerField(allow_null=True)
    total_moves = serializers.IntegerField()
    current_win_streak = serializers.IntegerField()
    longest_win_streak = serializers.IntegerField()


class BadgeSerializer(serializers.Serializer[Badge]):
    code = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    game = serializers.CharField(allow_null=True, help_text="The game it is earned in, if one.")
    icon = serializers.CharField()
    repeatable = serializers.BooleanField()
    count = serializers.IntegerField(help_text="How many times it was earned.")
    first_earned_at = serializers.DateTimeField()
    last_earned_at = serializers.DateTimeField()


SHOWN_ONLY_IF_VISIBLE = "Only when stats_visible: a private profile shows others just the name."


class NextBadgeSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The badge's code, as `badges` lists it once earned.")
    title = serializers.CharField()
    stars = serializers.IntegerField(help_text="The month's stars that earn it.")


class ProfileChallengesSerializer(serializers.Serializer[Any]):
    month = serializers.CharField(help_text="This month (UTC), " + MONTH_HELP)
    stars = serializers.IntegerField(help_text="The player's daily challenge stars this month.")
    next_badge = NextBadgeSerializer(
        allow_null=True,
        help_text="The lowest star badge of the month not reached yet; null once gold is.",
    )
    to_go = serializers.IntegerField(help_text="Stars still missing for it; 0 without one.")


def challenges_of(month: ChallengeMonth) -> dict[str, Any]:
    badge = month.next_badge
    return {
        "month": month_text(month.month),
        "stars": month.stars,
        "next_badge": None
        if badge is None
        else {"code": badge.code, "title": badge.title, "stars": month.next_stars},
        "to_go": month.to_go,
    }


class ProfileTierSerializer(serializers.Serializer[TierEntry]):
    tier = serializers.IntegerField()
    name = serializers.CharField()
    unlocked = serializers.BooleanField(help_text="Open to the player.")
    won = serializers.IntegerField(help_text="Its scenarios the player has won.")
    scenarios = serializers.SerializerMethodField(help_text="Its scenarios: five.")

    def get_scenarios(self, tier: TierEntry) -> int:
        return len(tier.scenarios)


class ProfileCampaignSerializer(CodexTotalsSerializer):
    tiers = ProfileTierSerializer(many=True, help_text="Each tier's wins.")


class ReignSerializer(serializers.Serializer[Reign]):
    ledger = serializers.IntegerField(help_text="The campaign ledger the title was held with.")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(
        allow_null=True, help_text="When the title moved on; null while the player holds it."
    )


class ProfileSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        help_text="As the player spells it (the name asked may differ)."
    )
    is_owner = serializers.BooleanField(help_text="The profile is yours.")
    is_public = serializers.BooleanField()
    stats_visible = serializers.BooleanField(help_text="Yours, or public.")
    member_since = serializers.DateTimeField(required=False, help_text=SHOWN_ONLY_IF_VISIBLE)
    stats = StatsRowSerializer(
        many=True, required=False, help_text="A row per game offered. " + SHOWN_ONLY_IF_VISIBLE
    )
    overall = StatsRowSerializer(required=False, help_text=SHOWN_ONLY_IF_VISIBLE)
    badges = BadgeSerializer(many=True, required=False, help_text=SHOWN_ONLY_IF_VISIBLE)
    challenges = ProfileChallengesSerializer(
        required=False,
        help_text="This month's daily challenge stars and the next monthly badge. "
        + SHOWN_ONLY_IF_VISIBLE,
    )
    codex = ProfileCampaignSerializer(
        required=False,
        help_text="The Codex campaign: scenarios won, stars, the campaign ledger, each "
        "tier's wins. " + SHOWN_ONLY_IF_VISIBLE,
    )
    master_architect_reigns = ReignSerializer(
        many=True,
        required=False,
        help_text="The player's reigns as Master Architect of the Ascension Citadel, the "
        "latest first. " + SHOWN_ONLY_IF_VISIBLE,
    )


def profile_of(page: ProfilePage) -> dict[str, Any]:
    """The profile as its viewer may see it: the selector decided what it read, and
    a profile the viewer may not see carries its name and nothing else."""
    shown: dict[str, Any] = {
        "username": page.username,
        "is_owner": page.is_owner,
        "is_public": page.is_public,
        "stats_visible": page.stats_visible,
    }
    if page.stats_visible:
        shown |= {
            "member_since": page.member_since,
            "stats": page.rows,
            "overall": page.overall,
            "badges": page.badges,
            "challenges": None if page.challenges is None else challenges_of(page.challenges),
            "codex": page.campaign,
            "master_architect_reigns": page.reigns,
        }
    return dict(ProfileSerializer(shown).data)
