"""The challenges' pages: the day's list, playing, the calendar and the thresholds,
and the monthly leaderboard."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from challenges.models import Challenge, Completion
from challenges.services import challenge_games
from games.engine import get_variant
from games.models import Game
from games.specs import game_keys

from .conftest import DAY, play_line
from .pages import page as parse

pytestmark = pytest.mark.django_db

HOME = reverse("challenges:home")
TWO_ACES = {"kind": "foundation_rank", "rank": "A", "count": 2}


def play_url(challenge: Challenge) -> str:
    return reverse("challenges:play", kwargs={"challenge_id": challenge.id})


def complete(challenge: Challenge, player, client: Client) -> Game:
    """Meet the challenge's goal by playing its proof line through the Play button."""
    client.force_login(player)
    client.post(play_url(challenge))
    game = Game.objects.get(player=player, track_ref=challenge.track_ref)
    play_line(game=game, player=player, line=challenge.proof_line)
    return game


def test_the_page_lists_todays_fifteen_for_anyone(client, player_client, full_day, clock):
    full_day()
    for visitor in (Client(), player_client):
        response = visitor.get(HOME)
        assert response.status_code == 200
        page = parse(response.content)
        rows = page.select("tr[data-challenge]")
        assert len(rows) == 15
        assert [h2.text for h2 in page.select("#day h2")] == [
            get_variant(key).name for key in game_keys() if key in challenge_games()
        ]
        assert page.select_one("#making") is None
    first = rows[0]
    assert first.select_one(".goal-words").text == "Win the deal"
    assert [row.select_one("td").text for row in rows[:3]] == ["Easy", "Medium", "Hard"]
    assert [row.select_one(".stars")["aria-label"] for row in rows[:3]] == [
        "1 star",
        "2 stars",
        "3 stars",
    ]
    assert first.select_one(".stars").text == "★"
    # The player's page has a Play form per challenge; the visitor's a login link.
    form = first.select_one("form")
    assert form["method"] == "post"
    assert form["action"] == form["hx-post"]
    anonymous = parse(Client().get(HOME).content)
    assert anonymous.select("tr[data-challenge] form") == []
    assert "Log in to play" in anonymous.select_one("tr[data-challenge]").text
    shown = [li.text for li in anonymous.select(".thresholds li")]
    assert shown == [
        "Bronze : 30 stars",
        "Silver : 120 stars",
        "Gold : 300 stars",
        "Perfect : every challenge of the month",
    ]
    assert "worth 30 stars so far" in anonymous.select_one("#month-stars").text


def test_a_completed_challenge_is_done_on_the_list_and_the_calendar(
    client, player, make_challenge, clock
):
    easy = make_challenge(goal=TWO_ACES)
    make_challenge(variant="spike", difficulty=Challenge.Difficulty.MEDIUM)
    complete(easy, player, client)
    assert Completion.objects.filter(player=player, challenge=easy).exists()
    page = parse(client.get(HOME).content)
    row = page.select_one(f"#challenge-{easy.id}")
    assert "done" in row.classes
    assert "Done" in row.text
    assert "Play again" in row.select_one("button").text
    cell = page.select_one(f'td[data-day="{DAY.isoformat()}"]')
    assert cell.select_one(".day-count").text == "1/2 · 1★"
    assert "played" in cell.classes
    assert "today" in cell.classes
    assert page.select_one("#month-stars strong").text == "1"
    assert "of 3 so far" in page.select_one("#month-stars").text
    thresholds = {li["data-badge"]: li for li in page.select(".thresholds li")}
    assert "29 stars to go" in thresholds["bronze"].text
    assert "119 stars to go" in thresholds["silver"].text
    assert "299 stars to go" in thresholds["gold"].text
    assert "1 of 2 done so far" in thresholds["perfect"].text
    assert not any("reached" in li.classes for li in thresholds.values())


