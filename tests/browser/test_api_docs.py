"""The API's two schema readers render every operation, ours and allauth's, from this
site's own files: no request leaves the live server and the page fixture fails the
test on any violation of the Content-Security-Policy."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _requested_hosts(page) -> list[str]:
    """The hosts of the page's network requests (ReDoc's blob: worker is none)."""
    hosts: list[str] = []
    page.on(
        "request",
        lambda request: (
            request.url.startswith("blob:") or hosts.append(urlsplit(request.url).netloc)
        ),
    )
    return hosts


def test_swagger_ui_lists_the_operations_and_can_send_the_session_token(page, live_server):
    hosts = _requested_hosts(page)
    page.goto(f"{live_server.url}/api/v1/docs")

    expect(page.get_by_text("Play a move in the notation")).to_be_visible()
    expect(page.get_by_text("/api/v1/auth/login", exact=True).first).to_be_attached()
    page.get_by_role("button", name="Authorize").click()
    expect(page.get_by_text("SessionToken  (apiKey)")).to_be_visible()
    expect(page.get_by_text("X-Session-Token")).to_be_visible()
    assert set(hosts) == {urlsplit(live_server.url).netloc}


def test_redoc_lists_the_operations_and_searches_them(page, live_server):
    hosts = _requested_hosts(page)
    page.set_viewport_size({"width": 1280, "height": 900})  # the side menu and its search
    page.goto(f"{live_server.url}/api/v1/redoc")

    # ReDoc lays out the whole schema in the browser, and the schema is generated on
    # its first request: seconds on a loaded two-core CI machine.
    heading = page.get_by_role("heading", name="Play a move in the notation")
    expect(heading).to_be_visible(timeout=30_000)
    expect(page.get_by_text("/api/v1/auth/login", exact=True).first).to_be_attached()
    assert page.locator("img[alt='redocly logo']").is_hidden()
    page.get_by_placeholder("Search...").fill("notation")
    # The search index is built by ReDoc's worker after the layout: seconds more under load.
    result = page.get_by_role("search").get_by_text("Play a move in the notation")
    expect(result).to_be_visible(timeout=30_000)
    assert set(hosts) == {urlsplit(live_server.url).netloc}
