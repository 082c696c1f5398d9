"""The hooks the platform reads from every variant: final score, clock and ranking."""

import dataclasses

import pytest

from games.engine import get_variant, shuffled_deck

SPIKE = get_variant("spike")


def spike_deal(mode: str):
    return SPIKE.deal(shuffled_deck("hooks"), {"mode": mode})


def test_by_default_the_final_score_is_the_score_and_there_is_no_clock():
    klondike = get_variant("klondike")
    state = klondike.deal(shuffled_deck("hooks"))
    assert klondike.final_score(state, 500) == klondike.score(state)
    assert klondike.time_limit_seconds(state) is None
    assert klondike.is_ranked({})


@pytest.mark.parametrize(
    ("mode", "deducted"), [("classic", 200), ("time_attack", 200), ("relaxed", 0)]
)
def test_spike_takes_two_points_a_second_except_in_relaxed(mode, deducted):
    state = dataclasses.replace(spike_deal(mode), score=1000)
    assert SPIKE.final_score(state, 100) == 1000 - deducted


def test_only_time_attack_has_a_clock_and_its_bonus_extends_it():
    assert SPIKE.time_limit_seconds(spike_deal("classic")) is None
    assert SPIKE.time_limit_seconds(spike_deal("relaxed")) is None
    attack = spike_deal("time_attack")
    assert SPIKE.time_limit_seconds(attack) == 120
    assert SPIKE.time_limit_seconds(dataclasses.replace(attack, time_bonus_seconds=6)) == 126


def test_relaxed_spike_is_not_ranked():
    assert SPIKE.is_ranked({"mode": "classic"})
    assert SPIKE.is_ranked({"mode": "time_attack"})
    assert SPIKE.is_ranked({})
    assert not SPIKE.is_ranked({"mode": "relaxed"})
