"""The deterministic shuffle: the same seed gives the same deck on every platform.

``random`` is not used because its algorithms are not promised to stay the same across
Python versions, and a stored seed must redeal the same game forever. docs/engine.md
describes the generator exactly so that it can be reimplemented in another language.
"""

import hashlib
import secrets

from .cards import full_deck
from .errors import EngineError

_WORD_BYTES = 4
_WORD_RANGE = 1 << 32


class Sha256CounterStream:
    """SHA-256 in counter mode: block k is sha256(f"{seed}:{k}" in UTF-8), k = 0, 1, ...

    The blocks' bytes are consumed in order, four at a time as big-endian unsigned words.
    """

    __slots__ = ("_block", "_counter", "_offset", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._counter = 0
        self._block = b""
        self._offset = 0

    def next_word(self) -> int:
        if self._offset == len(self._block):
            self._block = hashlib.sha256(f"{self._seed}:{self._counter}".encode()).digest()
            self._counter += 1
            self._offset = 0
        word = self._block[self._offset : self._offset + _WORD_BYTES]
        self._offset += _WORD_BYTES
        return int.from_bytes(word, "big")

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), by rejection sampling so that no value is
        favoured: words at or above the largest multiple of ``bound`` are thrown away."""
        if not 0 < bound <= _WORD_RANGE:
            raise ValueError(f"bound out of range: {bound}")
        limit = _WORD_RANGE - _WORD_RANGE % bound
        while True:
            word = self.next_word()
            if word < limit:
                return word % bound


def shuffled_deck(seed: str) -> tuple[str, ...]:
    """The deck for a seed: Fisher-Yates over the suit-major ordered deck, i from 51 down
    to 1, swapping deck[i] with deck[below(i + 1)]."""
    return _shuffled(full_deck(), seed)


def shuffled_double_deck(seed: str) -> tuple[str, ...]:
    """The 104 cards of two decks for a seed (the Steps Duel): the same Fisher-Yates and
    generator as ``shuffled_deck``, over two suit-major ordered decks one after the
    other, i from 103 down to 1. Each card code appears twice."""
    return _shuffled(full_deck() * 2, seed)


def _shuffled(ordered: tuple[str, ...], seed: str) -> tuple[str, ...]:
    if not isinstance(seed, str) or not seed:
        raise EngineError("A seed must be a non-empty string")
    stream = Sha256CounterStream(seed)
    deck = list(ordered)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def new_seed() -> str:
    """A fresh seed from the operating system's generator; never derived from the time,
    so deals cannot be predicted."""
    return secrets.token_hex(16)
