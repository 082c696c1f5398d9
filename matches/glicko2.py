"""Glicko-2 ratings, after Mark Glickman's "Example of the Glicko-2 system" (steps 1-8).

Pure: no Django, no clock, no I/O, so that a replay of the match rows gives the stored
numbers bit for bit. docs/ratings.md says how the matches app uses it: every match is one
rating period for its players, rated against the others' ratings from before the match.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

# Glicko-2's own scale: mu = (r - 1500) / SCALE, phi = RD / SCALE (step 2).
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# Lichess's value, with lichess's one-game rating periods (the paper's example uses 0.5).
TAU = 0.75
# The one departure from the paper: a deviation never passes a new player's, as Glicko-1
# caps it (lichess caps at its own default, 500); step 6 alone would pass it.
MAX_DEVIATION = DEFAULT_DEVIATION
CONVERGENCE_TOLERANCE = 0.000001
# Lichess's threshold, inclusive as there: a rating is provisional while RD >= 110.
PROVISIONAL_DEVIATION = 110.0

WIN = 1.0
DRAW = 0.5
LOSS = 0.0

PlayerKey = TypeVar("PlayerKey", bound=Hashable)


@dataclass(frozen=True, kw_only=True, slots=True)
class Rating:
    """A rating on the original (Glicko) scale; the defaults are an unrated player's."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def rounded_rating(self) -> int:
        return round(self.rating)

    @property
    def rounded_deviation(self) -> int:
        return round(self.deviation)


# One game of a rating period: the opponent's rating before the period, and the score.
Result = tuple[Rating, float]


class PeriodTerms(NamedTuple):
    """Steps 3 and 4: v, and the sum of g(phi_j) (s_j - E_j) that makes Delta = v * sum."""

    variance: float
    score_sum: float

    @property
    def improvement(self) -> float:
        return self.variance * self.score_sum


@dataclass(frozen=True, kw_only=True, slots=True)
class MatchOutcome(Generic[PlayerKey]):
    """A finished match, whatever its mode: each player's place, 1 the best; equal places tie."""

    placements: Mapping[PlayerKey, int]


@dataclass(frozen=True, kw_only=True, slots=True)
class RatingChange(Generic[PlayerKey]):
    """One player's rating before and after the match at match_index of a replay."""

    match_index: int
    player: PlayerKey
    before: Rating
    after: Rating


def to_glicko2_scale(rating: Rating) -> tuple[float, float]:
    """Step 2: (mu, phi)."""
    return (rating.rating - DEFAULT_RATING) / SCALE, rating.deviation / SCALE


def deviation_impact(phi: float) -> float:
    """The paper's g(phi): an opponent with an uncertain rating tells less."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected_score(*, mu: float, opponent_mu: float, opponent_phi: float) -> float:
    """The paper's E(mu, mu_j, phi_j)."""
    return 1.0 / (1.0 + math.exp(-deviation_impact(opponent_phi) * (mu - opponent_mu)))


def period_terms(player: Rating, results: Sequence[Result]) -> PeriodTerms:
    """Steps 3 and 4 for a period of at least one game."""
    mu, _ = to_glicko2_scale(player)
    information = 0.0
    score_sum = 0.0
    for opponent, score in results:
        opponent_mu, opponent_phi = to_glicko2_scale(opponent)
        impact = deviation_impact(opponent_phi)
        expected = expected_score(mu=mu, opponent_mu=opponent_mu, opponent_phi=opponent_phi)
        information += impact * impact * expected * (1.0 - expected)
        score_sum += impact * (score - expected)
    return PeriodTerms(variance=1.0 / information, score_sum=score_sum)


