"""The automatic flags' rules: pure functions of a game's figures and thresholds.

Each rule returns a `Finding` (the kind of flag, a sentence that says why with
the figures, and the figures themselves) or nothing. The services decide when
to run them and store what they find.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

REPLAY_MISMATCH = "replay_mismatch"
IMPLAUSIBLE_SPEED = "implausible_speed"
SCORE_OUTLIER = "score_outlier"
DEAL_SEEN = "deal_seen"


@dataclass(frozen=True)
class Finding:
    kind: str
    details: str
    figures: dict[str, Any] = field(default_factory=dict)


def speed_findings(
    *,
    won: bool,
    elapsed_ms: int,
    actions: int,
    min_seconds_per_action: float,
    min_actions: int,
    min_win_seconds: int | None,
) -> list[Finding]:
    """Implausible speed, by two rules: on average faster than a person can act
    (over enough actions for an average to mean something), or a win faster
    than the game's threshold. `actions` counts every request that changed the
    game (Game.revision): a move, a tap, an undo, an auto-complete, the finish."""
    seconds = elapsed_ms / 1000
    findings = []
    if actions >= min_actions and actions > 0:
        per_action = seconds / actions
        if per_action < min_seconds_per_action:
            findings.append(
                Finding(
                    IMPLAUSIBLE_SPEED,
                    f"{actions} actions in {seconds:.1f} s: {per_action:.3f} s per action, "
                    f"under the {min_seconds_per_action:g} s limit "
                    f"(applies from {min_actions} actions).",
                    {
                        "rule": "seconds_per_action",
                        "actions": actions,
                        "seconds": seconds,
                        "seconds_per_action": round(per_action, 4),
                        "limit": min_seconds_per_action,
                        "min_actions": min_actions,
                    },
                )
            )
    if won and min_win_seconds is not None and seconds < min_win_seconds:
        findings.append(
            Finding(
                IMPLAUSIBLE_SPEED,
                f"Won in {seconds:.1f} s, under the {min_win_seconds} s limit for a win "
                "of this game.",
                {"rule": "win_seconds", "seconds": seconds, "limit": min_win_seconds},
            )
        )
    return findings


def merge(findings: Sequence[Finding]) -> Finding | None:
    """One flag per kind: findings of the same kind (both speed rules) joined."""
    if not findings:
        return None
    if len(findings) == 1:
        return findings[0]
    return Finding(
        findings[0].kind,
        " ".join(finding.details for finding in findings),
        {"rules": [finding.figures for finding in findings]},
    )


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        raise ValueError("the median of nothing")
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True)
class OutlierCheck:
    checked: bool
    """False when there were too few other results to judge: try again later."""
    finding: Finding | None = None


def score_outlier(
    *,
    score: int,
    others: Sequence[int],
    min_results: int,
    mads: float,
    min_mad: float,
) -> OutlierCheck:
    """A score far above the other results of the deal: above median + `mads` x
    MAD (the median absolute deviation), a rule that a few extreme scores among
    the others do not move. MAD counts as at least `min_mad`, so that a deal
    where most scores are equal does not flag every score above them by one."""
    if len(others) < min_results:
        return OutlierCheck(checked=False)
    middle = median(others)
    mad = median([abs(value - middle) for value in others])
    spread = max(mad, min_mad)
    threshold = middle + mads * spread
    if score <= threshold:
        return OutlierCheck(checked=True)
    return OutlierCheck(
        checked=True,
        finding=Finding(
            SCORE_OUTLIER,
            f"Score {score} is above median {middle:g} + {mads:g} x MAD {spread:g} = "
            f"{threshold:g}, over the deal's {len(others)} other results with the same "
            "outcome.",
            {
                "score": score,
                "median": middle,
                "mad": mad,
                "mad_used": spread,
                "mads": mads,
                "threshold": threshold,
                "results": len(others),
                "max_other": max(others),
            },
        ),
    )
