"""The verification after scripts/bench_http.py's phases: what the players did, checked
against the database, the worker's work and Redis, while the nodes still run.

Each check is printed PASSED or FAILED with its figures (or SKIPPED where the stack
lacks what it checks: the ranks without Redis, the sockets on gunicorn)."""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench_http_client import Board, Connections, Nodes, Player, board_read, refusal_code

RACED_GAMES = 4
"""Games whose one move is sent to both nodes at once."""
WORKER_WAIT_SECONDS = 60
"""How long the worker has to run the tasks the closed games enqueued."""


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool | None
    """None: skipped, the stack lacks what it checks."""
    figures: str

    def line(self) -> str:
        verdict = {True: "PASSED", False: "FAILED", None: "SKIPPED"}[self.passed]
        return f"  {verdict}  {self.name}: {self.figures}"


def verified(players: list[Player], nodes: Nodes, *, sockets: bool) -> bool:
    """Every check run and printed; whether none failed."""
    from bench_http_sockets import push_crosses_nodes

    lock = move_lock_held(players, nodes)
    worker_waited = worker_caught_up(players)
    checks = [
        moves_counted(players),
        replays_match(players),
        sessions_served(players, nodes),
        lock,
        tasks_run(players, worker_waited),
        ranks_agree(players),
        push_crosses_nodes(nodes) if sockets else Check("sockets", None, "gunicorn serves none"),
    ]
    print("Verification:")
    for check in checks:
        print(check.line())
    return all(check.passed is not False for check in checks)


def games_of(players: list[Player]) -> dict[str, Any]:
    """The players' games in the database, by id."""
    from games.models import Game

    ids = [board.game_id for player in players for board in player.every_board()]
    return {str(game.id): game for game in Game.objects.filter(id__in=ids)}


def moves_counted(players: list[Player]) -> Check:
    """(a) No move lost, none applied twice, none refused."""
    games = games_of(players)
    boards = [board for player in players for board in player.every_board()]
    wrong = [
        f"{board.variant} {board.game_id[:8]}: {games[board.game_id].move_count} stored, "
        f"{board.accepted} accepted"
        for board in boards
        if games[board.game_id].move_count != board.accepted
    ]
    accepted = sum(board.accepted for board in boards)
    refused = sum(board.refused for board in boards)
    figures = (
        f"{len(boards)} games, {accepted} moves accepted, every move count equal; "
        f"{refused} legal moves refused"
    )
    if wrong:
        figures = f"{len(wrong)} of {len(boards)} games differ ({'; '.join(wrong[:5])})"
    return Check("moves counted", not wrong and not refused, figures)


def replay_mismatch(game: Any) -> str | None:
    """What differs between the game's stored position and its move log played from
    the deal, or None. A closed game is verified as the review verifies it."""
    from reviews.replays import replay_game, verify_game

    if not game.is_active:
        outcome = verify_game(game)
        return None if outcome.ok else outcome.details
    run = replay_game(game)
    if run.error is not None:
        return run.error.sentence()
    if not run.applied == game.move_count == len(game.move_log):
        return f"{game.move_count} moves stored, {run.applied} replayed"
    if run.variant.load(game.state) != run.state:
        return "the stored position differs from the replayed one"
    return None


def replays_match(players: list[Player]) -> Check:
    """(b) Every game replays to the position it stored."""
    games = games_of(players)
    mismatches = {
        game_id: found
        for game_id, game in games.items()
        if (found := replay_mismatch(game)) is not None
    }
    figures = f"{len(games) - len(mismatches)} of {len(games)} games replay to their position"
    if mismatches:
        game_id, found = next(iter(mismatches.items()))
        figures += f" (first mismatch, {game_id[:8]}: {found})"
    return Check("replays", not mismatches, figures)


def sessions_served(players: list[Player], nodes: Nodes) -> Check:
    """(c) Each session, made once, is read on every node."""
    per_node = nodes.per_node()
    everywhere = sum(
        all(nodes.requests[player.number, node] for node in range(len(nodes.ports)))
        for player in players
    )
    figures = (
        f"requests per node {' / '.join(map(str, per_node))}; {everywhere} of "
        f"{len(players)} players served on every node; {nodes.signed_out} answers signed out"
    )
    return Check("sessions", everywhere == len(players) and not nodes.signed_out, figures)


