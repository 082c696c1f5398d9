"""Time a move on the board in a real browser, and weigh the board partial.

    .venv/bin/python scripts/bench_board_latency.py [--rounds 20]

Starts `manage.py runserver --noreload` (config.settings.local, as `make run` serves)
on a free port with a throwaway SQLite database in a
temporary folder, deals a Klondike game from the known winning deck of the engine's
fixtures, logs a player in and drives Debian's Chromium (Playwright) at desktop size:

- two clicks: pointer down on a card (picked on the client: no request), then pointer
  down on the lit pile it goes to; timed from that second pointer down to the frame
  after htmx swapped in the new board, and from the first pointer down as well;
- a drag: pointer down on the card, moved in ten steps onto the pile, released; timed
  from the release to the frame after the swap, and from the pointer down.

Each round undoes the move (the `u` key) so that every round plays the same move.
It prints the median and the interquartile range of each figure, and the size of the
board partial (the htmx answer to the move) in bytes. Not a test: a benchmark prints
figures and asserts nothing.
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Runs in the page: the time of each pointer down and up, and of the first frame
# after each board swap.
PAGE_CLOCK = """
window.benchTimes = {down: [], up: [], swapped: []};
document.addEventListener("pointerdown", () => benchTimes.down.push(performance.now()), true);
document.addEventListener("pointerup", () => benchTimes.up.push(performance.now()), true);
document.addEventListener("htmx:afterSwap", () =>
  requestAnimationFrame(() => benchTimes.swapped.push(performance.now())));
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare(env: dict[str, str]) -> tuple[str, str, str, str]:
    """Migrate, deal the game and log the player in: (game id, session key, the move's
    source selector, its destination)."""
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from games.engine import get_variant
    from tests.games.helpers import load_fixture, start_with_deck

    call_command("migrate", verbosity=0)
    player = get_user_model().objects.create_user("bench", "bench@example.com", "x" * 20)
    game = start_with_deck(player, load_fixture("klondike_win.json")["deck"])
    klondike = get_variant("klondike")
    state = klondike.load(game.state)
    move = next(
        m
        for m in klondike.legal_moves(state)
        if m.kind == "transfer" and m.src.startswith("t") and m.dst.startswith("t")
    )
    client = Client()
    client.force_login(player)
    source = f'a.card[data-tap-source="{move.src}"][data-tap-count="{move.count}"]'
    return str(game.id), client.cookies["sessionid"].value, source, str(move.dst)


def quartiles(values: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(values, n=4)
    return f"median {median:6.1f} ms   IQR {q1:6.1f}-{q3:6.1f} ms"


def until(page, expression: str) -> None:
    """Poll the page (wait_for_function would need eval, which the CSP refuses)."""
    deadline = time.monotonic() + 10
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {expression}")
        time.sleep(0.005)


def wait_for_swaps(page, count: int) -> None:
    until(page, f"window.benchTimes.swapped.length >= {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    with tempfile.TemporaryDirectory() as folder:
        env = {
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "REDIS_URL": "",
        }
        game_id, session, source, dst = prepare(env)
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("BENCH_VERBOSE") else subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
            run(
                base,
                game_id,
                session,
                source,
                dst,
                args.rounds,
                CHROMIUM,
                CHROMIUM_ARGS,
                sync_playwright,
            )
        finally:
            server.terminate()
            server.wait(timeout=10)


def run(base, game_id, session, source, dst, rounds, chromium, chromium_args, sync_playwright):
    partial_sizes: list[int] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), headless=True, args=chromium_args
        )
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
        context.add_init_script(PAGE_CLOCK)
        page = context.new_page()

        def weigh(response):
            if response.url.endswith("/move/") and response.request.method == "POST":
                partial_sizes.append(len(response.body()))

        page.on("response", weigh)
        page.on("pageerror", lambda error: print("page error:", error, file=sys.stderr))
        page.goto(f"{base}/games/{game_id}/")
        if not page.locator("#board").count():
            raise SystemExit(f"no board at {page.url}: {page.content()[:500]}")
        target = f'.pile[data-pile="{dst}"]'
        swaps = 0
        place_ms: list[float] = []
        two_click_ms: list[float] = []
        drop_ms: list[float] = []
        drag_ms: list[float] = []
        for round_ in range(rounds * 2):
            # Measure where the cards are once they have stopped moving (the deal, the undo).
            until(page, "document.getAnimations().every((a) => a.playState === 'finished')")
            page.evaluate("window.benchTimes.down.length = 0; window.benchTimes.up.length = 0")
            card = page.locator(source).first.bounding_box()
            pile = page.locator(target).bounding_box()
            start = (card["x"] + card["width"] / 2, card["y"] + 8)
            end = (pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] - 10)
            drag = round_ % 2 == 1
            if drag:
                page.mouse.move(*start)
                page.mouse.down()
                page.mouse.move(*end, steps=10)
                page.mouse.up()
            else:
                page.mouse.click(*start)
                page.wait_for_selector(f"{target}.lit")
                page.mouse.click(*end)
            swaps += 1
            wait_for_swaps(page, swaps)
            times = page.evaluate("window.benchTimes")
            swapped = times["swapped"][-1]
            if drag:
                drop_ms.append(swapped - times["up"][0])
                drag_ms.append(swapped - times["down"][0])
            else:
                place_ms.append(swapped - times["down"][-1])
                two_click_ms.append(swapped - times["down"][0])
            page.keyboard.press("u")
            swaps += 1
            wait_for_swaps(page, swaps)
        browser.close()
    print(f"Board latency over {rounds} rounds each (Klondike, server on this machine):")
    print(f"  two clicks, second pointer down -> new board:  {quartiles(place_ms)}")
    print(f"  two clicks, first pointer down -> new board:   {quartiles(two_click_ms)}")
    print(f"  drag, pointer up (drop) -> new board:          {quartiles(drop_ms)}")
    print(f"  drag, pointer down -> new board:               {quartiles(drag_ms)}")
    print(f"Board partial after a move: median {statistics.median(partial_sizes):.0f} bytes")
    print(json.dumps({"partial_bytes": sorted(set(partial_sizes))}))


if __name__ == "__main__":
    main()
