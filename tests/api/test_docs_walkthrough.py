"""docs/api.md's worked example, "A whole game with curl", run as it is written:
its shell blocks, in order, with curl and jq against a live server."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
SECTION = "## A whole game with curl"
SHELL_BLOCK = re.compile(r"```sh\n(.*?)```", re.DOTALL)

pytestmark = pytest.mark.django_db(transaction=True)


def walkthrough() -> str:
    text = DOC.read_text()
    return "\n".join(SHELL_BLOCK.findall(text[text.index(SECTION) :]))


def test_the_walkthrough_has_the_whole_game():
    script = walkthrough()
    for step in ("auth/signup", "auth/login", '/games"', "/moves", "/undo", "/hint", "/finish"):
        assert step in script
    assert "daily/klondike/play" in script
    assert "/players/ada" in script


def test_the_walkthrough_runs_against_a_live_server(live_server):
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have {missing} for docs/api.md's walkthrough")
        pytest.skip(f"needs {missing}")
    # The project's own document, run as written.
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", walkthrough()],
        env={**os.environ, "API": f"{live_server.url}/api/v1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    output = result.stdout
    for line in (
        '{"key":"spike","options":["mode"]}',
        '"code":"stale_revision","current_revision":1}',
        '"code":"illegal_move"',
        "304",
        '{"status":409,"code":"confirmation_required"}',
        '"status":"finished","final_score":',
        '{"status":"finished","track":"daily","is_ranked":true}',
        '{"rank":1,"attempts":1}',
        '{"count":1,"first":"ada"}',
        '{"username":"ada","stats_visible":true,"badges":[]}',
        '"invalid_session_token"',
    ):
        assert line in output, output
