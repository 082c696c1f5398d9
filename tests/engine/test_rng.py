import hashlib
import re

import pytest

from games.engine import EngineError, full_deck, new_seed, shuffled_deck
from games.engine.rng import Sha256CounterStream

# Pinned once from the generator; any change to the generator or shuffle must fail here,
# since stored seeds have to redeal the same games forever.
# fmt: off
ARENA_TEST_0 = [
    "KC", "6C", "KD", "AD", "7D", "4C", "AC", "KH", "2S", "5H", "6D", "7C", "9C",
    "3C", "2D", "TC", "AS", "JS", "7H", "5C", "3D", "JD", "9S", "3S", "KS", "QS",
    "QC", "6S", "6H", "3H", "4D", "TH", "8C", "QH", "JH", "TS", "2H", "9D", "AH",
    "7S", "QD", "TD", "4S", "8S", "4H", "9H", "5D", "2C", "JC", "8H", "5S", "8D",
]
# fmt: on


def test_known_answer_deck():
    assert list(shuffled_deck("arena-test-0")) == ARENA_TEST_0


def test_reimplementation_from_the_documented_algorithm():
    """docs/engine.md, written out independently of games.engine.rng."""
    seed = "arena-test-0"
    stream = b"".join(hashlib.sha256(f"{seed}:{block}".encode()).digest() for block in range(8))
    words = iter(
        int.from_bytes(stream[offset : offset + 4], "big") for offset in range(0, len(stream), 4)
    )
    deck = list(full_deck())
    for i in range(51, 0, -1):
        bound = i + 1
        word = next(words)
        while word >= 2**32 - 2**32 % bound:
            word = next(words)
        j = word % bound
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == ARENA_TEST_0


def test_stream_reads_blocks_in_order_as_big_endian_words():
    stream = Sha256CounterStream("arena-test-0")
    first_block = hashlib.sha256(b"arena-test-0:0").digest()
    second_block = hashlib.sha256(b"arena-test-0:1").digest()
    words = [stream.next_word() for _ in range(9)]
    assert words[0] == int.from_bytes(first_block[:4], "big") == 0x63459281
    assert words[7] == int.from_bytes(first_block[28:], "big")
    assert words[8] == int.from_bytes(second_block[:4], "big")


def test_below_rejects_the_biased_tail():
    class FixedWords(Sha256CounterStream):
        def __init__(self, words):
            super().__init__("unused")
            self.words = iter(words)

        def next_word(self):
            return next(self.words)

    # 2**32 % 3 == 1, so the single word 2**32 - 1 would favour 0 and must be skipped.
    assert FixedWords([2**32 - 1, 7]).below(3) == 1
    assert FixedWords([2**32 - 2]).below(3) == (2**32 - 2) % 3


def test_shuffle_is_deterministic_and_a_permutation():
    assert shuffled_deck("some seed") == shuffled_deck("some seed")
    assert sorted(shuffled_deck("some seed")) == sorted(full_deck())
    assert shuffled_deck("some seed") != shuffled_deck("some seed ")


def test_seed_text_is_utf8():
    assert sorted(shuffled_deck("pâtisserie ♠")) == sorted(full_deck())


@pytest.mark.parametrize("bad", ["", None, 12])
def test_bad_seed(bad):
    with pytest.raises(EngineError, match="seed"):
        shuffled_deck(bad)


def test_new_seed_is_32_hex_digits_and_fresh():
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(re.fullmatch(r"[0-9a-f]{32}", seed) for seed in seeds)
