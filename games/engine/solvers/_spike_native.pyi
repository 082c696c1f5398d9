"""The Spike solver's compiled search core (native/spike.c), built by
scripts/build_native.py; games/engine/solvers/spike.py says what it answers."""

def search(
    ranks: bytes,
    stock: bytes,
    top: int,
    wild_used: bool,
    max_nodes: int,
    max_ms: int,
    capacity: int,
    /,
) -> tuple[int, tuple[int, ...], int]: ...
