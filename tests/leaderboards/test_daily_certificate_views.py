"""The certificate on the pages: "Certified winnable", the par and the difficulty while
a deal is live, never its seed or the solver's line; after the day the line as a replay
anyone can step through; moves against par on the leaderboard."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games.engine import get_variant, shuffled_deck
from leaderboards import certification
from leaderboards.models import DailyDeal
from leaderboards.periods import today_utc
from tests.games.helpers import leaked_cards
from tests.leaderboards.certify_helpers import requires_solver
from tests.leaderboards.helpers import Figures, deal_of, insert_results, start_daily

pytestmark = pytest.mark.django_db


def certified(variant: str = "spike", day=None) -> DailyDeal:
    """The deal of a game and day, certified by the game's real solver, drawn as the
    evening before would have (a deal already dealt keeps its seed, which may not be
    winnable: the search draws until one is)."""
    day = day or today_utc()
    deal = deal_of(variant, day)
    DailyDeal.objects.filter(id=deal.id).delete()
    found = certification.certificate_search(
        variant=variant,
        options=deal.options,
        plan=certification.certify_plan(variant=variant),
    )
    assert found.certified, "the solver won no deal"
    return DailyDeal.objects.create(
        date=day,
        variant=variant,
        options=deal.options,
        seed=found.seed,
        **certification.certificate_fields(found),
    )


def deal_url(deal: DailyDeal) -> str:
    return reverse("leaderboards:deal", args=[deal.date.isoformat(), deal.variant])


def par_url(deal: DailyDeal, step: object | None = None) -> str:
    url = reverse("leaderboards:par", args=[deal.date.isoformat(), deal.variant])
    return url if step is None else f"{url}?step={step}"


def assert_no_secret(html: str, deal: DailyDeal) -> None:
    """Neither the seed nor the solver's line, nor any run of three of its moves."""
    assert deal.seed not in html
    line = [str(move) for move in deal.solver_line]
    for separator in (" ", ", ", '", "', "\n", ""):
        for start in range(max(0, len(line) - 2)):
            assert separator.join(line[start : start + 3]) not in html


@requires_solver("spike")
class TestWhileLive:
    def test_the_daily_page_says_certified_winnable_with_par_and_difficulty(self, player_client):
        deal = certified("spike")
        html = player_client.get(reverse("leaderboards:daily")).content.decode()
        row = re.search(r'data-daily="spike">(.*?)</tr>', html, re.S).group(1)
        assert "Certified winnable" in row
        assert f"par {deal.par}" in row
        assert certification.difficulty_word(deal.difficulty) in row
        klondike = re.search(r'data-daily="klondike">(.*?)</tr>', html, re.S).group(1)
        assert "Not certified" in klondike
        assert_no_secret(html, deal)

    def test_no_response_about_a_live_deal_holds_its_seed_or_line(
        self, player_client, player, admin_client
    ):
        deal = certified("spike")
        game = start_daily(player, deal)
        responses = {
            "daily": player_client.get(reverse("leaderboards:daily")),
            "deal": player_client.get(deal_url(deal)),
            "deal partial": player_client.get(deal_url(deal), headers={"HX-Request": "true"}),
            "board": player_client.get(reverse("games:detail", args=[game.id])),
            "period": player_client.get(reverse("leaderboards:period", args=["spike"])),
            "admin list": admin_client.get(reverse("admin:leaderboards_dailydeal_changelist")),
            "admin deal": admin_client.get(
                reverse("admin:leaderboards_dailydeal_change", args=[deal.id])
            ),
        }
        for name, response in responses.items():
            assert response.status_code == 200, name
            assert_no_secret(response.content.decode(), deal)
        admin_page = responses["admin deal"].content.decode()
        assert str(deal.par) in admin_page
        assert "certified winnable" in admin_page
        # The line is not a page while the day lasts, whatever the step asked.
        for step in (None, 0, 1, deal.par):
            response = player_client.get(par_url(deal, step))
            assert response.status_code == 404
            assert_no_secret(response.content.decode(), deal)

    def test_the_deal_page_shows_the_certificate_but_offers_no_replay(self, client):
        deal = certified("spike")
        html = client.get(deal_url(deal)).content.decode()
        assert "Certified winnable" in html
        assert f"par {deal.par}" in html
        assert 'id="par-replay"' not in html
        assert_no_secret(html, deal)

    def test_a_future_deal_has_no_replay_either(self, client):
        deal = certified("spike", today_utc() + timedelta(days=2))
        assert client.get(par_url(deal, 1)).status_code == 404
        assert client.get(deal_url(deal)).status_code == 404