def new_volatility(
    *, volatility: float, phi: float, variance: float, improvement: float, tau: float
) -> float:
    """Step 5: sigma', the root of f found by the Illinois algorithm (regula falsi)."""
    a = math.log(volatility * volatility)
    improvement_squared = improvement * improvement
    phi_squared = phi * phi

    def f(x: float) -> float:
        exp_x = math.exp(x)
        return exp_x * (improvement_squared - phi_squared - variance - exp_x) / (
            2.0 * (phi_squared + variance + exp_x) ** 2
        ) - (x - a) / (tau * tau)

    low = a
    if improvement_squared > phi_squared + variance:
        high = math.log(improvement_squared - phi_squared - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE_TOLERANCE:
        guess = low + (low - high) * f_low / (f_high - f_low)
        f_guess = f(guess)
        # "<= 0", not "< 0": on an exact root the bracket must still close, or it loops.
        if f_guess * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = guess, f_guess
    return math.exp(low / 2.0)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period of these results (1 win, 0.5 draw, 0 loss).

    No results: step 6 alone, the deviation grows by the volatility and nothing else moves.
    """
    mu, phi = to_glicko2_scale(player)
    if not results:
        grown = math.sqrt(phi * phi + player.volatility * player.volatility)
        return Rating(
            rating=player.rating,
            deviation=min(grown * SCALE, MAX_DEVIATION),
            volatility=player.volatility,
        )
    # A canonical order of the sums, so that the order the games come in cannot change a bit.
    terms = period_terms(player, sorted(results, key=_result_order))
    volatility = new_volatility(
        volatility=player.volatility,
        phi=phi,
        variance=terms.variance,
        improvement=terms.improvement,
        tau=tau,
    )
    phi_star = math.sqrt(phi * phi + volatility * volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / terms.variance)
    new_mu = mu + new_phi * new_phi * terms.score_sum
    return Rating(
        rating=new_mu * SCALE + DEFAULT_RATING,
        deviation=min(new_phi * SCALE, MAX_DEVIATION),
        volatility=volatility,
    )


def _result_order(result: Result) -> tuple[float, float, float, float]:
    opponent, score = result
    return opponent.rating, opponent.deviation, opponent.volatility, score


def pair_score(*, placement: int, opponent_placement: int) -> float:
    """A match of N players is N - 1 games for each: the better place wins, equal places draw."""
    if placement < opponent_placement:
        return WIN
    if placement == opponent_placement:
        return DRAW
    return LOSS


def match_results(
    placements: Mapping[PlayerKey, int], *, ratings: Mapping[PlayerKey, Rating]
) -> dict[PlayerKey, list[Result]]:
    """Each player's rating period for the match: every other player, at the rating it had
    before the match (a player absent from ratings is unrated), and the pair's score."""
    if len(placements) < 2:
        raise ValueError("a rated match has at least two players")
    before = {player: ratings.get(player, Rating()) for player in placements}
    return {
        player: [
            (
                before[opponent],
                pair_score(placement=placement, opponent_placement=opponent_placement),
            )
            for opponent, opponent_placement in placements.items()
            if opponent != player
        ]
        for player, placement in placements.items()
    }


def rate_match(
    placements: Mapping[PlayerKey, int],
    *,
    ratings: Mapping[PlayerKey, Rating],
    tau: float = TAU,
) -> dict[PlayerKey, Rating]:
    """Every player's rating after the match (a player absent from ratings starts unrated)."""
    return {
        player: rate(ratings.get(player, Rating()), results, tau=tau)
        for player, results in match_results(placements, ratings=ratings).items()
    }


def rating_changes(
    matches: Iterable[MatchOutcome[PlayerKey]], *, tau: float = TAU
) -> Iterator[RatingChange[PlayerKey]]:
    """The replay, match by match in the given order, from every player unrated."""
    current: dict[PlayerKey, Rating] = {}
    for match_index, match in enumerate(matches):
        after = rate_match(match.placements, ratings=current, tau=tau)
        for player, rating in after.items():
            yield RatingChange(
                match_index=match_index,
                player=player,
                before=current.get(player, Rating()),
                after=rating,
            )
        current.update(after)


def ratings_replay(
    matches: Iterable[MatchOutcome[PlayerKey]], *, tau: float = TAU
) -> dict[PlayerKey, Rating]:
    """Every player's rating after all the matches, recomputed from the defaults."""
    return {change.player: change.after for change in rating_changes(matches, tau=tau)}


def is_provisional(rating: Rating) -> bool:
    return rating.deviation >= PROVISIONAL_DEVIATION


def display(rating: Rating) -> str:
    """The rating as lichess shows it: "1500?" while provisional, else "1500"."""
    return f"{rating.rounded_rating}{'?' if is_provisional(rating) else ''}"
