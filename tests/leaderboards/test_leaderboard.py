"""A daily deal's leaderboard through leaderboard_for_deal, on both paths."""

import random

import pytest

from leaderboards import selectors, services
from leaderboards.selectors import PAGE_SIZE
from tests.leaderboards.helpers import Figures, deal_of, insert_results

pytestmark = pytest.mark.django_db


def board(deal, source, **kwargs):
    if source == "redis":
        services.leaderboard_rebuild(deal_id=deal.id)
    page = selectors.leaderboard_for_deal(deal=deal, **kwargs)
    assert page.source == source
    return page


def ranks(page):
    return [(row.rank, row.username) for row in page.rows]


def test_klondike_family_ties_are_broken_as_stated(source):
    deal = deal_of("klondike")
    names = ["slow", "lost", "best", "faster", "fewer", "equal"]
    insert_results(
        deal,
        [
            Figures(won=True, score=100, elapsed_ms=100_000, move_count=100),
            Figures(won=False, score=5_000, elapsed_ms=10_000, move_count=10),
            Figures(won=True, score=200, elapsed_ms=300_000, move_count=300),
            Figures(won=True, score=100, elapsed_ms=90_000, move_count=200),
            Figures(won=True, score=100, elapsed_ms=100_000, move_count=90),
            Figures(won=True, score=100, elapsed_ms=100_999, move_count=100),
        ],
    )
    page = board(deal, source)
    name = {f"p{i:04d}": n for i, n in enumerate(names)}
    got = [(rank, name[user]) for rank, user in ranks(page)]
    # Won before lost; higher score; then less time; then fewer moves; equal
    # figures (time counts in whole seconds) share a rank and the next skips.
    assert got[:3] == [(1, "best"), (2, "faster"), (3, "fewer")]
    assert sorted(got[3:5]) == [(4, "equal"), (4, "slow")]
    assert got[5] == (6, "lost")
    assert page.total == 6


@pytest.mark.parametrize("variant", ["kingsley", "spiderette"])
def test_the_other_klondike_family_games_rank_won_first(source, variant):
    deal = deal_of(variant)
    insert_results(deal, [Figures(won=False, score=52), Figures(won=True, score=10)])
    assert ranks(board(deal, source)) == [(1, "p0001"), (2, "p0000")]


def test_spike_ranks_by_final_score_then_less_time(source):
    deal = deal_of("spike")
    insert_results(
        deal,
        [
            Figures(won=True, score=900, elapsed_ms=60_000),
            Figures(won=False, score=1_000, elapsed_ms=300_000),
            Figures(won=False, score=900, elapsed_ms=50_000, move_count=999),
            Figures(won=True, score=-20, elapsed_ms=1_000),
            Figures(won=False, score=900, elapsed_ms=50_000, move_count=1),
        ],
    )
    got = ranks(board(deal, source))
    assert got[0] == (1, "p0001")
    assert sorted(got[1:3]) == [(2, "p0002"), (2, "p0004")]  # won and moves do not count
    assert got[3:] == [(4, "p0000"), (5, "p0003")]


