"""Every write of the daily challenges (docs/challenges.md)."""

from challenges.services.making import (
    challenge_build,
    challenge_games,
    challenges_day_make,
    challenges_day_making,
    challenges_prepare_soon,
)
from challenges.services.playing import (
    challenge_game_acted,
    challenge_game_hold_changed,
    challenge_play,
    challenge_track,
    completion_rebuild,
    completion_record,
)

__all__ = [
    "challenge_build",
    "challenge_game_acted",
    "challenge_game_hold_changed",
    "challenge_games",
    "challenge_play",
    "challenge_track",
    "challenges_day_make",
    "challenges_day_making",
    "challenges_prepare_soon",
    "completion_rebuild",
    "completion_record",
]
