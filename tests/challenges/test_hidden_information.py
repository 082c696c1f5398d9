"""While a challenge is live, no answer of the challenges' pages holds its seed or a
move of its proof line, and the board of a challenge game shows no hidden card."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from challenges.models import Challenge
from games.models import Game
from tests.games.helpers import hidden_cards, leaked_cards

from .conftest import DAY, play_line

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def secrets_of(challenge: Challenge) -> list[str]:
    """The seed and every move of the proof line, as text and as the line's JSON."""
    moves = [str(move) for move in challenge.proof_line]
    return [
        challenge.seed,
        json.dumps(challenge.proof_line),
        *(f">{move}<" for move in moves),
        *(json.dumps(move) for move in moves),
    ]


def assert_no_secret(html: str, challenges: list[Challenge]) -> None:
    for challenge in challenges:
        for secret in secrets_of(challenge):
            assert secret not in html, (challenge, secret)


def test_no_page_holds_a_live_challenges_seed_or_proof(
    client, make_user, full_day, make_challenge, clock
):
    tomorrow = make_challenge(variant="steps", day=DAY + timedelta(days=1), goal={"kind": "win"})
    challenges = [*full_day(), tomorrow]
    live = [c for c in challenges if c.proof_line]
    finisher = make_user("finisher")
    client.force_login(finisher)
    steps = next(c for c in live if c.variant == "steps" and c.date == DAY)
    client.post(reverse("challenges:play", kwargs={"challenge_id": steps.id}))
    play_line(
        game=Game.objects.get(player=finisher, track_ref=steps.track_ref),
        player=finisher,
        line=steps.proof_line,
    )
    home = reverse("challenges:home")
    pages = [
        (home, {}),
        (home, HX),
        (home + "?day=" + DAY.isoformat(), {}),
        (reverse("challenges:leaderboard"), {}),
        (reverse("challenges:leaderboard"), HX),
    ]
    for challenge in challenges:
        pages.append((reverse("challenges:proof", kwargs={"challenge_id": challenge.id}), {}))
        pages.append(
            (reverse("challenges:proof", kwargs={"challenge_id": challenge.id}) + "?step=1", {})
        )
    for visitor in (client, Client()):
        for url, headers in pages:
            response = visitor.get(url, **headers)
            assert response.status_code in (200, 404), url
            assert_no_secret(response.content.decode(), live)
    refused = client.post(reverse("challenges:play", kwargs={"challenge_id": tomorrow.id}))
    assert refused.status_code == 409
    assert_no_secret(refused.content.decode(), live)


@pytest.mark.parametrize("variant", ["steps", "spike"])
def test_a_challenge_games_board_shows_no_hidden_card(
    player_client, player, make_challenge, clock, variant
):
    challenge = make_challenge(variant=variant, goal={"kind": "win"})
    played = player_client.post(reverse("challenges:play", kwargs={"challenge_id": challenge.id}))
    game = Game.objects.get(player=player, track_ref=challenge.track_ref)
    assert played["Location"] == reverse("games:detail", kwargs={"game_id": game.id})
    for move in challenge.proof_line[:10]:
        board = player_client.get(played["Location"]).content.decode()
        assert game.seed not in board
        assert leaked_cards(board, hidden_cards(game)) == []
        assert "Challenge:" in board
        play_line(game=game, player=player, line=[move])
