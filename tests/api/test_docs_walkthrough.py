"""docs/api.md's worked example, "A whole game with curl", run as it is written:
its shell blocks, in order, with curl and jq against a live server."""

import pytest

from tests.api.doc_examples import DOC, SHELL_BLOCK, commands_output

SECTION = "## A whole game with curl"

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
    # The project's own document, run as written.
    output = commands_output(walkthrough(), server_url=live_server.url)
    for line in (
        '{"key":"spike","options":["mode"]}',
        '"code":"stale_revision","current_revision":1}',
        '"code":"illegal_move"',
        "304",
        '{"revision":2,"move_count":2}',
        '{"revision":3,"move_count":1}',
        '{"revision":3,"moves":["draw"]}',
        '{"status":409,"code":"confirmation_required"}',
        '"state":"finished","final_score":',
        '{"state":"finished","track":"daily","is_ranked":true}',
        '{"rank":1,"attempts":1}',
        '{"count":1,"first":"ada"}',
        '{"username":"ada","stats_visible":true,"badges":[]}',
        '"invalid_session_token"',
    ):
        assert line in output, output