def test_pages_of_fifty_rank_across_page_boundaries(source):
    deal = deal_of("klondike")
    # 120 results: ten ties of twelve; ranks 1, 13, 25, ... carry over pages.
    insert_results(deal, [Figures(won=True, score=1_000 - i // 12) for i in range(120)])
    first = board(deal, source)
    second = selectors.leaderboard_for_deal(deal=deal, page=2)
    third = selectors.leaderboard_for_deal(deal=deal, page=3)
    assert (first.num_pages, first.total) == (3, 120)
    assert [len(p.rows) for p in (first, second, third)] == [PAGE_SIZE, PAGE_SIZE, 20]
    expected = [1 + 12 * (i // 12) for i in range(120)]
    assert [r.rank for p in (first, second, third) for r in p.rows] == expected
    assert second.rows[0].rank == 49  # the tie that began on page one
    assert (first.has_previous, first.has_next, third.has_next) == (False, True, False)


def test_a_page_past_the_end_shows_the_last_and_an_empty_deal_one_empty_page(source):
    deal = deal_of("klondike")
    services.leaderboard_rebuild(deal_id=deal.id)
    empty = selectors.leaderboard_for_deal(deal=deal)
    assert (empty.rows, empty.total, empty.number, empty.num_pages) == ([], 0, 1, 1)
    insert_results(deal, [Figures(score=i) for i in range(3)])
    page = board(deal, source, page=99)
    assert (page.number, page.num_pages, len(page.rows)) == (1, 1, 3)


def test_the_viewers_row_shows_even_outside_the_top_fifty(source):
    deal = deal_of("klondike")
    results = insert_results(deal, [Figures(score=1_000 - i) for i in range(70)])
    viewer = results[64].player
    page = board(deal, source, viewer=viewer)
    assert not page.viewer_on_page
    assert page.viewer_row is not None
    assert (page.viewer_row.rank, page.viewer_row.username) == (65, viewer.username)
    assert page.viewer_row.score == 1_000 - 64
    second = selectors.leaderboard_for_deal(deal=deal, page=2, viewer=viewer)
    assert second.viewer_on_page
    assert [r.username for r in second.rows if r.is_viewer] == [viewer.username]


def test_a_viewer_without_a_result_has_no_row(source, make_user):
    deal = deal_of("klondike")
    insert_results(deal, [Figures(score=5)])
    page = board(deal, source, viewer=make_user("nobody"))
    assert page.viewer_row is None
    assert not any(row.is_viewer for row in page.rows)


def test_player_rank_matches_the_board(source):
    deal = deal_of("klondike")
    results = insert_results(deal, [Figures(score=100 - i // 2) for i in range(10)])
    board(deal, source)
    assert [selectors.player_rank(deal=deal, player=r.player) for r in results] == [
        1, 1, 3, 3, 5, 5, 7, 7, 9, 9,
    ]  # fmt: skip


def test_time_is_shown_in_whole_seconds(source):
    deal = deal_of("klondike")
    insert_results(deal, [Figures(elapsed_ms=125_999, move_count=42, score=7, won=True)])
    row = board(deal, source).rows[0]
    assert (row.elapsed_seconds, row.move_count, row.score, row.won) == (125, 42, 7, True)


def test_pages_in_the_lower_half_come_in_the_same_order(source):
    deal = deal_of("klondike")
    results = insert_results(deal, [Figures(score=i % 7, move_count=i % 3) for i in range(137)])
    board(deal, source)
    pages = [selectors.leaderboard_for_deal(deal=deal, page=n) for n in (1, 2, 3)]
    shown = [row.username for page in pages for row in page.rows]
    expected = sorted(results, key=lambda r: (-r.rank_key, -r.player_id))
    assert shown == [r.player.username for r in expected]


@pytest.mark.parametrize("probe", [1, 2, 5, 1_000])
def test_ranks_from_the_histogram_agree_with_a_plain_count(monkeypatch, probe):
    """Random boards, with buckets of one score large and small: the histogram's rank
    (and each of its probes within a bucket) equals a count of the better results."""
    monkeypatch.setattr(selectors, "RANK_PROBE", probe)
    chooser = random.Random(probe)
    deal = deal_of("klondike")
    figures = [
        Figures(
            won=chooser.random() < 0.3,
            score=chooser.choice([0, 0, 0, 5, chooser.randint(-50, 50)]),
            elapsed_ms=chooser.randint(1, 40) * 1000,
            move_count=chooser.randint(1, 5),
        )
        for _ in range(120)
    ]
    results = insert_results(deal, figures)
    keys = sorted({r.rank_key for r in results})
    for key in [keys[0] - 1, *keys, keys[-1] + 1]:
        plain = sum(r.rank_key > key for r in results)
        assert selectors._count_better(deal, key) == plain
    assert selectors._total(deal) == len(results)
