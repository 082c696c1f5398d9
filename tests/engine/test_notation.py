import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, Move, format_move, parse_move
from games.engine.notation import (
    FOUNDATION,
    FOUNDATION_SOURCES,
    MAX_COUNT,
    RESERVE_PLACES,
    TABLEAU_PLACES,
    WASTE,
)

CANONICAL = [
    ("draw", Move("draw")),
    ("recycle", Move("recycle")),
    ("deal", Move("deal")),
    ("wild", Move("wild")),
    ("9D", Move("play", card="9D")),
    ("TS", Move("play", card="TS")),
    ("w-t3", Move("transfer", "w", "t3")),
    ("w-f", Move("transfer", "w", "f")),
    ("t1-f", Move("transfer", "t1", "f")),
    ("t3-t5", Move("transfer", "t3", "t5")),
    ("t2-t7/4", Move("transfer", "t2", "t7", 4)),
    ("t7-t1/13", Move("transfer", "t7", "t1", 13)),
    ("fS-t3", Move("transfer", "fS", "t3")),
    ("fC-r2", Move("transfer", "fC", "r2")),
    ("r1-t4", Move("transfer", "r1", "t4")),
    ("t6-r4", Move("transfer", "t6", "r4")),
    ("r4-f", Move("transfer", "r4", "f")),
]


@pytest.mark.parametrize(("text", "move"), CANONICAL)
def test_canonical_strings_round_trip(text, move):
    assert parse_move(text) == move
    assert format_move(move) == text


def test_count_of_one_is_left_out():
    assert parse_move("t3-t5/1") == Move("transfer", "t3", "t5", 1)
    assert format_move(parse_move("t3-t5/1")) == "t3-t5"
    assert format_move(parse_move("w-t1/1")) == "w-t1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty string"),
        ("t8-t1", "tableau piles are t1 to t7"),
        ("t0-t1", "tableau piles are t1 to t7"),
        ("t1-t8", "tableau piles are t1 to t7"),
        ("r5-t1", "reserve slots are r1 to r4"),
        ("x-t1", "'x' is not a place"),
        ("t1-t1", "onto itself"),
        ("r2-r2", "onto itself"),
        ("t1-t2/0", "whole number of cards from 1"),
        ("t1-t2/-1", "whole number of cards from 1"),
        ("t1-t2/ab", "whole number of cards from 1"),
        ("t1-t2/", "whole number of cards from 1"),
        ("t1-t2/01", "without leading zeros"),
        ("t1-t2/53", "from 1 to 52"),
        ("t1-t2/" + "9" * 5000, "from 1 to 52"),
        ("w-t1/2", "only a tableau pile moves several cards"),
        ("fS-t1/2", "only a tableau pile moves several cards"),
        ("r1-t1/2", "only a tableau pile moves several cards"),
        ("f-t1", "needs its suit"),
        ("t1-fS", "plain 'f'"),
        ("t1-w", "the waste is not a destination"),
        ("fH-f", "foundation card to a foundation"),
        ("-t1", "has no source"),
        ("t1-", "has no destination"),
        ("t1-t2-t3", "not a place"),
        ("ZZ", "is not a move"),
        ("1D", "is not a move"),
        ("9d", "is not a move"),
        ("Draw", "is not a move"),
        (" draw", "is not a move"),
        ("T1-T2", "not a place"),
    ],
)
def test_malformed_strings_are_refused_clearly(text, message):
    with pytest.raises(EngineError, match=message) as caught:
        parse_move(text)
    assert "\n" not in str(caught.value)


def test_parse_refuses_non_strings():
    with pytest.raises(EngineError, match="must be written as a string"):
        parse_move(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "move",
    [
        Move("draw", src="t1"),
        Move("transfer", "t1", "t1"),
        Move("transfer", "w", "t1", 2),
        Move("transfer", "t1", "t2", 0),
        Move("transfer", "t1", None),
        Move("play", card="1D"),
        Move("shuffle"),
        Move("transfer", "t1", "t2", card="AS"),
        Move("transfer", "t1", "t2", [1]),  # type: ignore[arg-type]
    ],
)
def test_format_refuses_moves_the_notation_cannot_hold(move):
    with pytest.raises(EngineError, match="Not a valid move"):
        format_move(move)


sources = st.sampled_from([WASTE, *TABLEAU_PLACES, *FOUNDATION_SOURCES, *RESERVE_PLACES])
destinations = st.sampled_from([FOUNDATION, *TABLEAU_PLACES, *RESERVE_PLACES])


@st.composite
def transfers(draw):
    src = draw(sources)
    dst = draw(destinations.filter(lambda place: place != src))
    if src in FOUNDATION_SOURCES and dst == FOUNDATION:
        dst = "t1"
    count = draw(st.integers(1, MAX_COUNT)) if src in TABLEAU_PLACES else 1
    return Move("transfer", src, dst, count)


any_move = st.one_of(
    st.sampled_from([Move("draw"), Move("recycle"), Move("deal"), Move("wild")]),
    st.builds(
        lambda rank, suit: Move("play", card=rank + suit),
        st.sampled_from("A23456789TJQK"),
        st.sampled_from("SHDC"),
    ),
    transfers(),
)


@settings(max_examples=100, deadline=None)
@given(any_move)
def test_every_move_round_trips(move):
    text = format_move(move)
    assert parse_move(text) == move
    assert format_move(parse_move(text)) == text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="wtfrSHDC0123456789/-xAKQJT ", max_size=8))
def test_parse_either_returns_a_canonical_move_or_raises_the_engine_error(text):
    try:
        move = parse_move(text)
    except EngineError:
        return
    assert parse_move(format_move(move)) == move
