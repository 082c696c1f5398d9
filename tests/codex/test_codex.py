"""The Codex campaign: its page, unlocking by tier, the player's best stars and ledger,
and playing a scenario."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from codex import selectors
from codex.services import ScenarioRefused, scenario_play
from games.codex import (
    codex_scenario,
    codex_scenarios,
    scenario_certify,
    scenario_difficulty,
    scenario_stars,
    scenario_track,
)
from games.models import Game
from games.services import game_move_play, game_resume_or_start
from games.variants import game_variant

pytestmark = pytest.mark.django_db


def tier(number):
    return [scenario for scenario in codex_scenarios() if scenario.tier == number]


def play_line(*, game, player, line):
    for move in line:
        game.refresh_from_db()
        game_move_play(game_id=game.id, player=player, move=move, revision=game.revision)
    game.refresh_from_db()


def win(player, scenario):
    """Win the scenario by playing the solver's line on the player's game of it."""
    game = scenario_play(player=player, key=scenario.key)
    play_line(game=game, player=player, line=scenario_certify(scenario).moves)
    assert game.status == Game.Status.WON
    return game


def won_row(player, scenario, *, score=100):
    """A won game of the scenario stored as such, on its starting position: for the
    tests that only need the won row."""
    game = scenario_play(player=player, key=scenario.key)
    Game.objects.filter(id=game.id).update(
        status=Game.Status.WON, final_score=score, finished_at=timezone.now()
    )
    return game


@pytest.mark.parametrize("logged_in", [False, True])
def test_the_page_lists_twenty_scenarios_in_four_tiers_and_no_seed(
    client, player, logged_in
) -> None:
    if logged_in:
        client.force_login(player)
    response = client.get(reverse("codex:home"))
    assert response.status_code == 200
    html = response.content.decode()
    for number in range(1, 5):
        assert f'id="tier-{number}"' in html
    assert html.count('data-scenario="') == 20
    for scenario in codex_scenarios():
        assert f'id="scenario-{scenario.key}"' in html
        assert scenario.seed not in html
    assert f"when {selectors.WINS_TO_OPEN_NEXT_TIER} scenarios" in html
    assert "within par plus 20 percent" in html


def test_a_visitor_is_asked_to_log_in(client) -> None:
    html = client.get(reverse("codex:home")).content.decode()
    assert "Log in to play" in html
    assert 'action="/codex/' not in html


def test_a_new_player_sees_tier_one_open_and_tier_two_locked(player_client) -> None:
    html = player_client.get(reverse("codex:home")).content.decode()
    assert 'id="tier-1" data-unlocked="yes"' in html
    assert 'id="tier-2" data-unlocked="no"' in html
    assert "Tier 2 opens when 3 scenarios of tier 1 are won: 0 won so far" in html
    assert html.count('action="/codex/') == 5
    assert "0</strong> of 20 scenarios won" in html
    assert "0</strong> of 60 stars" in html


def test_winning_three_of_tier_one_opens_tier_two(player) -> None:
    first, second, third = tier(1)[:3]
    win(player, first)
    won_row(player, second)
    campaign = selectors.codex_campaign(player=player)
    assert [t.unlocked for t in campaign.tiers] == [True, False, False, False]
    assert campaign.tiers[1].lock_reason.endswith("2 won so far")
    won_row(player, third)
    campaign = selectors.codex_campaign(player=player)
    assert [t.unlocked for t in campaign.tiers] == [True, True, False, False]
    assert scenario_play(player=player, key=tier(2)[0].key).track_ref == tier(2)[0].key


def test_the_page_shows_the_best_stars_and_ledger_of_a_won_scenario(player, player_client) -> None:
    scenario = tier(1)[0]
    game = win(player, scenario)
    lost = scenario_play(player=player, key=scenario.key)
    Game.objects.filter(id=lost.id).update(status=Game.Status.LOST, final_score=-5)
    entry = selectors.codex_campaign(player=player).tiers[0].scenarios[0]
    assert entry.won
    assert entry.best_ledger == game.final_score
    steps = game_variant(game)
    public = steps.public_view(steps.load(game.state))
    assert entry.stars == scenario_stars(
        scenario=scenario,
        won=True,
        moves=game.move_count,
        reserve_used=bool(public["reserve_used_ever"]),
    )
    assert entry.stars >= 2
    html = player_client.get(reverse("codex:home")).content.decode()
    row = html.split(f'id="scenario-{scenario.key}"')[1].split("</tr>")[0]
    assert "<strong>Won</strong>" in row
    assert f'class="scenario-ledger">{game.final_score}<' in row
    assert f"{entry.stars}/3" in row
    assert f"1</strong> of 20 scenarios won, <strong>{entry.stars}</strong> of 60 stars" in html
    assert f"campaign ledger <strong>{game.final_score}</strong>" in html


def test_play_deals_the_scenario_and_resumes_it(player, player_client) -> None:
    scenario = codex_scenario("the-kings-vestibule")
    url = reverse("codex:play", kwargs={"key": scenario.key})
    response = player_client.post(url)
    game = Game.objects.get(player=player)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", kwargs={"game_id": game.id})
    assert (game.track, game.track_ref, game.seed) == ("scenario", scenario.key, scenario.seed)
    assert game.options == scenario.options
    assert game.undo_limit == scenario.undo_allowance
    again = player_client.post(url, headers={"HX-Request": "true"})
    # From the Codex page, which has no board to replace: a page load (HX-Redirect).
    assert again.status_code == 200
    assert again["HX-Redirect"] == reverse("games:detail", kwargs={"game_id": game.id})
    assert Game.objects.filter(player=player).count() == 1


def test_play_of_a_locked_scenario_is_refused_with_the_reason(player, player_client) -> None:
    scenario = tier(2)[0]
    with pytest.raises(ScenarioRefused, match="0 won so far"):
        scenario_play(player=player, key=scenario.key)
    response = player_client.post(reverse("codex:play", kwargs={"key": scenario.key}))
    assert response.status_code == 409
    assert (
        "Tier 2 opens when 3 scenarios of tier 1 are won: 0 won so far" in response.content.decode()
    )
    htmx = player_client.post(
        reverse("codex:play", kwargs={"key": scenario.key}), headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 409
    assert htmx.content.decode().startswith('<p class="alert" role="alert" id="codex-refused">')
    assert not Game.objects.filter(player=player).exists()


def test_play_needs_csrf_a_login_and_a_known_key(player) -> None:
    key = tier(1)[0].key
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("codex:play", kwargs={"key": key})).status_code == 403
    anonymous = Client().post(reverse("codex:play", kwargs={"key": key}))
    assert anonymous.status_code == 302
    assert "login" in anonymous["Location"]
    client = Client()
    client.force_login(player)
    assert client.post(reverse("codex:play", kwargs={"key": "no-such-scenario"})).status_code == 404
    assert client.get(reverse("codex:play", kwargs={"key": key})).status_code == 405
    assert not Game.objects.filter(player=player).exists()


def test_the_page_closes_a_scenario_whose_clock_ran_out_and_counts_its_ledger(
    player, player_client
) -> None:
    timed = next(scenario for scenario in codex_scenarios() if scenario.time_limit_seconds)
    # Tier 4 is locked for a new player: its game dealt as Play would once it is open.
    game = game_resume_or_start(player=player, variant="steps", track=scenario_track(timed))
    Game.objects.filter(id=game.id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert player_client.get(reverse("codex:home")).status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    entry = next(
        entry
        for tier in selectors.codex_campaign(player=player).tiers
        for entry in tier.scenarios
        if entry.key == timed.key
    )
    assert entry.best_ledger == game.final_score


@pytest.mark.parametrize(
    ("nodes", "word"),
    [
        (1, "Gentle"),
        (99, "Gentle"),
        (100, "Steady"),
        (999, "Steady"),
        (1_000, "Hard"),
        (9_999, "Hard"),
        (10_000, "Fierce"),
        (99_999, "Fierce"),
        (100_000, "Summit"),
    ],
)
def test_a_scenarios_difficulty_comes_from_the_solvers_effort(nodes, word) -> None:
    scenario = replace(codex_scenario("the-kings-vestibule"), nodes=nodes)
    assert scenario_difficulty(scenario) == word


def test_the_page_shows_each_scenarios_difficulty_and_effort(client) -> None:
    html = client.get(reverse("codex:home")).content.decode()
    assert 'id="difficulty-rule"' in html
    assert (
        "Gentle under 100, Steady under 1,000, Hard under 10,000, Fierce under 100,000 "
        "positions, Summit beyond" in html
    )
    for scenario in codex_scenarios():
        row = html.split(f'id="scenario-{scenario.key}"')[1].split("</tr>")[0]
        expected = f"{scenario_difficulty(scenario)} <small>({scenario.nodes:,} positions)</small>"
        assert expected in row
    # The Codex's four tiers rise in effort: gentle first, the summit last.
    assert {scenario_difficulty(s) for s in tier(1)} == {"Gentle"}
    assert {scenario_difficulty(s) for s in tier(4)} == {"Summit"}
