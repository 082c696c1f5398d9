"""The ranking rules as one integer per result: higher is better, equal is a tie."""

from dataclasses import dataclass

import pytest

from games.specs import game_specs
from leaderboards.ranking import MAX_KEY_BITS, RANKING_RULES, RankingRule, SortKey

CLASSIC = RANKING_RULES["won_score_time_moves"]
SCORE_TIME = RANKING_RULES["score_time"]


@dataclass
class R:
    won: bool = False
    score: int = 0
    elapsed_ms: int = 60_000
    move_count: int = 100


def key(rule: RankingRule, **figures: object) -> int:
    return rule.rank_key(R(**figures))  # type: ignore[arg-type]


def test_every_game_names_a_known_rule():
    for spec in game_specs():
        assert spec.ranking in RANKING_RULES, spec.key


def test_keys_fit_a_double_exactly():
    for rule in RANKING_RULES.values():
        assert sum(k.bits for k in rule.keys) <= MAX_KEY_BITS
        best = rule.rank_key(R(won=True, score=10**9, elapsed_ms=0, move_count=0))
        assert best < 2**53
        assert float(best) == best


def test_a_rule_that_needs_too_many_bits_is_refused():
    with pytest.raises(ValueError, match="more than 53 bits"):
        RankingRule("huge", "", (SortKey("score", True, 40), SortKey("move_count", False, 14)), 1)


class TestWonScoreTimeMoves:
    def test_won_beats_any_score_time_or_moves_of_a_loss(self):
        won = key(CLASSIC, won=True, score=-500, elapsed_ms=3_600_000, move_count=5_000)
        lost = key(CLASSIC, won=False, score=5_000, elapsed_ms=1_000, move_count=1)
        assert won > lost

    def test_then_the_higher_score_beats_less_time_and_fewer_moves(self):
        higher = key(CLASSIC, won=True, score=101, elapsed_ms=999_000, move_count=900)
        lower = key(CLASSIC, won=True, score=100, elapsed_ms=1_000, move_count=1)
        assert higher > lower

    def test_then_less_time_beats_fewer_moves(self):
        faster = key(CLASSIC, score=100, elapsed_ms=59_000, move_count=900)
        slower = key(CLASSIC, score=100, elapsed_ms=60_000, move_count=1)
        assert faster > slower

    def test_then_fewer_moves(self):
        assert key(CLASSIC, move_count=99) > key(CLASSIC, move_count=100)

    def test_time_counts_in_whole_seconds_so_milliseconds_tie(self):
        assert key(CLASSIC, elapsed_ms=60_001) == key(CLASSIC, elapsed_ms=60_999)
        assert key(CLASSIC, elapsed_ms=60_999) > key(CLASSIC, elapsed_ms=61_000)

    def test_equal_figures_give_equal_keys(self):
        figures = {"won": True, "score": 712, "elapsed_ms": 123_456, "move_count": 140}
        assert key(CLASSIC, **figures) == key(CLASSIC, **figures)

    def test_negative_scores_still_order(self):
        assert key(CLASSIC, score=-1) > key(CLASSIC, score=-2)
        assert key(CLASSIC, score=0) > key(CLASSIC, score=-1)

    def test_figures_out_of_range_are_clamped_not_wrapped(self):
        # Past the bits of a figure, results tie on it instead of spilling into
        # the next figure (or wrapping round to the bottom).
        top_score = key(CLASSIC, score=8_191)
        assert key(CLASSIC, score=10**6) == top_score
        assert key(CLASSIC, score=-(10**6)) == key(CLASSIC, score=-8_192)
        assert key(CLASSIC, score=-(10**6)) < key(CLASSIC, score=-8_191)
        slowest = key(CLASSIC, elapsed_ms=(2**22 - 1) * 1000)
        assert key(CLASSIC, elapsed_ms=10**12) == slowest
        assert key(CLASSIC, move_count=10**6) == key(CLASSIC, move_count=2**14 - 1)
        # A clamped figure never outranks a better one on a figure above it.
        assert key(CLASSIC, won=False, score=10**6) < key(CLASSIC, won=True, score=-(10**6))

    def test_worst_loss_is_above_zero_or_zero_and_best_win_below_the_bound(self):
        worst = key(CLASSIC, won=False, score=-(10**6), elapsed_ms=10**12, move_count=10**6)
        best = key(CLASSIC, won=True, score=10**6, elapsed_ms=0, move_count=0)
        # Only the first key's bit is set: no hint (tests/leaderboards/test_hint_ranking.py).
        assert worst == 2 ** (sum(k.bits for k in CLASSIC.keys) - 1)
        assert best == 2 ** sum(k.bits for k in CLASSIC.keys) - 1


class TestScoreTime:
    def test_score_first(self):
        assert key(SCORE_TIME, score=101, elapsed_ms=900_000) > key(
            SCORE_TIME, score=100, elapsed_ms=1_000
        )

    def test_then_less_time(self):
        assert key(SCORE_TIME, elapsed_ms=30_000) > key(SCORE_TIME, elapsed_ms=31_000)

    def test_won_and_moves_do_not_count(self):
        assert key(SCORE_TIME, won=True, move_count=1) == key(SCORE_TIME, won=False, move_count=999)

    def test_negative_final_scores_order_and_clamp(self):
        assert key(SCORE_TIME, score=-10) > key(SCORE_TIME, score=-11)
        assert key(SCORE_TIME, score=-(2**30)) == key(SCORE_TIME, score=-(2**25))
        assert key(SCORE_TIME, score=2**30) == key(SCORE_TIME, score=2**25 - 1)
