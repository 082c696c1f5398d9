"""Every profile sends a strict Content-Security-Policy and a Permissions-Policy,
and no template needs an exception to it (no inline script, style or handler)."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/", "/rules/klondike/", "/accounts/login/"]

# Run inside a fresh interpreter under one profile: the headers of each page.
# The production profile's static storage needs `collectstatic` first; only the
# storage is swapped, so that the pages render, and nothing else of the profile.
HEADERS_SCRIPT = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.test import Client, override_settings
from django.test.utils import setup_test_environment
setup_test_environment()
storages = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
with override_settings(STORAGES=storages):
    client = Client(headers={"X-Forwarded-Proto": "https"})
    out = {}
    for path in sys.argv[1:]:
        response = client.get(path, secure=True)
        out[path] = {"status": response.status_code, **{
            name: response.headers.get(name)
            for name in ("Content-Security-Policy", "Permissions-Policy")}}
print(json.dumps(out))
"""

STRICT = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'"},
    "connect-src": {"'self'"},
    "font-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}
DENIED_FEATURES = ["camera", "microphone", "geolocation", "payment", "usb"]


def directives(header: str) -> dict[str, set[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *values = part.split()
        parsed[name] = set(values)
    return parsed


def assert_strict(headers: dict[str, str | None]) -> None:
    csp = headers["Content-Security-Policy"]
    assert csp, "no Content-Security-Policy"
    assert directives(csp) == STRICT
    assert "unsafe" not in csp
    policy = headers["Permissions-Policy"]
    assert policy, "no Permissions-Policy"
    features = dict(item.strip().split("=", 1) for item in policy.split(","))
    for feature in DENIED_FEATURES:
        assert features[feature] == "()"


@pytest.mark.parametrize("profile", ["local", "test", "production"])
def test_every_profile_sends_both_policies_on_every_page(profile):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE=f"config.settings.{profile}",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver",
    )
    result = subprocess.run(
        [sys.executable, "-c", HEADERS_SCRIPT, *PAGES],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    pages = json.loads(result.stdout.strip().splitlines()[-1])
    for path in PAGES:
        assert pages[path]["status"] == 200, path
        assert_strict(pages[path])


def test_the_page_turns_off_every_htmx_feature_that_needs_an_exception(client):
    html = client.get("/").content.decode()
    [config] = re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
    settings = json.loads(config)
    assert settings["allowEval"] is False
    assert settings["allowScriptTags"] is False
    assert settings["includeIndicatorStyles"] is False


TEMPLATES = sorted(
    [*(ROOT / "templates").rglob("*.html"), *(ROOT / "jinja_templates").rglob("*.jinja")]
)
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>"), "script"),
    (re.compile(r"<style\b"), "style element"),
    (re.compile(r"\sstyle="), "style attribute"),
    (re.compile(r"\son[a-z]+\s*="), "event handler"),
    (re.compile(r"\shx-on"), "hx-on handler"),
    (re.compile(r"\shx-vars="), "hx-vars (evaluated)"),
    (re.compile(r"(?:js|javascript):"), "script URL or js: value"),
]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_has_inline_script_style_or_handler(template):
    text = template.read_text()
    found = [what for pattern, what in INLINE if pattern.search(text)]
    assert not found, f"{template.relative_to(ROOT)}: {', '.join(found)}"


SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))
NEEDS_AN_EXCEPTION = [
    (re.compile(r"\beval\s*\(|\bnew\s+Function\b"), "eval"),
    (re.compile(r"set(?:Timeout|Interval)\s*\(\s*[\"'`]"), "code in a string"),
    (re.compile(r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write"), "HTML"),
    (re.compile(r"setAttribute\(\s*[\"'](?:style|on[a-z]+)[\"']"), "inline style or handler"),
]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_script_of_ours_evaluates_code_or_writes_inline_markup(script):
    text = script.read_text()
    found = [what for pattern, what in NEEDS_AN_EXCEPTION if pattern.search(text)]
    assert not found, f"{script.relative_to(ROOT)}: {', '.join(found)}"
