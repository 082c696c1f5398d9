"""The board's two play settings do what they say on every game (issue 30, item 21):
"Reduce card animations" (or the system's reduced motion) leaves no hover lift, no
transition and no moving animation; "Highlight the places a picked card can go" lights
them only when it is on."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import Profile
from games.engine import get_variant
from tests.browser.helpers import sign_up
from tests.browser.test_board_moves import centre, open_board
from tests.games.helpers import load_fixture, start_with_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIXTURES = {"klondike": "klondike_win.json", "spike": "spike_win.json"}
HOVERED = {"klondike": '#board a.card.up[data-tap-source="t1"]', "spike": "#board .waste a.card.up"}
MOVING = ("run-leaving", "spike-cleared-banner", "goal-celebration", "achievement-toast")
"""The board's banners that move by a CSS animation when motion is not reduced."""
STILL_ANIMATIONS = {"none", "run-fades"}
"""What a banner may do under reduced motion: nothing, or show and then go at once."""

TRANSITIONS = """() => Array.from(document.querySelectorAll("*"))
  .filter((el) => getComputedStyle(el).transitionDuration.split(",").some((d) => parseFloat(d) > 0))
  .map((el) => el.tagName + "." + el.className)"""
RETURNING = """() => {
  const card = document.querySelector("#board .card.up");
  card.classList.add("dragging", "returning");
  const duration = getComputedStyle(card).transitionDuration;
  card.classList.remove("dragging", "returning");
  return duration;
}"""
BANNER_ANIMATIONS = """(names) => names.map((name) => {
  const banner = document.createElement("div");
  banner.className = name;
  document.getElementById("board").appendChild(banner);
  const animation = getComputedStyle(banner).animationName;
  banner.remove();
  return animation;
})"""
LOOK = """(el) => { const s = getComputedStyle(el); return [s.outlineStyle, s.boxShadow]; }"""
SEEN = """(el) => { const s = getComputedStyle(el), clear = "rgba(0, 0, 0, 0)";
  return s.backgroundColor !== clear || s.borderTopColor !== clear; }"""


def board_for(page, live_server, username, variant, **settings):
    sign_up(page, live_server.url, username)
    player = get_user_model().objects.get(username=username)
    Profile.objects.update_or_create(user=player, defaults=settings)
    case = load_fixture(FIXTURES[variant])
    game = start_with_deck(player, case["deck"], variant=variant, options=case.get("options"))
    open_board(page, live_server, game)
    return game, case


def hover_lift(page, variant) -> str:
    page.hover(HOVERED[variant])
    page.wait_for_timeout(200)
    return page.locator(HOVERED[variant]).evaluate("(el) => getComputedStyle(el).transform")


@pytest.mark.parametrize("variant", FIXTURES)
def test_cards_lift_and_move_when_motion_is_not_reduced(page, live_server, variant):
    board_for(page, live_server, f"lively{variant}", variant)
    assert hover_lift(page, variant) != "none"
    assert page.evaluate(TRANSITIONS)
    assert page.evaluate(RETURNING) != "0s"
    assert set(page.evaluate(BANNER_ANIMATIONS, list(MOVING))).isdisjoint(STILL_ANIMATIONS)


@pytest.mark.parametrize("asked_by", ["the setting", "the system"])
@pytest.mark.parametrize("variant", FIXTURES)
def test_reduced_motion_leaves_no_lift_transition_or_moving_animation(
    page, live_server, variant, asked_by
):
    username = f"still{variant}{asked_by.split()[1]}"
    if asked_by == "the system":
        page.emulate_media(reduced_motion="reduce")
        board_for(page, live_server, username, variant)
    else:
        board_for(page, live_server, username, variant, reduced_motion=True)
    assert hover_lift(page, variant) == "none"
    assert page.evaluate(TRANSITIONS) == []
    assert page.evaluate(RETURNING) == "0s"
    assert set(page.evaluate(BANNER_ANIMATIONS, list(MOVING))) <= STILL_ANIMATIONS
    assert page.evaluate("document.getAnimations().length") == 0


def klondike_pick(page, game) -> str:
    """Pick a card that has a place to go; that place's selector."""
    klondike = get_variant("klondike")
    move = next(
        m
        for m in klondike.legal_moves(klondike.load(game.state))
        if m.kind == "transfer" and m.src.startswith("t") and m.dst.startswith("t")
    )
    page.locator(f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]').click(
        position={"x": 8, "y": 6}
    )
    return f'#board .lit[data-pile="{move.dst}"]'


@pytest.mark.parametrize("highlight", [False, True])
def test_klondike_lights_a_picked_cards_places_only_with_the_setting(page, live_server, highlight):
    game, _ = board_for(
        page, live_server, f"klondike{highlight}", "klondike", highlight_moves=highlight
    )
    place = page.locator(klondike_pick(page, game))
    expect(place).to_have_count(1)
    outline, _ = place.evaluate(LOOK)
    _, shadow = place.locator(".card").last.evaluate(LOOK)
    assert (outline, shadow != "none") == (("dashed", True) if highlight else ("none", False))
    # The place still takes the card when it is not lit up.
    place.click()
    expect(page.locator("#moves")).to_have_text("1")
    # Without JavaScript a picked card's places are its target buttons: seen only with
    # the setting, there to press either way.
    klondike = get_variant("klondike")
    game.refresh_from_db()
    move = next(
        m
        for m in klondike.legal_moves(klondike.load(game.state))
        if m.kind == "transfer" and m.src.startswith("t") and m.dst.startswith("t")
    )
    page.goto(f"{live_server.url}/games/{game.id}/?sel={move.src}/{move.count}")
    target = page.locator(f'[data-pile="{move.dst}"] .target-button')
    expect(target).to_have_count(1)
    assert target.evaluate(SEEN) is highlight


@pytest.mark.parametrize("highlight", [False, True])
def test_spike_lights_the_waste_and_the_playable_cards_only_with_the_setting(
    page, live_server, highlight
):
    _, case = board_for(page, live_server, f"spike{highlight}", "spike", highlight_moves=highlight)
    playable = page.locator("#board .spike-play .card.playable")
    assert (playable.count() > 0) is highlight
    play = case["moves"][0]
    start = centre(page, f'button.card:has([data-card="{play}"])')
    end = centre(page, '[data-pile="w"]')
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    waste = page.locator('#board .lit[data-pile="w"]')
    expect(waste).to_have_count(1)
    outline, _ = waste.evaluate(LOOK)
    assert outline == ("dashed" if highlight else "none")
    page.mouse.up()
    expect(page.locator("#moves")).to_have_text("1")