def test_a_threshold_reached_is_said_so(client, player, make_challenge, clock):
    easy = make_challenge(goal=TWO_ACES)
    complete(easy, player, client)
    Completion.objects.filter(player=player).update(stars=30)
    page = parse(client.get(HOME).content)
    bronze = page.select_one('.thresholds li[data-badge="bronze"]')
    assert "reached" in bronze.classes
    assert "reached" in bronze.text
    assert "90 stars to go" in page.select_one('.thresholds li[data-badge="silver"]').text


def test_an_earlier_day_of_the_month_is_shown_and_playable(
    player_client, player, make_challenge, clock
):
    earlier = make_challenge(goal=TWO_ACES, day=DAY - timedelta(days=1))
    response = player_client.get(HOME, {"day": "2026-12-01"})
    page = parse(response.content)
    assert page.select_one("h1").text == "Daily challenges of 1 December 2026"
    assert page.select_one("#practice") is None
    assert page.select_one(f"#challenge-{earlier.id} form") is not None
    assert player_client.post(play_url(earlier)).status_code == 302
    assert Game.objects.filter(player=player, track_ref=earlier.track_ref).exists()


def test_a_day_of_an_earlier_month_is_practice(player_client, make_challenge, clock):
    old = make_challenge(goal=TWO_ACES, day=date(2026, 11, 20))
    page = parse(player_client.get(HOME, {"day": "2026-11-20"}).content)
    assert "stars only count within the challenge's month" in page.select_one("#practice").text
    assert page.select_one(f"#challenge-{old.id} form") is not None
    assert page.select_one("#calendar h2").text == "November 2026"


def test_a_later_day_is_not_found_and_an_unreadable_one_is_today(player_client, clock):
    assert player_client.get(HOME, {"day": "2026-12-03"}).status_code == 404
    page = parse(player_client.get(HOME, {"day": "2026-13-40"}).content)
    assert page.select_one("h1").text == "Daily challenges of 2 December 2026"


def test_while_todays_challenges_are_made_the_list_polls(client, make_challenge, clock):
    make_challenge(goal=TWO_ACES)
    response = client.get(HOME)
    page = parse(response.content)
    assert "being proved by the solver" in page.select_one("#making").text
    day = page.select_one("#day")
    assert day["hx-trigger"] == "every 3s"
    assert day["hx-get"] == HOME
    partial = client.get(HOME, HTTP_HX_REQUEST="true").content.decode()
    assert partial.strip().startswith('<div id="day"')
    assert "<html" not in partial


def test_play_deals_the_challenge_and_resumes_it(player_client, player, make_challenge, clock):
    challenge = make_challenge(goal=TWO_ACES)
    first = player_client.post(play_url(challenge))
    game = Game.objects.get(player=player)
    assert first.status_code == 302
    assert first["Location"] == reverse("games:detail", kwargs={"game_id": game.id})
    assert (game.track, game.track_ref, game.goal) == (
        Game.Track.CHALLENGE,
        challenge.track_ref,
        TWO_ACES,
    )
    second = player_client.post(play_url(challenge), HTTP_HX_REQUEST="true")
    # From the challenges page, which has no board to replace: a page load (HX-Redirect).
    assert second.status_code == 200
    assert second["HX-Redirect"] == reverse("games:detail", kwargs={"game_id": game.id})
    assert Game.objects.filter(player=player).count() == 1


def test_play_of_a_later_challenge_is_refused_with_the_reason(player_client, make_challenge, clock):
    later = make_challenge(goal=TWO_ACES, day=DAY + timedelta(days=1))
    response = player_client.post(play_url(later))
    assert response.status_code == 409
    page = parse(response.content)
    assert page.select_one("#challenge-refused").text == (
        "This challenge opens on 03 December 2026 (UTC)."
    )
    hx = player_client.post(play_url(later), HTTP_HX_REQUEST="true")
    assert hx.status_code == 409
    assert hx.content.decode().strip().startswith('<p class="alert"')
    assert not Game.objects.exists()


def test_play_of_no_challenge_is_not_found_and_needs_a_login(client, player_client, clock):
    nowhere = reverse("challenges:play", kwargs={"challenge_id": 999})
    assert player_client.post(nowhere).status_code == 404
    assert player_client.get(nowhere).status_code == 405
    anonymous = Client().post(nowhere)
    assert anonymous.status_code == 302
    assert "login" in anonymous["Location"]


