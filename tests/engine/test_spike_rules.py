"""Each rule of spike.txt, as docs/rules/spike.md decides it, on small positions."""

import pytest

from games.engine import EngineError, Move, card_name, full_deck, shuffled_deck
from games.engine.spike import (
    COVERS,
    PLACES,
    SPIKE_ROWS,
    SPIKE_SPANS,
    WILD_MARK,
    bracket,
    is_exposed,
    neighbours,
    summit_badge,
)

from .test_spike_helpers import SPIKE, SPIKE_SIZES, cards, deck_for, make_state

# A position with plenty left everywhere: spike 3 holds a run 4H..7H along its bottom
# row, spike 2 8H 9H TH and spike 4 JH QH KH; the other cards are covered.
RUNS = [
    "AD | 2D 3D",
    "4D | 5D 6D | 8H 9H TH",
    "AS | 2S 3S | 4S 5S 6S | 4H 5H 6H 7H",
    "7D | 8D 9D | JH QH KH",
    "TD | JD QD",
]


def play(state, text):
    return SPIKE.play(state, text)


def play_all(state, texts):
    steps = []
    for text in texts.split():
        steps.append(play(state, text))
        state = steps[-1].state
    return steps


def refused(state, text, message):
    with pytest.raises(EngineError, match=message):
        SPIKE.play(state, text)


# The layout


def test_five_spikes_of_2_3_4_3_2_rows_hold_3_6_10_6_3_cards():
    assert SPIKE_ROWS == (2, 3, 4, 3, 2)
    assert tuple(len(span) for span in SPIKE_SPANS) == (3, 6, 10, 6, 3) == SPIKE_SIZES
    view = SPIKE.public_view(SPIKE.deal(shuffled_deck("layout")))
    assert [[len(row) for row in spike["rows"]] for spike in view["spikes"]] == [
        [1, 2],
        [1, 2, 3],
        [1, 2, 3, 4],
        [1, 2, 3],
        [1, 2],
    ]
    assert [spike["index"] for spike in view["spikes"]] == [1, 2, 3, 4, 5]


def test_each_card_is_covered_by_the_two_just_below_it_in_its_own_spike():
    for position, (spike, row, column) in enumerate(PLACES):
        if row == SPIKE_ROWS[spike] - 1:
            assert COVERS[position] == ()
        else:
            assert [PLACES[cover] for cover in COVERS[position]] == [
                (spike, row + 1, column),
                (spike, row + 1, column + 1),
            ]


def test_the_deal_fills_spikes_left_to_right_rows_top_down_from_deck_0():
    deck = shuffled_deck("deal-order")
    state = SPIKE.deal(deck)
    assert state.spikes == tuple(deck[:28])
    assert PLACES[0] == (0, 0, 0)  # deck[0]: the top of spike 1
    assert PLACES[1:3] == ((0, 1, 0), (0, 1, 1))
    assert PLACES[3] == (1, 0, 0)  # deck[3]: the top of spike 2
    assert PLACES[27] == (4, 1, 1)  # deck[27]: the bottom-right card of spike 5
    # The stock is drawn from the end of the deck; its first card starts the waste.
    assert state.waste == (deck[51],)
    assert len(state.stock) == 23
    assert state.stock == tuple(deck[28:51])
    assert state.stock[-1] == deck[50]
    assert (state.streak, state.score, state.wild_used, state.mode) == (0, 0, False, "classic")


def test_the_bottom_rows_start_face_up_and_only_they():
    deck = shuffled_deck("face-up")
    state = SPIKE.deal(deck)
    view = SPIKE.public_view(state)
    shown = [
        place["card"]
        for spike in view["spikes"]
        for row in spike["rows"]
        for place in row
        if place["face_up"]
    ]
    bottoms = [
        deck[position]
        for position, (spike, row, _) in enumerate(PLACES)
        if row == SPIKE_ROWS[spike] - 1
    ]
    assert len(bottoms) == 14
    assert shown == bottoms
    for spike in view["spikes"]:
        for row in spike["rows"][:-1]:
            assert all(
                place == {"card": None, "face_up": False, "exposed": False, "gone": False}
                for place in row
            )


