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
