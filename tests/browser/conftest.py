"""Browser tests drive Debian's Chromium through Playwright.

Where no browser can be had they are skipped and say why; under CI they must run.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def page(live_server, monkeypatch):
    """A phone-sized page in a fresh browser, started after the live server and
    its database so that Playwright's event loop runs only during the test."""
    if not CHROMIUM.exists():
        message = (
            f"no browser at {CHROMIUM}: run `make browser` as root to install Debian's chromium"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests, but there is {message}")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # The ORM calls the tests make between page actions are plain synchronous
    # ones, even though Playwright's sync API keeps a loop in this thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport={"width": 412, "height": 915})
        page = context.new_page()
        page.set_default_timeout(10_000)
        yield page
        context.close()
        browser.close()
