"""The profile's chart of recent results: figures for a server-rendered SVG.

Pure geometry (no database): `score_chart` takes the results in time order and
returns the points, the line and the labels the template draws.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH = 320
HEIGHT = 140
LEFT = 44
RIGHT = 8
TOP = 10
BOTTOM = 26


@dataclass(frozen=True)
class ResultPoint:
    """One closed game: when it closed, its final score and whether it was won."""

    finished_at: datetime
    score: int
    won: bool


@dataclass(frozen=True)
class PlottedPoint:
    x: float
    y: float
    result: ResultPoint

    @property
    def box_x(self) -> float:
        """The left of the square marking a game not won (6 units wide)."""
        return _round(self.x - 3)

    @property
    def box_y(self) -> float:
        return _round(self.y - 3)


@dataclass(frozen=True)
class ScoreChart:
    key: str
    name: str
    points: list[PlottedPoint]
    polyline: str
    high: int
    low: int
    high_y: float
    low_y: float
    zero_y: float | None
    won: int
    measure: str = "Final scores"
    """What the line is, for its description: final scores, or a rating."""
    items: str = "closed {name} games"
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    baseline_y: int = HEIGHT - BOTTOM

    @property
    def first(self) -> ResultPoint:
        return self.points[0].result

    @property
    def last(self) -> ResultPoint:
        return self.points[-1].result

    @property
    def summary(self) -> str:
        """The chart in a sentence, for its <desc>."""
        count = len(self.points)
        items = self.items.format(name=self.name)
        if count == 1:
            items = items.removesuffix("s")
        return (
            f"{self.measure} of the last {count} {items}, oldest first, "
            f"from {self.first.finished_at:%d %b %Y} to {self.last.finished_at:%d %b %Y}: "
            f"highest {self.high}, lowest {self.low}, {self.won} won."
        )


def _round(value: float) -> float:
    return round(value, 1)


def score_chart(
    *,
    key: str,
    name: str,
    results: Sequence[ResultPoint],
    measure: str = "Final scores",
    items: str = "closed {name} games",
) -> ScoreChart | None:
    """The chart of these results (oldest first), or None when there are none. A
    rating's chart says so (`measure`, `items`); `won` marks a point that went up."""
    if not results:
        return None
    scores = [result.score for result in results]
    high, low = max(scores), min(scores)
    span = high - low or 1
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM

    def y_of(score: int) -> float:
        if high == low:
            return _round(TOP + inner_h / 2)
        return _round(TOP + (high - score) / span * inner_h)

    step = inner_w / (len(results) - 1) if len(results) > 1 else 0.0
    points = [
        PlottedPoint(
            x=_round(LEFT + (index * step if len(results) > 1 else inner_w / 2)),
            y=y_of(result.score),
            result=result,
        )
        for index, result in enumerate(results)
    ]
    return ScoreChart(
        key=key,
        name=name,
        points=points,
        polyline=" ".join(f"{point.x},{point.y}" for point in points),
        high=high,
        low=low,
        high_y=y_of(high),
        low_y=y_of(low),
        zero_y=y_of(0) if low < 0 < high else None,
        won=sum(result.won for result in results),
        measure=measure,
        items=items,
    )
