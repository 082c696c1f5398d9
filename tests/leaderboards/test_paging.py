"""What every leaderboard page shares: clamped page numbers and ranks shared by equal
keys."""

from leaderboards.paging import page_number, shared_ranks


def test_equal_keys_share_a_rank_and_the_next_counts_every_row_before_it() -> None:
    assert shared_ranks([9, 9, 7, 5, 5, 5, 1]) == [1, 1, 3, 4, 4, 4, 7]
    assert shared_ranks([]) == []


def test_a_page_out_of_range_is_clamped_and_an_empty_board_has_one_page() -> None:
    assert page_number(1, 0, 50) == (1, 1)
    assert page_number(0, 120, 50) == (1, 3)
    assert page_number(9, 120, 50) == (3, 3)
    assert page_number(2, 100, 50) == (2, 2)


def test_a_cut_holds_its_page_and_finds_the_viewer_on_another() -> None:
    from dataclasses import dataclass

    from leaderboards.paging import page_cut

    @dataclass(frozen=True)
    class Row:
        name: int
        is_viewer: bool

    rows = [Row(name=n, is_viewer=n == 7) for n in range(12)]
    cut = page_cut(rows, 1, 5)
    assert [row.name for row in cut.rows] == [0, 1, 2, 3, 4]
    assert (cut.number, cut.num_pages, cut.total) == (1, 3, 12)
    assert cut.viewer_row == rows[7]
    assert [row.name for row in page_cut(rows, 9, 5).rows] == [10, 11]
    assert page_cut([], 1, 5).viewer_row is None
