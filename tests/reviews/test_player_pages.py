"""What the player sees of a review: "Under review" or "Voided" on the game, in
the history and on the board, and nothing else; no player page or response
holds a flag's text, a note, a figure of the review or a way to the viewer."""

import pytest
from django.urls import reverse

from leaderboards import selectors
from reviews import services
from tests.leaderboards.helpers import deal_of
from tests.reviews.helpers import committed, finished_game, tamper

pytestmark = pytest.mark.django_db

NOTE = "Zebra-note: solver traces in the move timing."


@pytest.fixture
def games(player, reviewer, settings):
    settings.REDIS_URL = ""
    deal = deal_of("klondike")
    flagged = tamper(finished_game(player, moves=12, deal=deal), score=3)
    voided = finished_game(player, moves=10)
    clear = finished_game(player, moves=8)
    with committed():
        for game in (flagged, voided, clear):
            services.game_review(game_id=game.id)
        services.review_void(game_id=voided.id, reviewer=reviewer, note=NOTE)
    return flagged, voided, clear, deal


def player_pages(player, flagged, voided, clear, deal):
    return [
        reverse("home"),
        reverse("games:history"),
        reverse("games:history") + "?page=1",
        reverse("games:detail", args=[flagged.id]),
        reverse("games:detail", args=[voided.id]),
        reverse("games:detail", args=[clear.id]),
        reverse("leaderboards:daily"),
        reverse("leaderboards:deal", args=[deal.date.isoformat(), "klondike"]),
        reverse("leaderboards:period", args=["klondike"]),
        reverse("leaderboards:period", args=["klondike"]) + "?period=all",
        reverse("players:profile", args=[player.username]),
    ]


SECRETS_OF_THE_REVIEW = [
    NOTE,
    "Zebra-note",
    "Replay mismatch",
    "replay_mismatch",
    "stored 3, replayed",
    "score_outlier",
    "implausible",
    "/admin/",
    "replay/",
    "rita",  # the reviewer
]


def test_the_history_shows_the_label_and_nothing_else(games, player_client):
    flagged, voided, clear, _ = games
    html = player_client.get(reverse("games:history")).content.decode()
    rows = {
        game.id: next(row for row in html.split("<tr>") if str(game.id) in row)
        for game in (flagged, voided, clear)
    }
    assert '<span class="tag review-label">Under review</span>' in rows[flagged.id]
    assert '<span class="tag review-label">Voided</span>' in rows[voided.id]
    assert "review-label" not in rows[clear.id]
    assert html.count("review-label") == 2
    partial = player_client.get(reverse("games:history"), HTTP_HX_REQUEST="true")
    assert partial.content.decode().count("review-label") == 2


@pytest.mark.parametrize(
    ("which", "label"), [(0, "Under review"), (1, "Voided"), (2, None)], ids=str
)
def test_the_board_shows_the_label(games, player_client, which, label):
    game = games[which]
    html = player_client.get(reverse("games:detail", args=[game.id])).content.decode()
    if label is None:
        assert "review-label" not in html
    else:
        assert f'<span class="tag review-label" id="review-label">{label}</span>' in html


def test_no_player_page_holds_anything_of_the_review(games, player, player_client):
    for url in player_pages(player, *games):
        response = player_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        for secret in SECRETS_OF_THE_REVIEW:
            assert secret not in html, (url, secret)


def test_other_players_see_no_label_on_the_leaderboards(games, make_user, client):
    client.force_login(make_user("bob"))
    _, _, _, deal = games
    for url in (
        reverse("leaderboards:deal", args=[deal.date.isoformat(), "klondike"]),
        reverse("leaderboards:daily"),
        reverse("players:profile", args=["alice"]),
    ):
        html = client.get(url).content.decode()
        assert "Under review" not in html
        assert NOTE not in html


def test_a_flagged_daily_result_leaves_the_deal_board_but_not_the_history(games, player_client):
    flagged, _, _, deal = games
    assert selectors.leaderboard_for_deal(deal=deal).total == 0
    history = player_client.get(reverse("games:history")).content.decode()
    assert reverse("games:detail", args=[flagged.id]) in history
