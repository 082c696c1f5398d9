"""What a person does on a board, in Playwright terms."""

from playwright.sync_api import Page, expect

from games.engine import parse_move


def sign_up(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", "a-long-secret-phrase-42")
    page.fill("input[name=password2]", "a-long-secret-phrase-42")
    page.locator("form button[type=submit]").last.click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def target_of(dst: str) -> str:
    """The place a picked card lights up (board.js, from the board's move map)."""
    if dst == "f":
        return ".foundations .lit"
    return f'.lit[data-pile="{dst}"]'


IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .travelling')"
"""No request in flight, no board being swapped in, no card travelling (board-motion.js)."""


def click_move(page: Page, text: str) -> None:
    """Make one move the way a player does: the stock, or a card then its place, each
    once the board is still (as a person waits for it)."""
    move = parse_move(text)
    page.wait_for_function(IDLE)
    if move.kind in ("draw", "recycle", "deal"):
        page.click("#stock")
        return
    source = page.locator(f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]')
    selected = page.locator("a.card.selected")
    # A card under others shows only its top strip, which is where a person taps it.
    source.click(position={"x": 8, "y": 6})
    try:
        # The picked card and the cards it carries.
        expect(selected).to_have_count(move.count, timeout=2_000)
    except AssertionError:
        # A board swapped in just after the tap takes the pick away (in CI, under load,
        # once in many runs); a person taps again, and so does this.
        page.wait_for_function(IDLE)
        source.click(position={"x": 8, "y": 6})
        expect(selected).to_have_count(move.count)
    page.locator(target_of(move.dst)).click()