def raced(nodes: Nodes, player: Player, board: Board, move: str) -> tuple[list[str], str]:
    """The same move with the same revision sent to two nodes at the same instant;
    the two answers' outcomes ("played", a refusal's code, or the status of another
    answer) and the played one's board."""
    barrier = threading.Barrier(2)
    answers: list[tuple[str, str]] = []

    def send(node: int) -> None:
        connections = Connections(nodes)
        connections.open[node].connect()
        form = {"move": move, "revision": str(board.revision)}
        barrier.wait()
        status, headers, html = connections.send(
            player, "POST", f"/games/{board.game_id}/move/", form, node=node
        )
        outcome = (refusal_code(headers) or "played") if status == 200 else f"status {status}"
        answers.append((outcome, html))

    threads = [threading.Thread(target=send, args=(node % len(nodes.ports),)) for node in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    played = next((html for outcome, html in answers if outcome == "played"), answers[0][1])
    return sorted(outcome for outcome, _ in answers), played


def move_lock_held(players: list[Player], nodes: Nodes) -> Check:
    """(d) One move sent to both nodes at once is played once, the other refused as
    stale."""
    from games.models import Game

    outcomes = []
    for player in players[:RACED_GAMES]:
        board = next(
            (board for board in player.boards if board.status == "active" and board.moves),
            None,
        )
        if board is None:
            continue
        before = Game.objects.get(id=board.game_id).move_count
        answered, html = raced(nodes, player, board, board.moves[0])
        if "played" in answered:
            board.accepted += 1
        board_read(board, html)
        risen = Game.objects.get(id=board.game_id).move_count - before
        outcomes.append((answered, risen))
    held = sum(
        answered == ["played", "stale_revision"] and risen == 1 for answered, risen in outcomes
    )
    figures = f"{held} of {len(outcomes)} raced moves played once (one played, one stale, +1 move)"
    if held < len(outcomes):
        figures += f": {outcomes}"
    return Check("move lock", bool(outcomes) and held == len(outcomes), figures)


@dataclass(frozen=True)
class WorkerWork:
    closed: int
    verified: int
    verified_ok: int
    evaluated: int


def worker_work(players: list[Player]) -> WorkerWork:
    """What the tasks of the players' closed games have written so far."""
    from achievements.models import Evaluation
    from reviews.models import Verification

    closed = [game_id for game_id, game in games_of(players).items() if not game.is_active]
    verifications = Verification.objects.filter(game_id__in=closed, automatic=True)
    return WorkerWork(
        closed=len(closed),
        verified=verifications.count(),
        verified_ok=verifications.filter(ok=True).count(),
        evaluated=Evaluation.objects.filter(game_id__in=closed).count(),
    )


def waited(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def worker_caught_up(players: list[Player]) -> float:
    """Seconds until the worker had reviewed and evaluated every closed game and
    published every listed daily result (up to WORKER_WAIT_SECONDS)."""
    began = time.monotonic()

    def done() -> bool:
        work = worker_work(players)
        return work.verified == work.evaluated == work.closed and not unpublished(players)

    waited(done, WORKER_WAIT_SECONDS)
    return time.monotonic() - began


def tasks_run(players: list[Player], seconds: float) -> Check:
    """(e) The worker ran the tasks every closed game enqueued: its review by replay
    (a Verification, which must match) and its achievements (an Evaluation)."""
    work = worker_work(players)
    figures = (
        f"{work.closed} closed games: {work.verified} verified by the worker's replay "
        f"({work.verified_ok} matched), {work.evaluated} evaluated for achievements, "
        f"after {seconds:.1f} s"
    )
    passed = work.closed > 0 and work.verified == work.verified_ok == work.evaluated == work.closed
    return Check("tasks", passed, figures)


def daily_results(players: list[Player]) -> list[Any]:
    from leaderboards.models import Result

    ids = [board.game_id for player in players for board in player.boards if board.daily]
    return list(Result.objects.filter(game_id__in=ids).select_related("daily_deal", "player"))


def redis_rank(result: Any) -> int | None:
    from leaderboards import redis_ranks

    found = redis_ranks.rank_of(result.daily_deal_id, result.player_id)
    return None if found is None else found[0]


def database_rank(result: Any) -> int | None:
    """The rank the database gives (the pages' answer while Redis is away)."""
    from django.test import override_settings

    from leaderboards.selectors import player_rank

    with override_settings(REDIS_URL=""):
        return player_rank(deal=result.daily_deal, player=result.player)


def unpublished(players: list[Player]) -> int:
    """Listed daily results not yet in the live ranks (0 without Redis)."""
    from leaderboards import redis_ranks

    if not redis_ranks.enabled():
        return 0
    return sum(result.listed and redis_rank(result) is None for result in daily_results(players))


def ranks_agree(players: list[Player]) -> Check:
    """(f) The live rank of every ranked daily result is the database's."""
    from leaderboards import redis_ranks

    if not redis_ranks.enabled():
        return Check("ranks", None, "no Redis: the ranks are the database's")
    results = daily_results(players)
    pairs = [(redis_rank(result), database_rank(result)) for result in results]
    differ = [pair for pair in pairs if pair[0] != pair[1]]
    listed = sum(result.listed for result in results)
    figures = (
        f"{len(results)} ranked daily results ({listed} listed): Redis's rank equals the "
        f"database's for {len(pairs) - len(differ)}"
    )
    if differ:
        figures += f" (Redis, database: {differ[:5]})"
    return Check("ranks", listed > 0 and not differ, figures)
