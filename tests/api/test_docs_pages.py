"""The schema's two readers: pages of this site's own files only, each with the site's
policy relaxed only where its reader needs it (api/views/docs.py)."""

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


class _Resources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        url = found.get("src") if tag == "script" else found.get("href") if tag == "link" else None
        if url is not None:
            self.urls.append(url)
        elif tag in ("script", "style") or "style" in found:
            self.inline.append(tag)


def _resources(html: str) -> _Resources:
    parser = _Resources()
    parser.feed(html)
    return parser


def _policy(header: str) -> dict[str, list[str]]:
    return {
        name: sources for name, *sources in (directive.split() for directive in header.split(";"))
    }


@pytest.mark.parametrize(
    ("url_name", "scripts"),
    [
        (
            "api:docs",
            [
                "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
                "/static/js/api-docs/swagger-init.js",
            ],
        ),
        (
            "api:redoc",
            [
                "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js",
                "/static/js/api-docs/redoc-init.js",
            ],
        ),
    ],
)
def test_a_docs_page_loads_only_this_sites_files(client: Client, url_name: str, scripts: list[str]):
    response = client.get(reverse(url_name))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    resources = _resources(response.content.decode())
    assert resources.inline == []
    assert all(url.startswith("/static/") for url in resources.urls), resources.urls
    assert [url for url in resources.urls if url.endswith(".js")] == scripts
    assert f'data-schema-url="{reverse("api:schema")}"' in response.content.decode()


def test_swagger_ui_may_show_data_images_and_nothing_else_more(client: Client):
    policy = _policy(client.get(reverse("api:docs"))["Content-Security-Policy"])

    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert "worker-src" not in policy


def test_redoc_may_write_styles_show_data_images_and_run_a_blob_worker(client: Client):
    policy = _policy(client.get(reverse("api:redoc"))["Content-Security-Policy"])

    assert policy["style-src"] == ["'self'", "'unsafe-inline'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["worker-src"] == ["blob:"]
    assert policy["script-src"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]


def test_the_sites_other_pages_keep_the_strict_policy(client: Client):
    policy = _policy(client.get(reverse("home"))["Content-Security-Policy"])

    assert policy["img-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert "worker-src" not in policy
