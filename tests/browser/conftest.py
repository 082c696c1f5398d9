"""Browser tests drive Debian's Chromium through Playwright.

Where no browser can be had they are skipped and say why; under CI they must run.
Every page a test loads must come with the Content-Security-Policy and make the
browser report no violation of it: a test that causes one fails at teardown.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


# Runs in every document before its own scripts: hands each violation the
# browser reports to Python (an exposed binding, which no page policy blocks).
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.arenaCspViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"} ` +
    `in ${event.documentURI} (${event.sourceFile || "page"}:${event.lineNumber})`
  );
});
"""


class CspWatch:
    """Collects the CSP violations a browser context reports (events and console
    messages) and the documents that came without the policy header."""

    def __init__(self) -> None:
        self.violations: list[str] = []
        self.unprotected: list[str] = []

    def install(self, context) -> None:
        context.expose_binding(
            "arenaCspViolation", lambda source, text: self.violations.append(text)
        )
        context.add_init_script(CSP_LISTENER)
        context.on("console", self._console)
        context.on("response", self.record_response)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(message.text)

    def record_response(self, response) -> None:
        if response.request.resource_type == "document" and not response.headers.get(
            "content-security-policy"
        ):
            self.unprotected.append(response.url)

    def check(self, page) -> None:
        if not page.is_closed():
            page.evaluate("() => new Promise((done) => setTimeout(done, 50))")
        self.check_protected()
        assert not self.violations, "CSP violations:\n" + "\n".join(self.violations)

    def check_protected(self) -> None:
        """Every document came with the policy (all a page that runs no script can
        be asked)."""
        assert not self.unprotected, f"pages without a Content-Security-Policy: {self.unprotected}"


def require_chromium() -> None:
    if not CHROMIUM.exists():
        message = (
            f"no browser at {CHROMIUM}: run `make browser` as root to install Debian's chromium"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests, but there is {message}")
        pytest.skip(message)


@contextmanager
def chromium_page(watch: CspWatch) -> Iterator[Any]:
    """A phone-sized page in a fresh browser whose context reports to `watch`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport={"width": 412, "height": 915})
        watch.install(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        try:
            yield page
        finally:
            context.close()
            browser.close()


@pytest.fixture
def page(live_server, monkeypatch):
    """A phone-sized page in a fresh browser, started after the live server and
    its database so that Playwright's event loop runs only during the test.
    At teardown it fails the test on any CSP violation the browser reported."""
    require_chromium()
    # The ORM calls the tests make between page actions are plain synchronous
    # ones, even though Playwright's sync API keeps a loop in this thread.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    watch = CspWatch()
    with chromium_page(watch) as page:
        yield page
        watch.check(page)