@requires_solver("spike")
class TestAfterTheDay:
    @pytest.fixture
    def deal(self):
        return certified("spike", today_utc() - timedelta(days=1))

    def test_the_deal_page_offers_the_solvers_line(self, client, deal):
        html = client.get(deal_url(deal)).content.decode()
        assert 'id="par-replay"' in html
        assert par_url(deal) in html

    def test_each_step_is_the_engines_public_view_after_that_many_moves(self, client, deal):
        variant = get_variant(deal.variant)
        state = variant.deal(shuffled_deck(deal.seed), deal.options)
        for step in range(deal.par + 1):
            response = client.get(par_url(deal, step))
            assert response.status_code == 200
            replay = response.context["replay"]
            assert replay.step == step
            assert replay.board.public == variant.public_view(state)
            html = response.content.decode()
            assert f"Step {step} of {deal.par}" in html
            if step < deal.par:
                assert f'href="?step={step + 1}"' in html
                assert 'id="next-step"' in html
                state = variant.play(state, deal.solver_line[step]).state
            else:
                assert 'id="next-step"' not in html
                assert 'id="won"' in html
            if step:
                assert f'href="?step={step - 1}"' in html
                assert 'id="previous-step"' in html
                assert f'<strong id="current-move">{deal.solver_line[step - 1]}</strong>' in html
            else:
                assert 'id="previous-step"' not in html

    def test_the_replay_board_has_no_live_control(self, client, deal):
        html = client.get(par_url(deal, 1)).content.decode()
        board = html[html.index("<fieldset disabled") : html.index("</fieldset>")]
        assert "?sel=" not in board
        assert 'id="board"' not in html  # board.js and the board's swaps act on #board only
        assert "data-legal-moves" not in html

    @pytest.mark.parametrize(
        ("raw", "expected"),
        [
            ("", 0),
            ("abc", 0),
            ("-1", 0),
            ("1.5", 0),
            ("\u0661", 0),  # a non-ASCII digit
            ("%00", 0),
            ("999999999999999999999999", "last"),
            ("100000", "last"),
        ],
    )
    def test_a_step_that_cannot_be_read_gives_a_default_never_an_error(
        self, client, deal, raw, expected
    ):
        response = client.get(par_url(deal) + f"?step={raw}")
        assert response.status_code == 200
        assert response.context["replay"].step == (deal.par if expected == "last" else expected)

    def test_the_leaderboard_shows_moves_against_par(self, client, deal):
        insert_results(deal, [Figures(won=True, score=900, move_count=deal.par + 14)])
        html = client.get(deal_url(deal)).content.decode()
        assert f"{deal.par + 14} moves · par {deal.par}" in html


