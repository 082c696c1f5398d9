"""The live panel's seat rows in the Django templates: the one Jinja2 fragment the
match's pushes carry (matches.live.seat_html)."""

from django import template
from django.utils.safestring import SafeString

from matches.live import seat_html
from matches.selectors import SeatView

register = template.Library()


@register.filter
def live_seat(seat: SeatView) -> SafeString:
    return seat_html(seat)
