"""Writes of the review of results (docs/review.md).

Every closed game is verified once by replay and run through the automatic checks
(`automatic`); the sweep also rechecks listed results against the digest of their
last verification (`recheck`). Reviewers verify again, void, restore and dismiss
flags (`decisions`); each of their actions needs a note and writes an audit entry in
the same transaction.

The game row is the lock: every write about one game's review first takes
`SELECT ... FOR UPDATE` on it, so an automatic review, a sweep and a reviewer acting
on the same game take turns. `state.review_state_sync` then keeps the review state,
and everything that counts the game, in step: a game counts only while it is clear
(no open flag, not voided).
"""

from reviews.services.automatic import game_review, outliers_recheck, reviews_sweep
from reviews.services.decisions import (
    ReviewRefused,
    replay_view_record,
    review_flags_dismiss,
    review_restore,
    review_verify_again,
    review_void,
)

__all__ = [
    "ReviewRefused",
    "game_review",
    "outliers_recheck",
    "replay_view_record",
    "review_flags_dismiss",
    "review_restore",
    "review_verify_again",
    "review_void",
    "reviews_sweep",
]
