"""A tableau pile's cards as one piece of markup (games.templatetags.cards.pile_cards_html):
the backs, then each face-up card, a link that selects it on an active board."""

from games.templatetags.cards import card_face_html, pile_cards_html

BACK = '<span class="card back"></span>'


def cards(**overrides: object) -> str:
    arguments: dict[str, object] = {
        "down": 2,
        "up": ["9H", "8C"],
        "place": "t3",
        "number": 3,
        "detail_url": "/games/abc/",
        "selected_key": "",
        "active": True,
    }
    return str(pile_cards_html(**{**arguments, **overrides}))  # type: ignore[arg-type]


def test_an_active_pile_links_each_face_up_card_with_what_it_heads() -> None:
    assert cards() == (
        BACK * 2 + '<a class="card up" href="/games/abc/?sel=t3/2" data-tap-source="t3" '
        'data-tap-count="2" aria-label="9 of hearts, pile 3, heads 2 cards">'
        f"{card_face_html('9H')}</a>"
        + '<a class="card up" href="/games/abc/?sel=t3/1" data-tap-source="t3" '
        'data-tap-count="1" aria-label="8 of clubs, pile 3, top card">'
        f"{card_face_html('8C')}</a>"
    )


def test_the_selected_card_is_marked() -> None:
    html = cards(selected_key="t3/2")
    assert html.count(" selected") == 1
    assert '<a class="card up selected" href="/games/abc/?sel=t3/2"' in html


def test_a_spoken_name_keeps_the_rank_the_face_shows() -> None:
    assert 'aria-label="K, king of spades, pile 3, top card"' in cards(up=["KS"])


def test_a_closed_board_shows_faces_without_links() -> None:
    assert cards(active=False) == (
        BACK * 2
        + f'<span class="card up">{card_face_html("9H")}</span>'
        + f'<span class="card up">{card_face_html("8C")}</span>'
    )


def test_an_empty_pile_is_no_markup() -> None:
    assert cards(down=0, up=[]) == ""


def test_the_url_is_escaped() -> None:
    assert 'href="/games/a&amp;b&quot;/?sel=t3/1"' in cards(up=["8C"], detail_url='/games/a&b"/')
