"""How results of a game are ordered, as one integer per result.

A ranking rule is a list of sort keys, best first. Each key takes a figure of
the result, clamps it into a fixed number of bits and puts it in its place of
one integer, so that a higher integer is always a better result. PostgreSQL
indexes that integer and Redis uses it as the sorted-set score (it stays below
2**53, so a double holds it exactly). Results with equal integers are tied and
share a rank.

Every rule starts with one bit: whether the game was played without a hint. A ranked
daily result that used a hint stays listed, with its figures, but after every result
without hints (docs/hints.md).
"""

from dataclasses import dataclass

MAX_KEY_BITS = 53


@dataclass(frozen=True)
class SortKey:
    figure: str
    higher_is_better: bool
    bits: int
    lowest: int = 0

    def encode(self, value: int) -> int:
        top = (1 << self.bits) - 1
        offset = min(max(value - self.lowest, 0), top)
        return offset if self.higher_is_better else top - offset


HINT_FREE = "hint_free"
"""The figure of the first key: 1 for a game played without a hint, else 0."""


def _figure(result: object, name: str) -> int:
    if name == HINT_FREE:
        # A figures object without the count (one from before hints) has used none.
        return 0 if getattr(result, "hints_used", 0) else 1
    # Times are kept in milliseconds and ranked by the second.
    seconds = name == "elapsed_seconds"
    value = int(getattr(result, "elapsed_ms" if seconds else name))
    return value // 1000 if seconds else value


@dataclass(frozen=True)
class RankingRule:
    name: str
    description: str
    keys: tuple[SortKey, ...]
    bucket_keys: int
    """How many of the leading keys make a result's bucket in the deal's histogram of
    scores (leaderboards.models.ScoreCount): the figures up to the score, so that a
    board holds a few thousand buckets, not one per result."""

    def __post_init__(self) -> None:
        if sum(key.bits for key in self.keys) > MAX_KEY_BITS:
            raise ValueError(f"ranking {self.name} needs more than {MAX_KEY_BITS} bits")
        if not 0 < self.bucket_keys <= len(self.keys):
            raise ValueError(f"ranking {self.name}: bucket_keys out of its keys")

    @property
    def bucket_shift(self) -> int:
        """The bits of the figures after the bucket's: bucket = rank key >> shift."""
        return sum(key.bits for key in self.keys[self.bucket_keys :])

    def bucket(self, rank_key: int) -> int:
        """The bucket of a rank key: a higher bucket holds only better keys, and every
        key of a bucket lies in [bucket << shift, (bucket + 1) << shift)."""
        return rank_key >> self.bucket_shift

    def rank_key(self, result: object) -> int:
        """The rank key of a result: any object with the rule's figures as attributes
        (a game's result, a player's month of challenges)."""
        value = 0
        for key in self.keys:
            value = (value << key.bits) | key.encode(_figure(result, key.figure))
        return value


RANKING_RULES: dict[str, RankingRule] = {
    rule.name: rule
    for rule in (
        RankingRule(
            "won_score_time_moves",
            "without hints first, then won, then score, then less time, then fewer moves",
            (
                SortKey(HINT_FREE, True, 1),
                SortKey("won", True, 1),
                SortKey("score", True, 14, lowest=-(1 << 13)),
                SortKey("elapsed_seconds", False, 22),
                SortKey("move_count", False, 14),
            ),
            bucket_keys=3,
        ),
        RankingRule(
            "score_time",
            "without hints first, then score, then less time",
            (
                SortKey(HINT_FREE, True, 1),
                SortKey("score", True, 26, lowest=-(1 << 25)),
                SortKey("elapsed_seconds", False, 22),
            ),
            bucket_keys=2,
        ),
        # The monthly challenge leaderboard (challenges.leaderboard): a player's month
        # is ranked on its score, the stars (at most 31 days of 30), and its elapsed
        # time, from the month's start to the last star. A challenge game's hints rank
        # nothing, so every month there is hint-free.
        RankingRule(
            "stars_last_star",
            "without hints first, then more stars, then the earlier last star",
            (
                SortKey(HINT_FREE, True, 1),
                SortKey("score", True, 12),
                SortKey("elapsed_seconds", False, 22),
            ),
            bucket_keys=2,
        ),
    )
}
