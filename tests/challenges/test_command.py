"""manage.py challenges_make: a day's challenges made in this process, once."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from challenges.models import Challenge

pytestmark = pytest.mark.django_db


def test_the_command_makes_a_days_challenges_once_and_says_what_they_ask() -> None:
    out = StringIO()
    call_command("challenges_make", "--day", "2026-12-02", "--game", "spike", stdout=out)
    assert Challenge.objects.filter(variant="spike").count() == 3
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("2026-12-02 spike easy: ")
    assert "proved in" in lines[0]
    call_command("challenges_make", "--day", "2026-12-02", "--game", "spike", stdout=StringIO())
    assert Challenge.objects.count() == 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--day", "2026-13-01"], "--day: month must be in 1..12"),
        (["--game", "chess"], "No daily challenges for chess"),
    ],
)
def test_bad_arguments_are_refused_and_change_nothing(arguments, message) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("challenges_make", *arguments, stdout=StringIO())
    assert not Challenge.objects.exists()
