"""axe-core finds no serious or critical violation on any page or board: the
visitor's pages, the player's pages, every game's rules, and every game's board
in play, with a card picked and finished with its summary; in the light and the
dark colours (a device set to dark)."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from leaderboards.periods import today_utc
from tests.browser.axe import axe_violations, describe, require_axe
from tests.browser.helpers import sign_up
from tests.browser.test_layout import VARIANTS, deal_half_played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SCHEMES = ["light", "dark"]


@pytest.fixture(autouse=True)
def _axe():
    require_axe()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_page_has_a_serious_or_critical_violation(page, live_server, scheme):
    page.emulate_media(color_scheme=scheme)
    found = {}

    def check(path: str) -> None:
        response = page.goto(live_server.url + path)
        assert response is not None, path
        assert response.ok, path
        if violations := axe_violations(page):
            found[path] = violations

    visitor_pages = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]
    visitor_pages += [f"/rules/{variant}/" for variant in VARIANTS]
    visitor_pages += ["/play/klondike/"]
    for path in visitor_pages:
        check(path)

    sign_up(page, live_server.url, "auditor")
    player = get_user_model().objects.get(username="auditor")
    player_pages = ["/", "/daily/", "/settings/", "/players/auditor/"]
    player_pages += [f"/play/{variant}/" for variant in VARIANTS]
    player_pages += [f"/daily/{today_utc().isoformat()}/{variant}/" for variant in VARIANTS]
    player_pages += [f"/leaderboards/{variant}/" for variant in VARIANTS]
    for variant in VARIANTS:
        deal_half_played(player, variant)
    player_pages += ["/games/"]
    for path in player_pages:
        check(path)
    assert found == {}, "axe-core violations:\n" + describe(found)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_board_has_a_serious_or_critical_violation(page, live_server, variant, scheme):
    page.emulate_media(color_scheme=scheme)
    sign_up(page, live_server.url, f"audit-{variant}")
    player = get_user_model().objects.get(username=f"audit-{variant}")
    game, selection = deal_half_played(player, variant)
    found = {}

    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("#board")).to_be_visible()
    if violations := axe_violations(page):
        found["in play"] = violations

    # A card picked by a click, as board.js marks it and lights its places up
    # (Spike's waste card, which lights up the cards that can be played on it).
    if variant == "spike":
        page.locator("#board .waste a.card").click()
    else:
        src, _, count = selection.partition("/")
        source = page.locator(f'a.card[data-tap-source="{src}"][data-tap-count="{count}"]')
        source.click(position={"x": 8, "y": 6})
    expect(page.locator("#board a.card.selected").first).to_be_visible()
    if violations := axe_violations(page):
        found["card picked"] = violations

    # The same pick as the page without JavaScript shows it: targets and the bar.
    page.goto(f"{live_server.url}/games/{game.id}/?sel={selection or 'w'}")
    expect(page.locator("#board")).to_be_visible()
    if violations := axe_violations(page):
        found["?sel="] = violations

    game.refresh_from_db()
    services.game_finish(game_id=game.id, player=player, revision=game.revision)
    page.goto(f"{live_server.url}/games/{game.id}/")
    expect(page.locator("#summary")).to_be_visible()
    if violations := axe_violations(page):
        found["finished"] = violations
    assert found == {}, f"axe-core violations on {variant}'s board:\n" + describe(found)