def test_a_card_is_exposed_only_when_both_cards_covering_it_are_gone():
    state = make_state(["5C | 5D 6H"], stock="KS", waste="6S")
    refused(state, "5C", "The 5 of clubs is not an exposed spike card")
    step = play(state, "5D")
    assert step.revealed == ()
    assert not is_exposed(step.state.spikes, 0)
    refused(step.state, "5C", "not an exposed spike card")
    step = play(step.state, "6H")
    assert step.revealed == ("5C",)
    assert is_exposed(step.state.spikes, 0)
    top = SPIKE.public_view(step.state)["spikes"][0]["rows"][0][0]
    assert top == {"card": "5C", "face_up": True, "exposed": True, "gone": False}
    assert play(step.state, "5C").state.spikes[0] is None


def test_a_middle_card_waits_for_both_of_its_covers():
    # Spike 3, row 3, middle card 5S is covered by 5H and 6H of the bottom row.
    state = make_state(["", "", "AS | 2S 3S | 4S 5S 6S | . 5H 6H 7H"], stock="KS", waste="4C")
    steps = play_all(state, "5H 6H")
    assert steps[0].revealed == ("4S",)  # its other cover, 4H, was gone already
    assert steps[1].revealed == ("5S",)
    view = SPIKE.public_view(steps[1].state)["spikes"][2]
    assert [place["card"] for place in view["rows"][2]] == ["4S", "5S", None]
    assert [place["gone"] for place in view["rows"][3]] == [True, True, True, False]


def test_a_revealed_card_plays_at_once():
    state = make_state(["9C | 8D 7D", "AS | 2S 3S | 4S 5S 6S"], stock="KS", waste="6S")
    state = play_all(state, "7D 8D")[-1].state
    step = play(state, "9C")
    assert step.points == 150 + 1000  # third of the streak, and spike 1 is empty
    assert step.state.waste == cards("6S 7D 8D 9C")


# Playing to the waste


@pytest.mark.parametrize("card", ["8S", "8H", "8D", "8C", "TS", "TH", "TD", "TC"])
def test_one_rank_above_or_below_of_any_suit_plays(card):
    state = make_state([f"AD | {card} 2D"], stock="KS", waste="9H")
    step = play(state, card)
    assert step.state.waste == ("9H", card)
    assert step.state.spikes[1] is None
    assert step.points == 100


@pytest.mark.parametrize(("card", "top"), [("AS", "KH"), ("KS", "AH"), ("2C", "AD"), ("QD", "KC")])
def test_king_and_ace_are_neighbours_both_ways(card, top):
    assert neighbours(card, top)
    state = make_state([f"5D | {card} 6D"], stock="9S", waste=top)
    assert play(state, card).state.waste[-1] == card


def test_a_chain_wraps_through_king_and_ace():
    state = make_state(["", "", "5S | 6S 7S | 8S 9S TS | QH KH AH 2H"], stock="9C", waste="JC")
    steps = play_all(state, "QH KH AH 2H")
    assert steps[-1].state.waste == cards("JC QH KH AH 2H")
    state = make_state(["", "", "5S | 6S 7S | 8S 9S TS | 2H AH KH QH"], stock="9C", waste="3C")
    assert play_all(state, "2H AH KH QH")[-1].state.streak == 4


@pytest.mark.parametrize(("card", "top"), [("9D", "3C"), ("3D", "3C"), ("QD", "AC"), ("2S", "KC")])
def test_anything_else_is_refused_with_readable_names(card, top):
    state = make_state([f"AD | {card} 4D"], stock="KS", waste=top)
    refused(
        state,
        card,
        f"The {card_name(card)} cannot go on the {card_name(top)}: it must be one rank above "
        "or below",
    )


@pytest.mark.parametrize("card", ["KS", "3C", "AD", "JH"])
def test_a_card_off_the_spikes_or_covered_is_not_an_exposed_spike_card(card):
    # KS in the stock, 3C the waste top, AD covered, JH nowhere: the same words for each,
    # so a refusal never tells where a face-down card is.
    state = make_state(["AD | 2D 4D"], stock="KS", waste="3C")
    with pytest.raises(EngineError) as error:
        play(state, card)
    assert str(error.value) == f"The {card_name(card)} is not an exposed spike card"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("t1-t2", "Spike has no tableau piles"),
        ("w-t3", "Spike has no tableau piles"),
        ("t1-f", "Spike has no tableau piles"),
        ("r1-t1", "Spike has no tableau piles"),
        ("recycle", "Spike has no 'recycle' move"),
        ("deal", "Spike has no 'deal' move"),
    ],
)
def test_moves_of_other_games_are_refused(text, message):
    refused(make_state(["AD | 2D 4D"], stock="KS"), text, message)


