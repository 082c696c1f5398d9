"""Reading what a request carries in its query string and path: the one place
where the views turn text into the values they use.

Every reader here either returns a value it could read, its default, or raises
`BadParameter` (Django answers 400), and nothing else: no int(), date() or
database lookup behind it can fail on the way. Two rules decide which:

- A navigation value that a link or a person may get wrong (a page number, a
  month, a card selection, a filter) falls back to its default when it cannot be
  read, and to the nearest bound when it is readable but out of range.
- Text that names something and can name nothing (a username with NUL in it,
  which PostgreSQL cannot even compare) is refused with `BadParameter`.

Numbers are ASCII digits only: "²".isdigit() is true but int("²") fails, and
"٣" is a digit to int() but not one a link of the site writes.
"""

import re
from collections.abc import Collection
from datetime import date
from typing import TypeVar

from django.core.exceptions import BadRequest
from django.http import QueryDict

T = TypeVar("T")

# No page, step or attempt number of the site comes near this; more digits than
# this are read as "too large" before int() sees them.
MAX_DIGITS = 9
DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)
LONG_DIGITS = re.compile(r"[0-9]+", re.ASCII)
YEAR_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})", re.ASCII)
ISO_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)
# A card selection: a place (t3, w, fS, r1) and how many cards from its top.
SELECTION = re.compile(r"([a-z][A-Za-z0-9]{0,2})(?:/([0-9]{1,3}))?", re.ASCII)
# Before any daily deal the site can have: the first month a calendar shows.
EARLIEST_MONTH = date(2000, 1, 1)


class BadParameter(BadRequest):
    """A value of the request that cannot be read: the answer is 400."""


def integer(query: QueryDict, name: str, *, default: int, minimum: int, maximum: int) -> int:
    """`name` as a whole number of ASCII digits, held within [minimum, maximum];
    the default when it is missing or not such a number."""
    raw = query.get(name)
    if raw is None:
        return default
    if DIGITS.fullmatch(raw):
        return min(max(int(raw), minimum), maximum)
    if LONG_DIGITS.fullmatch(raw):
        return maximum
    return default


def page_number(query: QueryDict, name: str = "page", *, maximum: int = 100_000) -> int:
    """A page number from 1; a page after the last is for the pagination to clamp."""
    return integer(query, name, default=1, minimum=1, maximum=maximum)


def year_month(
    query: QueryDict, name: str = "month", *, latest: date, earliest: date = EARLIEST_MONTH
) -> date | None:
    """The first day of the month written `2025-06`, held within [earliest, latest]
    (both first days of months); None (the caller's "this month") when it cannot
    be read."""
    match = YEAR_MONTH.fullmatch(query.get(name) or "")
    if match is None or not 1 <= int(match[2]) <= 12:
        return None
    # Held as (year, month) before it is a date: year 0 has no date.
    held = max((int(match[1]), int(match[2])), (earliest.year, earliest.month))
    year, month = min(held, (latest.year, latest.month))
    return date(year, month, 1)


def iso_day(raw: str) -> date | None:
    """A day written `2025-06-30` (exactly that form), or None."""
    match = ISO_DAY.fullmatch(raw)
    if match is None:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:  # day 31 of June, month 13, year 0
        return None


def choice(query: QueryDict, name: str, choices: Collection[str], *, default: T) -> str | T:
    """`name` when it is one of `choices`, else the default."""
    raw = query.get(name)
    return raw if raw is not None and raw in choices else default


def selection(raw: str | None) -> tuple[str, int] | None:
    """A card selection `t3/2` (two cards from the top of pile 3), `w` or `w/1`
    as (place, count); None when there is none or it cannot be read."""
    match = SELECTION.fullmatch(raw or "")
    if match is None:
        return None
    count = int(match[2]) if match[2] is not None else 1
    return (match[1], count) if count >= 1 else None


def name(raw: str, *, max_length: int) -> str:
    """Text that names something (a username in a path): refused with
    `BadParameter` when it holds NUL or is longer than any name can be."""
    if "\x00" in raw or len(raw) > max_length:
        raise BadParameter("That name cannot be read.")
    return raw
