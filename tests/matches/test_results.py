"""How a settled match places its seats: Klondike's highest score, the Sprint's count,
ledger and who got there first."""

from datetime import UTC, datetime, timedelta

from matches.results import SeatResult, placements, sprint_score

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def seat(number, *, score=0, cards=0, reached=None, cleared=False, left=0):
    return SeatResult(
        number=number,
        final_score=score,
        foundation_cards=cards,
        reached_at=reached,
        cleared=cleared,
        seconds_left=left,
    )


def places(ranking, *results):
    return {p.number: p.placement for p in placements(ranking=ranking, results=results)}


def test_klondike_the_highest_score_wins_and_an_equal_score_is_a_draw():
    assert places("highest_score", seat(0, score=40), seat(1, score=55)) == {0: 2, 1: 1}
    assert places("highest_score", seat(0, score=40), seat(1, score=40)) == {0: 1, 1: 1}


def test_sprint_most_cards_on_the_foundations_wins():
    assert places("sprint", seat(0, cards=12, score=400), seat(1, cards=13, score=90)) == {
        0: 2,
        1: 1,
    }


def test_sprint_ties_go_to_the_ledger_then_to_who_got_there_first():
    by_ledger = places("sprint", seat(0, cards=12, score=150), seat(1, cards=12, score=160))
    assert by_ledger == {0: 2, 1: 1}
    first = places(
        "sprint",
        seat(0, cards=12, score=150, reached=T0 + timedelta(seconds=30)),
        seat(1, cards=12, score=150, reached=T0 + timedelta(seconds=20)),
    )
    assert first == {0: 2, 1: 1}
    dead_even = places(
        "sprint", seat(0, cards=12, score=150, reached=T0), seat(1, cards=12, score=150, reached=T0)
    )
    assert dead_even == {0: 1, 1: 1}


def test_a_seat_that_never_scored_a_card_comes_after_one_that_did_at_the_same_count():
    assert places("sprint", seat(0), seat(1)) == {0: 1, 1: 1}
    assert places("sprint", seat(0, cards=0, reached=None), seat(1, cards=0, reached=T0)) == {
        0: 2,
        1: 1,
    }


def test_a_clear_earns_the_ledgers_time_bonus_and_a_seat_that_did_not_clear_none():
    assert sprint_score(seat(0, score=620, cleared=True, left=95)) == 620 + 2 * 9
    assert sprint_score(seat(0, score=300, cleared=False, left=95)) == 300


def test_four_seats_share_placements_where_they_tie():
    result = places(
        "sprint",
        seat(0, cards=20, score=300),
        seat(1, cards=25, score=400),
        seat(2, cards=20, score=300),
        seat(3, cards=3, score=20),
    )
    assert result == {0: 2, 1: 1, 2: 2, 3: 4}