def test_apply_never_mutates_the_state_it_is_given():
    state = make_state(RUNS, stock="KS QS", waste="3C")
    before = (state.spikes, state.stock, state.waste, state.streak, state.score)
    play(state, "4H")
    play(state, "draw")
    play(state, "wild")
    assert (state.spikes, state.stock, state.waste, state.streak, state.score) == before


# Drawing


def test_draw_turns_the_next_stock_card_and_ends_the_streak():
    state = make_state(RUNS, stock="KS QS", waste="3C", streak=4, score=500)
    step = play(state, "draw")
    assert step.state.waste == cards("3C QS")
    assert step.state.stock == ("KS",)
    assert step.revealed == ("QS",)
    assert step.state.streak == 0
    assert step.points == 0
    assert step.state.score == 500
    assert play(step.state, "JH").points == 100


def test_draw_may_be_used_while_plays_are_left():
    state = make_state(RUNS, stock="KS", waste="3C")
    assert Move("play", card="4H") in SPIKE.legal_moves(state)
    assert play(state, "draw").state.waste[-1] == "KS"


def test_an_empty_stock_cannot_draw():
    refused(make_state(RUNS, waste="3C"), "draw", "The stock is empty: there is nothing left")
    assert Move("draw") not in SPIKE.legal_moves(make_state(RUNS, waste="3C"))


# The wild card


def test_the_wild_card_goes_on_the_waste_and_takes_any_exposed_card():
    state = make_state(RUNS, stock="KS", waste="3C", streak=2, score=200)
    step = play(state, "wild")
    assert step.state.waste == ("3C", WILD_MARK)
    assert step.state.wild_used
    assert (step.points, step.state.score, step.state.streak) == (0, 200, 2)
    assert step.revealed == ()
    view = SPIKE.public_view(step.state)
    assert view["waste"] == {"count": 2, "top": None, "top_is_wild": True}
    assert view["wild"] == {"available": False}
    exposed = [
        place["card"]
        for spike in view["spikes"]
        for row in spike["rows"]
        for place in row
        if place["exposed"]
    ]
    assert view["playable"] == exposed
    assert len(exposed) == 14
    # Any exposed card, here a 9 on a 3, is played on it, and counts as the next card of
    # the streak; the rank rules go on from that card.
    step = play(step.state, "9H")
    assert step.state.waste == ("3C", WILD_MARK, "9H")
    assert (step.points, step.state.streak) == (150, 3)
    refused(step.state, "4H", "The 4 of hearts cannot go on the 9 of hearts")
    assert play(step.state, "TH").state.waste[-1] == "TH"


def test_the_wild_card_is_used_once_per_game():
    state = make_state(RUNS, stock="KS", waste="3C")
    state = play(state, "wild").state
    refused(state, "wild", "The wild card is already on the waste")
    assert Move("wild") not in SPIKE.legal_moves(state)
    state = play(state, "4H").state
    refused(state, "wild", "The wild card has already been used: there is one per game")
    assert Move("wild") not in SPIKE.legal_moves(state)


def test_drawing_onto_the_wild_card_is_allowed_and_ends_the_streak():
    state = play(make_state(RUNS, stock="KS", waste="3C", streak=3), "wild").state
    step = play(state, "draw")
    assert step.state.waste == ("3C", WILD_MARK, "KS")
    assert step.state.streak == 0


# The Summit ledger


@pytest.mark.parametrize(
    ("place", "name", "points"),
    [
        (1, "Standard Play", 100),
        (2, "Standard Play", 100),
        (3, "Ascent Streak", 150),
        (4, "Ascent Streak", 150),
        (5, "Summit Surge", 200),
        (6, "Summit Surge", 200),
        (7, "Summit Surge", 200),
        (8, "Avalanche Chain", 300),
        (9, "Avalanche Chain", 300),
        (25, "Avalanche Chain", 300),
    ],
)
def test_each_card_scores_by_its_place_in_the_streak(place, name, points):
    assert bracket(place) == (name, points)
    state = make_state(RUNS, stock="KS", waste="3C", streak=place - 1, score=1000)
    assert SPIKE.public_view(state)["bracket"] == {"name": name, "points": points}
    step = play(state, "4H")
    assert step.points == points
    assert step.state.score == 1000 + points
    assert step.state.streak == place


