"""Page-number pagination, the same on every list of the API: `?page=N` from 1 (a
number past the last page gives the last one, as on the web pages; one that is no
page is refused: api.query) and an envelope
with the count, the page, the number of pages and the links to the neighbours."""

from typing import Any, Protocol

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param

PAGE_PARAMETER = OpenApiParameter(
    "page",
    int,
    description="The page, from 1; past the last page, the last page. Anything else "
    "(abc, 0, -1, digits of another script) is 400 malformed.",
)


VIEWER_ROW_HELP = "Your own row, wherever it is (also off this page); null without one."
"""A leaderboard's `viewer_row` (ranks_envelope)."""


class PageSerializer(serializers.Serializer[Any]):
    """The envelope; each list's subclass adds its `results`."""

    count = serializers.IntegerField(help_text="How many items in all.")
    page = serializers.IntegerField()
    num_pages = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)


def page_envelope(
    request: Request, *, number: int, num_pages: int, count: int, results: list[Any]
) -> dict[str, Any]:
    url = request.build_absolute_uri()
    previous = None
    if number > 1:
        previous = (
            remove_query_param(url, "page")
            if number == 2
            else replace_query_param(url, "page", number - 1)
        )
    return {
        "count": count,
        "page": number,
        "num_pages": num_pages,
        "next": replace_query_param(url, "page", number + 1) if number < num_pages else None,
        "previous": previous,
        "results": results,
    }


class RankedPage(Protocol):
    """A leaderboard's page as the selectors give it (leaderboards.paging.PageCut and
    the boards built on it)."""

    @property
    def rows(self) -> Any: ...
    @property
    def number(self) -> int: ...
    @property
    def num_pages(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def viewer_row(self) -> Any: ...


def ranks_envelope(request: Request, board: RankedPage) -> dict[str, Any]:
    """A leaderboard's page in the envelope, with the viewer's own row wherever it
    stands (null for a visitor or a player not on the board)."""
    body = page_envelope(
        request,
        number=board.number,
        num_pages=board.num_pages,
        count=board.total,
        results=list(board.rows),
    )
    return body | {"viewer_row": board.viewer_row}
