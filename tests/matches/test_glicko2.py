"""Glicko-2 (matches/glicko2.py): Glickman's published example, the match rules built on it,
the replay. Pure: no database.

The paper ("Example of the Glicko-2 system") rounds its intermediate values as it prints them
and carries the rounded figures forward: g and E to four and three places, so its v = 1.7785
and Delta = -0.4834 where the unrounded ones are 1.77898 and -0.48393, and its r' = 1464.06
comes from the rounded mu' = -0.2069 (unrounded 1464.0507). Its sigma' = 0.05999 is
0.0599960 cut short. Each figure is checked at the precision that survives this.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.glicko2 import (
    DEFAULT_DEVIATION,
    MAX_DEVIATION,
    SCALE,
    MatchOutcome,
    Rating,
    deviation_impact,
    display,
    expected_score,
    is_provisional,
    match_results,
    new_volatility,
    period_terms,
    rate,
    rate_match,
    rating_changes,
    ratings_replay,
    to_glicko2_scale,
)

PAPER_PLAYER = Rating(rating=1500, deviation=200, volatility=0.06)
PAPER_OPPONENTS = (
    Rating(rating=1400, deviation=30),
    Rating(rating=1550, deviation=100),
    Rating(rating=1700, deviation=300),
)
PAPER_RESULTS = list(zip(PAPER_OPPONENTS, (1.0, 0.0, 0.0), strict=True))


def test_the_papers_example_gives_the_papers_new_rating():
    after = rate(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)

    mu, phi = to_glicko2_scale(after)
    assert mu == pytest.approx(-0.2069, abs=0.00005)
    assert phi == pytest.approx(0.8722, abs=0.00005)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_step_2_conversions():
    assert to_glicko2_scale(PAPER_PLAYER) == (0.0, pytest.approx(1.1513, abs=0.00005))
    converted = [to_glicko2_scale(opponent) for opponent in PAPER_OPPONENTS]
    assert [round(mu, 4) for mu, _ in converted] == [-0.5756, 0.2878, 1.1513]
    assert [round(phi, 4) for _, phi in converted] == [0.1727, 0.5756, 1.7269]


def test_the_papers_table_of_g_and_e():
    converted = [to_glicko2_scale(opponent) for opponent in PAPER_OPPONENTS]
    assert [round(deviation_impact(phi), 4) for _, phi in converted] == [0.9955, 0.9531, 0.7242]
    expected = [
        round(expected_score(mu=0.0, opponent_mu=mu, opponent_phi=phi), 3) for mu, phi in converted
    ]
    assert expected == [0.639, 0.432, 0.303]


def test_the_papers_v_and_delta_up_to_its_rounded_intermediates():
    terms = period_terms(PAPER_PLAYER, PAPER_RESULTS)
    assert terms.variance == pytest.approx(1.7785, abs=0.001)
    assert terms.improvement == pytest.approx(-0.4834, abs=0.001)
    assert terms.improvement == terms.variance * terms.score_sum


def test_the_papers_step_5_from_its_own_inputs():
    sigma = new_volatility(
        volatility=0.06, phi=1.1513, variance=1.7785, improvement=-0.4834, tau=0.5
    )
    assert sigma == pytest.approx(0.05999, abs=0.00001)
    # phi* of step 6, as printed.
    assert math.sqrt(1.1513**2 + sigma**2) == pytest.approx(1.152862, abs=0.0000005)


def test_no_games_grows_the_deviation_by_the_volatility_and_moves_nothing_else():
    after = rate(PAPER_PLAYER, [])
    assert after.rating == PAPER_PLAYER.rating
    assert after.volatility == PAPER_PLAYER.volatility
    assert after.deviation == pytest.approx(math.hypot(200, 0.06 * SCALE), rel=1e-12)
    assert after.deviation > PAPER_PLAYER.deviation


def test_no_games_never_passes_a_new_players_deviation():
    assert rate(Rating(), []) == Rating()
    assert rate(Rating(deviation=349.99), []).deviation == MAX_DEVIATION == DEFAULT_DEVIATION


@pytest.mark.parametrize(("score", "moves"), [(1.0, 1), (0.0, -1)])
def test_a_win_against_an_equal_raises_and_a_loss_lowers(score, moves):
    player = Rating(rating=1620, deviation=80, volatility=0.06)
    after = rate(player, [(player, score)])
    assert math.copysign(1, after.rating - player.rating) == moves
    assert after.deviation < player.deviation


def test_a_draw_between_equals_leaves_them_equal_and_where_they_were():
    equal = Rating(rating=1620, deviation=80, volatility=0.06)
    after = rate_match({"ann": 1, "bob": 1}, ratings={"ann": equal, "bob": equal})
    assert after["ann"] == after["bob"]
    assert after["ann"].rating == pytest.approx(1620, abs=1e-9)


def test_a_duel_between_equals_moves_both_by_the_same_amount():
    after = rate_match({"ann": 1, "bob": 2}, ratings={})
    assert after["ann"].rating - 1500 == pytest.approx(1500 - after["bob"].rating, abs=1e-9)
    assert after["ann"].rating > 1500 > after["bob"].rating
    assert after["ann"].deviation == after["bob"].deviation < 350


def test_the_order_of_a_periods_games_changes_not_a_bit():
    player = Rating(rating=1580, deviation=120, volatility=0.07)
    forward = rate(player, PAPER_RESULTS)
    assert rate(player, PAPER_RESULTS[::-1]) == forward
    assert rate(player, [PAPER_RESULTS[1], PAPER_RESULTS[2], PAPER_RESULTS[0]]) == forward


def test_a_four_player_sprint_is_three_games_for_each_player():
    ratings = {"ann": Rating(rating=1600), "bob": Rating(rating=1450, deviation=90)}
    unrated = Rating()
    placements = {"ann": 1, "bob": 2, "cid": 2, "dee": 4}

    results = match_results(placements, ratings=ratings)

    assert results == {
        "ann": [(ratings["bob"], 1.0), (unrated, 1.0), (unrated, 1.0)],
        "bob": [(ratings["ann"], 0.0), (unrated, 0.5), (unrated, 1.0)],
        "cid": [(ratings["ann"], 0.0), (ratings["bob"], 0.5), (unrated, 1.0)],
        "dee": [(ratings["ann"], 0.0), (ratings["bob"], 0.0), (unrated, 0.0)],
    }


def test_every_player_of_a_match_is_rated_against_the_others_ratings_from_before_it():
    ratings = {"ann": Rating(rating=1600), "bob": Rating(rating=1450, deviation=90)}
    placements = {"ann": 1, "bob": 2, "cid": 3}
    after = rate_match(placements, ratings=ratings)
    assert after["cid"] == rate(Rating(), [(ratings["ann"], 0.0), (ratings["bob"], 0.0)])
    assert after["bob"] == rate(ratings["bob"], [(ratings["ann"], 0.0), (Rating(), 1.0)])


def test_a_match_of_one_player_is_refused():
    with pytest.raises(ValueError, match="at least two players"):
        match_results({"ann": 1}, ratings={})


MATCHES = [
    MatchOutcome(placements={"ann": 1, "bob": 2}),
    MatchOutcome(placements={"ann": 2, "bob": 1, "cid": 3, "dee": 3}),
    MatchOutcome(placements={"cid": 1, "dee": 2}),
    MatchOutcome(placements={"bob": 1, "dee": 1}),
]


def test_a_replay_gives_the_same_numbers_bit_for_bit():
    first = ratings_replay(MATCHES)
    again = ratings_replay(list(MATCHES))
    assert first == again
    assert [(r.rating, r.deviation, r.volatility) for r in first.values()] == [
        (r.rating, r.deviation, r.volatility) for r in again.values()
    ]
    # The order a match lists its players in (a query's, say) changes nothing either.
    shuffled = [MatchOutcome(placements=dict(reversed(m.placements.items()))) for m in MATCHES]
    assert ratings_replay(shuffled) == first


def test_a_replay_is_the_matches_rated_one_after_the_other():
    ratings: dict[str, Rating] = {}
    for match in MATCHES:
        ratings |= rate_match(match.placements, ratings=ratings)
    assert ratings_replay(MATCHES) == ratings


def test_the_history_has_each_players_rating_before_and_after_each_of_its_matches():
    changes = list(rating_changes(MATCHES))

    assert [(c.match_index, c.player) for c in changes] == [
        (0, "ann"),
        (0, "bob"),
        (1, "ann"),
        (1, "bob"),
        (1, "cid"),
        (1, "dee"),
        (2, "cid"),
        (2, "dee"),
        (3, "bob"),
        (3, "dee"),
    ]
    last: dict[str, Rating] = {}
    for change in changes:
        assert change.before == last.get(change.player, Rating())
        last[change.player] = change.after
    assert last == ratings_replay(MATCHES)


def test_an_empty_replay_rates_nobody():
    assert ratings_replay([]) == {}


@pytest.mark.parametrize(
    ("deviation", "provisional"), [(350, True), (110, True), (109.99, False), (45, False)]
)
def test_a_rating_is_provisional_while_its_deviation_is_110_or_more(deviation, provisional):
    assert is_provisional(Rating(deviation=deviation)) is provisional


def test_display_rounds_and_marks_a_provisional_rating():
    assert display(Rating()) == "1500?"
    assert display(Rating(rating=1464.4, deviation=60)) == "1464"
    assert display(Rating(rating=1464.6, deviation=151.52)) == "1465?"
    assert Rating(deviation=151.52).rounded_deviation == 152


ratings_strategy = st.builds(
    Rating,
    rating=st.floats(min_value=0, max_value=4000),
    deviation=st.floats(min_value=30, max_value=350),
    volatility=st.floats(min_value=0.01, max_value=0.2),
)
scores = st.sampled_from([0.0, 0.5, 1.0])


def assert_sane(rating: Rating) -> None:
    assert math.isfinite(rating.rating)
    assert 0 < rating.deviation <= MAX_DEVIATION
    assert rating.volatility > 0


@given(
    player=ratings_strategy,
    results=st.lists(st.tuples(ratings_strategy, scores), max_size=12),
    tau=st.floats(min_value=0.3, max_value=1.2),
)
def test_a_period_keeps_a_rating_sane(player, results, tau):
    assert_sane(rate(player, results, tau=tau))


@given(
    matches=st.lists(
        st.dictionaries(
            st.sampled_from("abcdef"), st.integers(min_value=1, max_value=4), min_size=2, max_size=4
        ),
        max_size=25,
    )
)
def test_any_replay_keeps_every_rating_sane(matches):
    outcomes = [MatchOutcome(placements=placements) for placements in matches]
    final = ratings_replay(outcomes)
    for rating in final.values():
        assert_sane(rating)
    assert ratings_replay(outcomes) == final
