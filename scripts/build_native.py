"""Build the solvers' compiled search cores (games/engine/solvers/native/*.c) as CPython
extension modules beside the pure-Python solvers, where a C compiler and Python's headers
exist. Where they do not, say so and leave the pure-Python path, which gives the same
answers, only slower (docs/solvers.md#two-paths).

    python scripts/build_native.py [--strict]

``--strict`` fails (exit 1) when a core does not build; CI uses it so that the compiled
path is always tested there.
"""

import argparse
import shlex
import shutil
import subprocess  # nosec B404: runs the C compiler on the project's own sources
import sys
import sysconfig
from pathlib import Path

SOLVERS = Path(__file__).resolve().parents[1] / "games" / "engine" / "solvers"
SOURCES = SOLVERS / "native"
FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC"]


def target_of(source: Path) -> Path:
    return SOLVERS / f"_{source.stem}_native{sysconfig.get_config_var('EXT_SUFFIX')}"


def build(source: Path, compiler: list[str]) -> bool:
    target = target_of(source)
    # Built beside the target and renamed over it: a process that has the old module
    # loaded keeps its mapping of the old file instead of reading a half-written one.
    partial = target.with_name(target.name + ".partial")
    include = sysconfig.get_paths()["include"]
    command = [*compiler, *FLAGS, f"-I{include}", str(source), "-o", str(partial)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)  # nosec B603
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        target.unlink(missing_ok=True)
        print(f"{source.name}: not built\n{result.stderr}", file=sys.stderr)
        return False
    partial.replace(target)
    print(f"built {target.relative_to(SOLVERS.parents[2])}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strict", action="store_true", help="fail when a core does not build")
    arguments = parser.parse_args()
    sources = sorted(SOURCES.glob("*.c"))
    compiler = shlex.split(sysconfig.get_config_var("CC") or "cc")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    missing = None
    if shutil.which(compiler[0]) is None:
        missing = f"no C compiler ({compiler[0]})"
    elif not headers.exists():
        missing = f"no Python headers ({headers})"
    if missing:
        for source in sources:
            target_of(source).unlink(missing_ok=True)
        print(
            f"The solvers' compiled cores are not built: {missing}; the pure-Python solvers answer."
        )
        return 1 if arguments.strict else 0
    built = [build(source, compiler) for source in sources]
    return 1 if arguments.strict and not all(built) else 0


if __name__ == "__main__":
    sys.exit(main())