def test_a_chain_of_nine_climbs_every_bracket():
    state = make_state(RUNS, stock="KS", waste="3C")
    steps = play_all(state, "4H 5H 6H 7H 8H 9H TH JH QH")
    assert [step.points for step in steps] == [100, 100, 150, 150, 200, 200, 200, 300, 300]
    assert [step.state.streak for step in steps] == list(range(1, 10))
    assert steps[-1].state.score == 1700
    assert SPIKE.score(steps[-1].state) == 1700


def test_the_streak_starts_again_after_a_draw():
    state = make_state(RUNS, stock="2C 3S", waste="3C")
    steps = play_all(state, "4H 5H 6H draw")
    assert steps[-1].state.streak == 0
    steps = play_all(steps[-1].state, "2D")
    assert steps[0].points == 100


@pytest.mark.parametrize("spike", [1, 2, 3, 4, 5])
def test_emptying_a_spike_earns_1000(spike):
    texts = ["AD | 2D 4D", "AS | 2S 3S | 4S 5S 6S", "AH | 2H 3H | 4H 5H 6H | 7H 8H 9H TH"]
    texts += ["AC | 2C 3C | 4C 5C 6C", "8S | 9S TS"]
    sizes = [3, 6, 10, 6, 3]
    # Spike N keeps only its top card, the 9 of clubs.
    texts[spike - 1] = "9C" + " ." * (sizes[spike - 1] - 1)
    state = make_state(texts, stock="KS", waste="8C", streak=2)
    step = play(state, "9C")
    assert step.points == 150 + 1000
    assert step.events == (f"spike_cleared:{spike}",)
    view = SPIKE.public_view(step.state)
    assert [item["cleared"] for item in view["spikes"]] == [
        number == spike for number in range(1, 6)
    ]
    assert view["spikes_cleared"] == 1
    assert all(place["gone"] for row in view["spikes"][spike - 1]["rows"] for place in row)


def test_the_last_card_wins_with_500_for_each_card_left_in_the_stock():
    state = make_state(["", "", "", "", "JC | . ."], stock="2S 3S 4S 5S 6S 7S 8S", waste="QC")
    step = play(state, "JC")
    assert step.won
    assert not step.lost
    assert step.points == 100 + 1000 + 7 * 500
    assert step.state.score == 4600
    assert step.events == ("spike_cleared:5", "won")
    assert SPIKE.status(step.state) == "won"
    assert SPIKE.is_won(step.state)
    assert SPIKE.legal_moves(step.state) == []
    refused(step.state, "draw", "The game is already won: every spike is cleared")
    refused(step.state, "wild", "already won")


def test_a_win_with_an_empty_stock_earns_no_stock_bonus():
    state = make_state(["", "", "", "", "JC | . ."], waste="QC W")
    step = play(state, "JC")
    assert step.won
    assert step.points == 100 + 1000


# Winning and losing


def test_the_game_is_lost_when_stock_and_wild_are_spent_and_nothing_plays():
    state = make_state(["AD | 2D 4D", "5S | 6S 9S | JS QS KS"], stock="8C", waste="W 5C")
    assert SPIKE.status(state) == "in_progress"
    step = play(state, "draw")
    assert step.lost
    assert not step.won
    assert step.events == ("lost",)
    assert SPIKE.status(step.state) == "lost"
    assert SPIKE.is_lost(step.state)
    view = SPIKE.public_view(step.state)
    assert view["status"] == "lost"
    assert view["lost_reason"] == (
        "The stock is empty, the wild card is spent and no exposed card can go on the 8 of clubs"
    )
    assert view["playable"] == []
    assert SPIKE.legal_moves(step.state) == []
    refused(step.state, "9S", "The game is over: The stock is empty")


def test_a_play_can_lose_the_game():
    state = make_state(["AD | 2D 4D", "5S | 6S 9S | JS QS KS"], waste="W 3C")
    step = play(state, "4D")
    assert step.lost
    assert step.events == ("lost",)
    assert step.points == 100


def test_the_game_is_not_lost_while_the_wild_card_or_the_stock_is_left():
    stuck = ["AD | 2D 4D", "5S | 6S 9S | JS QS KS"]
    assert SPIKE.status(make_state(stuck, waste="8C")) == "in_progress"
    assert SPIKE.public_view(make_state(stuck, waste="8C"))["lost_reason"] is None
    assert SPIKE.status(make_state(stuck, stock="7C", waste="W 8C")) == "in_progress"
    assert SPIKE.legal_moves(make_state(stuck, waste="8C")) == [Move("wild")]
    assert SPIKE.legal_moves(make_state(stuck, stock="7C", waste="W 8C")) == [Move("draw")]
    assert SPIKE.status(make_state(stuck, waste="W 8C")) == "lost"


