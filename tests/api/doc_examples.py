"""docs/api.md's shell examples, run as written against a live server: its sections'
commands, and a run of them with $API and, for a signed-in player, $AUTH."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from tests.api.conftest import PASSWORD

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
SHELL_BLOCK = re.compile(r"```sh\n(.*?)```", re.DOTALL)


def section_commands(heading: str) -> str:
    """The shell blocks of the section under `heading`, up to the next section."""
    section = DOC.read_text().split(heading, 1)[1]
    end = section.find("\n## ")
    return "\n".join(SHELL_BLOCK.findall(section if end == -1 else section[:end]))


def commands_output(script: str, *, server_url: str, username: str | None = None) -> str:
    """What the commands print, run by bash (errexit, pipefail) with $API and, given a
    player, $AUTH holding that player's session token; a failing command fails the
    test. CI must have bash, curl and jq; elsewhere the test is skipped without them."""
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have {missing} for docs/api.md's examples")
        pytest.skip(f"needs {missing}")
    env = {**os.environ, "API": f"{server_url}/api/v1"}
    if username is not None:
        login = requests.post(
            f"{server_url}/api/v1/auth/login",
            json={"username": username, "password": PASSWORD},
            timeout=10,
        )
        env["AUTH"] = f"X-Session-Token: {login.json()['meta']['session_token']}"
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout
