"""What every leaderboard page shares (a deal's, a month of challenges', a Codex
scenario's): its number among its pages, whether the viewer's row is on it, and ranks
shared by equal rank keys."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class ViewerRow(Protocol):
    @property
    def is_viewer(self) -> bool: ...


RowT = TypeVar("RowT", bound=ViewerRow)


class PageOfRanks:
    """Mixed into a leaderboard page's dataclass, which holds these three."""

    rows: Sequence[ViewerRow]
    number: int
    num_pages: int

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def viewer_on_page(self) -> bool:
        return any(row.is_viewer for row in self.rows)


def page_number(requested: int, total: int, size: int) -> tuple[int, int]:
    """The page to show, clamped into the pages `total` rows make, and their count."""
    num_pages = max(1, -(-total // size))
    return min(max(1, requested), num_pages), num_pages


def shared_ranks(keys: Sequence[int]) -> list[int]:
    """The rank of each of the keys, sorted best first: equal keys share a rank, and
    the next rank counts every row before it (1, 1, 3)."""
    ranks: list[int] = []
    for position, key in enumerate(keys):
        shared = position > 0 and key == keys[position - 1]
        ranks.append(ranks[-1] if shared else position + 1)
    return ranks


@dataclass(frozen=True)
class PageCut(Generic[RowT]):
    rows: list[RowT]
    number: int
    num_pages: int
    total: int
    viewer_row: RowT | None


def page_cut(rows: Sequence[RowT], requested: int, size: int) -> PageCut[RowT]:
    """The requested page of a whole ranked list, clamped, with the viewer's row found
    wherever it stands."""
    number, num_pages = page_number(requested, len(rows), size)
    return PageCut(
        rows=list(rows[(number - 1) * size : number * size]),
        number=number,
        num_pages=num_pages,
        total=len(rows),
        viewer_row=next((row for row in rows if row.is_viewer), None),
    )
