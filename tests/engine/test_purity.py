"""games.engine is a pure library: no Django, database, network or file access."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
CLI = ENGINE / "__main__.py"

FORBIDDEN = {
    "django",
    "rest_framework",
    "celery",
    "redis",
    "psycopg",
    "sqlite3",
    "socket",
    "http",
    "urllib",
    "requests",
    "os",
    "pathlib",
    "io",
    "shutil",
    "tempfile",
    "subprocess",
    "importlib",
}
# Reading the case file and talking to the shell are the command line's job alone.
CLI_ONLY = {"sys", "json", "argparse"}


def module_package(path):
    return ".".join(path.relative_to(ENGINE.parents[1]).with_suffix("").parts[:-1])


def imported_modules(source, package):
    """Absolute names of every module some source imports, relative imports resolved
    against the package the source lives in."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                yield ".".join([*base, node.module] if node.module else base)
            else:
                yield node.module


def calls_open(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"
        for node in ast.walk(tree)
    )


def test_the_engine_has_modules():
    assert {path.name for path in MODULES} >= {"__init__.py", "klondike.py", "__main__.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_no_forbidden_imports(path):
    for name in imported_modules(path.read_text(encoding="utf-8"), module_package(path)):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {name}"
        if top == "games":
            assert name == "games.engine" or name.startswith("games.engine."), (
                f"{path.name} imports {name}, outside games.engine"
            )
        if path != CLI:
            assert top not in CLI_ONLY, f"{path.name} imports {name}; only the CLI may"


@pytest.mark.parametrize("path", [path for path in MODULES if path != CLI], ids=lambda p: p.name)
def test_only_the_cli_opens_files(path):
    assert not calls_open(path)


def test_the_checker_resolves_relative_imports():
    source = "from . import cards\nfrom .variant import Step\nfrom .. import models\n"
    assert list(imported_modules(source, "games.engine")) == [
        "games.engine",
        "games.engine.variant",
        "games",
    ]
    source = "from ..services import start"
    assert list(imported_modules(source, "games.engine")) == ["games.services"]


def test_importing_the_engine_loads_nothing_forbidden():
    """The same rule at run time, for anything the ast walk cannot see. (os, io and
    importlib are left out: the interpreter itself loads them at start-up.)"""
    check = (
        "import sys, games.engine, games.engine.replay\n"
        f"forbidden = {sorted(FORBIDDEN - {'os', 'io', 'importlib'})!r}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in forbidden))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        cwd=ENGINE.parents[1],
        timeout=60,
        check=True,
    )
    assert completed.stdout.strip() == "[]"
