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

# Playwright's sync API runs an event loop in this thread; the ORM calls the
# tests make between page actions are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists():
        message = f"no browser at {CHROMIUM}: run `make browser` as root to install Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests, but there is {message}")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 412, "height": 915})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
