"""Formatting for the figures on player pages."""

from django import template

register = template.Library()

EMPTY = "\N{EN DASH}"


@register.filter
def minutes_seconds(seconds: int | str | None) -> str:
    """125 -> "2:05"; no figure -> a dash. Minutes are not folded into hours."""
    if seconds is None or seconds == "":
        return EMPTY
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


@register.filter
def percentage(rate: float | str | None) -> str:
    """0.5 -> "50%", 1/3 -> "33%"."""
    if rate is None or rate == "":
        return EMPTY
    return f"{round(float(rate) * 100)}%"


@register.filter
def figure(value: int | None) -> str:
    """A number, or a dash when there is none yet."""
    return EMPTY if value is None else str(value)
