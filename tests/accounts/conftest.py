import re

import pytest

PASSWORD = "correct-horse-battery"
CSRF_TOKENS = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]+')


@pytest.fixture
def alice(make_user):
    return make_user(username="alice", password=PASSWORD)


def error_texts(response) -> list[str]:
    """The texts of the form errors on a page (Django's errorlist markup)."""
    html = response.content.decode()
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, flags=re.S)
    return [item.strip() for block in lists for item in re.findall(r"<li>(.*?)</li>", block)]


def without_csrf(html: str) -> str:
    """The page with every CSRF token (form fields and the htmx header) blanked out."""
    return CSRF_TOKENS.sub(r"\1", html)


def checked_inputs(response) -> set[tuple[str, str]]:
    """(name, value) of every checked radio button and checkbox on the page."""
    from html.parser import HTMLParser

    found: set[tuple[str, str]] = set()

    class Inputs(HTMLParser):
        def handle_starttag(self, tag, attrs):
            attributes = dict(attrs)
            if tag == "input" and "checked" in attributes:
                found.add((attributes.get("name") or "", attributes.get("value") or "on"))

    Inputs().feed(response.content.decode())
    return found
