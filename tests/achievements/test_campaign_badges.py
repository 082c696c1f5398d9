"""The Codex campaign's badges: each tier cleared and at three stars, all twenty both
ways, judged with every scenario game's evaluation and earned once by the game that
completed them."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from achievements.declarations import CAMPAIGN_ACHIEVEMENTS, CAMPAIGN_BY_CODE
from achievements.models import Award
from achievements.selectors import badges_for_player, game_toast
from achievements.services import achievements_evaluate, campaign_awards_evaluate
from codex.services import scenario_play
from games.codex import codex_scenarios, par_margin_moves
from games.models import Game
from games.services import game_resume_or_start

pytestmark = pytest.mark.django_db

START = timezone.now() - timedelta(days=1)


def tier(number):
    return [scenario for scenario in codex_scenarios() if scenario.tier == number]


def close(player, scenario, *, stars=3, minute=0, won=True, review_hold=""):
    """A closed game of the scenario stored with figures that earn `stars` (three: at
    par with no slot used; two: past par within the margin; one: past the margin)."""
    game = scenario_play(player=player, key=scenario.key)
    moves = {3: 0, 2: scenario.par + 1, 1: par_margin_moves(scenario.par) + 1}[stars]
    Game.objects.filter(id=game.id).update(
        status=Game.Status.WON if won else Game.Status.LOST,
        final_score=100,
        move_count=moves,
        finished_at=START + timedelta(minutes=minute),
        review_hold=review_hold,
    )
    return game


def codes(player):
    return set(Award.objects.filter(player=player).values_list("code", flat=True))


def test_every_tier_and_the_whole_codex_are_declared_both_ways() -> None:
    assert {achievement.code for achievement in CAMPAIGN_ACHIEVEMENTS} == {
        *(f"codex-tier-{n}-cleared" for n in range(1, 5)),
        *(f"codex-tier-{n}-three-stars" for n in range(1, 5)),
        "codex-all-won",
        "codex-all-three-stars",
    }
    first = CAMPAIGN_BY_CODE["codex-tier-1-cleared"].rule
    assert first.scenarios == tuple(scenario.key for scenario in tier(1))
    assert first.stars == 1
    assert len(CAMPAIGN_BY_CODE["codex-all-three-stars"].rule.scenarios) == 20


def test_four_wins_of_a_tier_clear_nothing_and_the_fifth_clears_it(player) -> None:
    games = [close(player, scenario, minute=n) for n, scenario in enumerate(tier(1))]
    Game.objects.filter(id=games[2].id).update(status=Game.Status.LOST)
    assert "codex-tier-1-cleared" not in campaign_awards_evaluate(player_id=player.pk)
    assert codes(player) == set()
    Game.objects.filter(id=games[2].id).update(
        status=Game.Status.WON, finished_at=START + timedelta(minutes=30)
    )
    earned = achievements_evaluate(game_id=games[2].id)
    assert {"codex-tier-1-cleared", "codex-tier-1-three-stars"} <= set(earned)
    award = Award.objects.get(player=player, code="codex-tier-1-cleared")
    # The game that completed the tier: the last of the first wins, not the latest id.
    assert award.game_id == games[2].id
    assert award.earned_at == START + timedelta(minutes=30)


def test_two_stars_in_one_scenario_clear_the_tier_but_not_at_three_stars(player) -> None:
    for n, scenario in enumerate(tier(1)):
        close(player, scenario, stars=2 if n == 4 else 3, minute=n)
    assert set(campaign_awards_evaluate(player_id=player.pk)) == {"codex-tier-1-cleared"}
    third = close(player, tier(1)[4], stars=3, minute=40)
    assert "codex-tier-1-three-stars" in campaign_awards_evaluate(player_id=player.pk)
    assert Award.objects.get(player=player, code="codex-tier-1-three-stars").game_id == third.id


def test_a_game_held_off_by_a_review_counts_for_nothing(player) -> None:
    for n, scenario in enumerate(tier(1)):
        close(player, scenario, minute=n, review_hold="" if n else Game.ReviewHold.HELD)
    assert campaign_awards_evaluate(player_id=player.pk) == []


def test_all_twenty_won_and_at_three_stars(player) -> None:
    minute = 0
    for number in range(1, 5):
        for scenario in tier(number):
            close(player, scenario, stars=1 if scenario.number == 20 else 3, minute=minute)
            minute += 1
    earned = set(campaign_awards_evaluate(player_id=player.pk))
    assert {f"codex-tier-{n}-cleared" for n in range(1, 5)} | {"codex-all-won"} <= earned
    assert "codex-tier-4-three-stars" not in earned
    assert "codex-all-three-stars" not in earned
    last = close(player, codex_scenarios()[-1], stars=3, minute=minute)
    earned = set(campaign_awards_evaluate(player_id=player.pk))
    assert {"codex-tier-4-three-stars", "codex-all-three-stars"} <= earned
    assert Award.objects.get(player=player, code="codex-all-three-stars").game_id == last.id


def test_judging_again_awards_each_once_and_the_badge_shows(player) -> None:
    games = [close(player, scenario, minute=n) for n, scenario in enumerate(tier(1))]
    for _ in range(2):
        achievements_evaluate(game_id=games[-1].id)
    assert Award.objects.filter(player=player, code="codex-tier-1-cleared").count() == 1
    badges = {badge.code: badge for badge in badges_for_player(player=player)}
    assert badges["codex-tier-1-cleared"].title == "The Foundation Galleries cleared"
    toast = game_toast(game_id=games[-1].id, player=player)
    assert {item.achievement.code for item in toast.earned} >= {"codex-tier-1-cleared"}


def test_a_game_of_another_track_does_not_judge_the_campaign(player) -> None:
    for n, scenario in enumerate(tier(1)):
        close(player, scenario, minute=n)
    casual = game_resume_or_start(player=player, variant="steps")
    Game.objects.filter(id=casual.id).update(status=Game.Status.LOST, finished_at=START)
    achievements_evaluate(game_id=casual.id)
    assert not codes(player) & set(CAMPAIGN_BY_CODE)


def test_a_new_player_through_the_first_tier_sees_tier_two_open_and_the_badge(
    client, player
) -> None:
    games = [close(player, scenario, minute=n) for n, scenario in enumerate(tier(1))]
    for game in games:
        achievements_evaluate(game_id=game.id)
    client.force_login(player)
    codex_page = client.get(reverse("codex:home")).content.decode()
    assert "Tier 2 opens when" not in codex_page
    profile = client.get(reverse("players:profile", args=[player.username])).content.decode()
    assert "The Foundation Galleries cleared" in profile
    assert "The Foundation Galleries at three stars" in profile
    assert "Scenarios won: <strong>5 of 20</strong>" in profile
    assert "Stars: <strong>15 of 60</strong>" in profile