# Badges


@pytest.mark.parametrize(
    ("cleared", "stock", "badge"),
    [
        (0, 23, None),
        (2, 23, None),
        (3, 0, "bronze"),
        (4, 23, "bronze"),
        (5, 0, "silver"),
        (5, 10, "silver"),
        (5, 11, "gold"),
        (5, 23, "gold"),
    ],
)
def test_summit_badges(cleared, stock, badge):
    left = ["AD | 2D 4D", "AS | 2S 3S | 4S 5S 6S", "AH | 2H 3H | 4H 5H 6H | 7H 8H 9H TH"]
    left += ["AC | 2C 3C | 4C 5C 6C", "8S | 9S TS"]
    texts = [""] * cleared + left[cleared:]
    named = {card for text in left for card in cards(text.replace("|", " "))}
    spare = [card for card in full_deck() if card not in named]
    state = make_state(texts, stock=" ".join(spare[:stock]))
    assert len(state.stock) == stock
    assert summit_badge(state) == badge
    assert SPIKE.public_view(state)["badge"] == badge


# Modes


def test_relaxed_draws_do_not_end_the_streak():
    state = make_state(RUNS, stock="KS 2C", waste="3C", mode="relaxed")
    steps = play_all(state, "4H 5H 6H draw 3D")
    assert steps[3].state.streak == 3
    assert steps[4].points == 150
    assert steps[4].state.streak == 4
    assert steps[4].state.time_bonus_seconds == 0


@pytest.mark.parametrize(
    ("mode", "seconds"),
    [
        # Places 1, 2, 3, 4, a draw, then places 1 and 2 again.
        ("time_attack", [0, 0, 2, 4, 4, 4, 4]),
        ("classic", [0] * 7),
        # Relaxed keeps the streak through the draw (places 5 and 6) but has no clock.
        ("relaxed", [0] * 7),
    ],
)
def test_time_attack_adds_2_seconds_from_the_third_card_of_a_streak(mode, seconds):
    state = make_state(RUNS, stock="KS 2C", waste="3C", mode=mode)
    steps = play_all(state, "4H 5H 6H 7H draw 3D 2D")
    assert [step.state.time_bonus_seconds for step in steps] == seconds
    assert SPIKE.public_view(steps[-1].state)["time_bonus_seconds"] == seconds[-1]
    back = SPIKE.undo(steps[3].state, steps[3].undo)
    assert back.time_bonus_seconds == seconds[2]


def test_time_attack_scores_like_classic():
    classic = play_all(make_state(RUNS, stock="KS", waste="3C"), "4H 5H 6H 7H 8H")
    timed = play_all(make_state(RUNS, stock="KS", waste="3C", mode="time_attack"), "4H 5H 6H 7H 8H")
    assert [s.points for s in classic] == [s.points for s in timed]


@pytest.mark.parametrize(
    ("options", "mode"),
    [
        (None, "classic"),
        ({}, "classic"),
        ({"mode": "classic"}, "classic"),
        ({"mode": "time_attack"}, "time_attack"),
        ({"mode": "relaxed"}, "relaxed"),
    ],
)
def test_the_mode_is_a_deal_option_stored_with_the_state(options, mode):
    assert SPIKE.normalize_options(options) == {"mode": mode}
    state = SPIKE.deal(deck_for(), options)
    assert state.mode == mode
    assert SPIKE.public_view(state)["mode"] == mode
    assert SPIKE.dump(state)["mode"] == mode


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "fast"}, "Spike's mode is classic, time_attack or relaxed, not 'fast'"),
        ({"mode": None}, "not None"),
        ({"mode": "Classic"}, "not 'Classic'"),
        ({"mode": 1}, "not 1"),
        ({"draw": 3}, "Spike takes only the option 'mode'; unknown option\\(s\\): 'draw'"),
        ({"mode": "classic", "x": 1}, "unknown option\\(s\\): 'x'"),
        ([], "Options must be an object, not list"),
        ("relaxed", "Options must be an object, not str"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(EngineError, match=message):
        SPIKE.normalize_options(options)
    with pytest.raises(EngineError, match=message):
        SPIKE.deal(deck_for(), options)