def test_play_without_the_csrf_token_is_refused(player, make_challenge, clock):
    challenge = make_challenge(goal=TWO_ACES)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(play_url(challenge)).status_code == 403
    assert not Game.objects.exists()


def test_the_nav_links_the_challenges(player_client, clock):
    page = parse(player_client.get(HOME).content)
    assert page.select_one(f'nav[aria-label="Main"] a[href="{HOME}"]').text == "Challenges"


LEADERBOARD = reverse("challenges:leaderboard")


def completion(challenge, player, *, stars, at):
    return Completion.objects.create(
        challenge=challenge,
        player=player,
        stars=stars,
        month=date(2026, 12, 1),
        completed_at=at,
    )


def ranked_month(make_user, make_challenge):
    """December 2026's easy and hard challenges, completed so that ann and cat tie on 4
    stars (cat's last star first), bob has 4 later, dan 1; eve's 3 are November's."""
    easy = make_challenge(goal=TWO_ACES)
    hard = make_challenge(variant="spike", difficulty=Challenge.Difficulty.HARD)
    noon = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    ann, bob, cat, dan = (make_user(name) for name in ("ann", "bob", "cat", "dan"))
    completion(easy, bob, stars=1, at=noon)
    completion(hard, bob, stars=3, at=noon + timedelta(hours=2))
    completion(hard, ann, stars=3, at=noon + timedelta(hours=1))
    completion(easy, ann, stars=1, at=noon)
    completion(hard, cat, stars=3, at=noon + timedelta(hours=1))
    completion(easy, cat, stars=1, at=noon - timedelta(hours=1))
    completion(easy, dan, stars=1, at=noon)
    # Last month's stars are another board's.
    Completion.objects.create(
        challenge=easy, player=make_user("eve"), stars=3, month=date(2026, 11, 1), completed_at=noon
    )
    return easy, hard


def test_the_leaderboard_ranks_stars_then_the_earlier_last_star(
    client, make_user, make_challenge, clock
):
    ranked_month(make_user, make_challenge)
    client.force_login(User.objects.get(username="cat"))
    page = parse(client.get(LEADERBOARD).content)
    rows = [[td.text for td in tr.select("td")][:3] for tr in page.select("#ranks tbody tr")]
    assert rows == [
        ["1", "ann", "4"],
        ["1", "cat", "4"],
        ["3", "bob", "4"],
        ["4", "dan", "1"],
    ]
    mine = page.select_one("#ranks tr.me")
    assert mine["aria-current"] == "true"
    assert mine.select("td")[1].text == "cat"
    november = parse(client.get(LEADERBOARD, {"month": "2026-11"}).content)
    assert [tr.select("td")[1].text for tr in november.select("#ranks tbody tr")] == ["eve"]


def test_the_leaderboard_pages_by_fifty_and_shows_the_viewers_place(
    client, make_user, make_challenge, clock
):
    easy = make_challenge(goal=TWO_ACES)
    start = datetime(2026, 12, 1, tzinfo=UTC)
    players = [make_user(f"p{index:02}") for index in range(51)]
    for index, someone in enumerate(players):
        completion(easy, someone, stars=1, at=start + timedelta(minutes=index))
    client.force_login(players[-1])
    first = parse(client.get(LEADERBOARD).content)
    assert len(first.select("#ranks tbody tr")) == 50
    assert first.select_one("#your-rank").text.strip() == "Your place: #51 with 1 star."
    second = client.get(LEADERBOARD, {"page": "2"}, HTTP_HX_REQUEST="true").content.decode()
    assert second.strip().startswith('<div id="ranks"')
    last = parse(second)
    assert [td.text for td in last.select("tbody tr td")][:2] == ["51", "p50"]
    assert last.select_one("tr.me") is not None
    assert Client().get(LEADERBOARD, {"page": "x"}).status_code == 200
