"""The review's hold on a game, in words, for the templates (games.holds)."""

from django import template

from games import holds

register = template.Library()


@register.filter
def hold_label(hold: str) -> str:
    return holds.hold_label(hold)


@register.filter
def hold_note(hold: str) -> str:
    return holds.hold_note(hold)