class TestNotCertified:
    def test_an_old_deal_without_a_certificate_says_not_certified(self, client):
        old = deal_of("klondike", today_utc() - timedelta(days=30))
        assert old.verdict == DailyDeal.Verdict.NOT_CERTIFIED
        insert_results(old, [Figures(move_count=112)])
        html = client.get(deal_url(old)).content.decode()
        assert "Not certified" in html
        assert 'id="par-replay"' not in html
        assert "· par" not in html
        assert re.search(r"<td>112</td>", html)
        assert client.get(par_url(old)).status_code == 404

    def test_an_uncertified_deal_after_a_search_says_not_certified(self, client, player_client):
        deal = deal_of("kingsley")
        DailyDeal.objects.filter(id=deal.id).update(
            verdict=DailyDeal.Verdict.UNKNOWN, seeds_tried=50, solve_ms=9_000, solver_nodes=1
        )
        daily = player_client.get(reverse("leaderboards:daily")).content.decode()
        row = re.search(r'data-daily="kingsley">(.*?)</tr>', daily, re.S).group(1)
        assert "Not certified" in row
        assert "par" not in row
        assert "Not certified" in client.get(deal_url(deal)).content.decode()

    def test_an_unknown_day_or_game_has_no_replay(self, client):
        for day, variant in (("2026-02-30", "klondike"), ("yesterday", "klondike")):
            url = reverse("leaderboards:par", args=[day, variant])
            assert client.get(url).status_code == 404
        yesterday = (today_utc() - timedelta(days=1)).isoformat()
        assert client.get(reverse("leaderboards:par", args=[yesterday, "nope"])).status_code == 404


class TestAdmin:
    def test_the_certificate_is_read_only_and_the_secret_shows_once_the_day_is_over(
        self, admin_client
    ):
        live = deal_of("klondike")
        past = deal_of("klondike", today_utc() - timedelta(days=1))
        line = ["draw", "w-t3", "t1-f"]
        for deal in (live, past):
            DailyDeal.objects.filter(id=deal.id).update(
                verdict=DailyDeal.Verdict.WON,
                par=3,
                difficulty=2,
                solve_ms=12,
                solver_nodes=345,
                solver_line=line,
                seeds_tried=4,
            )
        live_page = admin_client.get(
            reverse("admin:leaderboards_dailydeal_change", args=[live.id])
        ).content.decode()
        assert live.seed not in live_page
        assert "w-t3" not in live_page
        form = live_page.split('id="content-main"')[1]
        assert "345" in live_page
        assert not re.search(r'<(input|textarea|select)(?![^>]*type="hidden")', form)
        past_page = admin_client.get(
            reverse("admin:leaderboards_dailydeal_change", args=[past.id])
        ).content.decode()
        assert past.seed in past_page
        assert "w-t3" in past_page
        refused = admin_client.post(
            reverse("admin:leaderboards_dailydeal_change", args=[live.id]), {"par": "1"}
        )
        assert refused.status_code == 403
        assert DailyDeal.objects.get(id=live.id).par == 3


@pytest.mark.parametrize("variant", ["klondike", "kingsley", "spiderette", "steps", "spike"])
def test_every_games_board_steps_through_its_solvers_line(client, settings, variant):
    """Each game's own board template shows the replay, from the deal to the win."""
    if variant not in certification.solvers():
        pytest.skip(f"no {variant} solver registered yet")
    settings.DAILY_CERTIFY_TIME_MS = 60_000
    deal = certified(variant, today_utc() - timedelta(days=1))
    for step in (0, deal.par // 2, deal.par):
        response = client.get(par_url(deal, step))
        assert response.status_code == 200
        html = response.content.decode()
        assert f"variant-{variant}" in html
        assert "<fieldset disabled" in html
        assert_no_hidden_card_shown(html, deal, step)
    assert 'id="won"' in html


def assert_no_hidden_card_shown(html: str, deal: DailyDeal, step: int) -> None:
    """The board is the public view: a card face down at that step is not printed."""
    variant = get_variant(deal.variant)
    state = variant.deal(shuffled_deck(deal.seed), deal.options)
    for move in deal.solver_line[:step]:
        state = variant.play(state, move).state
    public = str(variant.public_view(state))
    hidden = {card for card in shuffled_deck(deal.seed) if f"'{card}'" not in public}
    board = html[html.index("<fieldset disabled") : html.index("</fieldset>")]
    assert leaked_cards(board, hidden) == []
