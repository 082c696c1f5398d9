"""The browser enforces the policy, and the watch every browser test runs under
sees what it refuses (so "no violation" after a test means something)."""

import pytest

from tests.browser.conftest import CspWatch, chromium_page, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_injected_inline_script_and_style_are_refused_and_reported(live_server, monkeypatch):
    require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    watch = CspWatch()
    with chromium_page(watch) as page:
        page.goto(f"{live_server.url}/rules/klondike/")
        watch.check(page)  # the page itself is clean

        page.evaluate(
            """() => {
                const script = document.createElement("script");
                script.textContent = "window.injected = true";
                document.head.append(script);
                document.body.setAttribute("style", "background: red");
            }"""
        )
        page.wait_for_function("() => true")
        assert page.evaluate("() => window.injected") is None
        assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") != (
            "rgb(255, 0, 0)"
        )
        with pytest.raises(AssertionError, match="CSP violations") as refused:
            watch.check(page)
    assert "script-src" in str(refused.value)
    assert "style-src" in str(refused.value)
