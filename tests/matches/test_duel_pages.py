"""The Duel's page as a board: the seat to move picks a card (a link, `?sel=`), then a
place that takes it (a form on that place), or taps the stock, or passes; every action
is a POST form that works without JavaScript. The server says which moves are legal
(the move map duel.js lights up); a refusal says why and changes nothing; the seat not
to move sees the board with nothing to press; no page shows a hidden card."""

import html
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.template import engines
from django.urls import reverse

from games.engine import card_name, format_move, full_deck, get_variant
from games.models import Game
from games.templatetags.cards import SUIT_CLASSES
from matches import services
from matches.models import Match
from matches.selectors_duel import duel_board_for_player
from tests.api.conftest import ApiClient
from tests.games.helpers import leaked_cards, refusal_code
from tests.matches.helpers import run_out_the_clock
from tests.matches.test_duel import board_of, client_of

pytestmark = pytest.mark.django_db

DUEL = get_variant("steps_duel")
VOID = {"input", "br", "img", "meta", "link", "hr"}


@dataclass
class Form:
    attrs: dict[str, str]
    place: str | None
    """The data-pile of the place it sits on (a target), if any."""
    listed: bool
    """Whether it is one of the compact list's (#duel-moves)."""
    inputs: dict[str, str] = field(default_factory=dict)
    button: dict[str, str] = field(default_factory=dict)


@dataclass
class DuelPage:
    """What the duel board (#duel-board) holds: its attributes, forms and card links."""

    board: dict[str, str] = field(default_factory=dict)
    forms: list[Form] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)
    """The unit (`t3/2`: data-tap-source and data-tap-count) -> href of each card the
    player may pick."""
    selected: list[str] = field(default_factory=list)
    html: str = ""

    def form_for(self, move: str) -> list[Form]:
        """The board's own forms for the move (the list's aside)."""
        return [f for f in self.forms if f.inputs.get("move") == move and not f.listed]

    @property
    def listed(self) -> set[str]:
        return {form.inputs["move"] for form in self.forms if form.listed}

    @property
    def targets(self) -> dict[str, str]:
        """place -> move of each target form (a picked card's places)."""
        return {
            str(form.place): form.inputs["move"]
            for form in self.forms
            if "target" in form.attrs.get("class", "")
        }


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.page = DuelPage()
        self.stack: list[dict[str, str]] = []
        self.inside = 0  # the depth of #duel-board in the stack, 0 outside it
        self.form: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag not in VOID:
            self.stack.append(attributes)
        if attributes.get("id") == "duel-board":
            self.inside = len(self.stack)
            self.page.board = attributes
        if not self.inside:
            return
        if tag == "form":
            place = next((a["data-pile"] for a in reversed(self.stack) if "data-pile" in a), None)
            listed = any(a.get("id") == "duel-moves" for a in self.stack)
            self.form = Form(attrs=attributes, place=place, listed=listed)
            self.page.forms.append(self.form)
        elif tag == "input" and self.form is not None:
            self.form.inputs[attributes.get("name", "")] = attributes.get("value", "")
        elif tag == "button" and self.form is not None:
            self.form.button = attributes
        elif tag == "a" and "data-tap-source" in attributes:
            unit = f"{attributes['data-tap-source']}/{attributes['data-tap-count']}"
            self.page.links[unit] = attributes["href"]
            if "selected" in attributes.get("class", "").split():
                self.page.selected.append(unit)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if tag == "form":
            self.form = None
        if self.stack:
            self.stack.pop()
        if self.inside and len(self.stack) < self.inside:
            self.inside = 0


def read(response) -> DuelPage:
    reader = _Reader()
    html = response.content.decode()
    reader.feed(html)
    reader.page.html = html
    return reader.page


def legal_moves(match: Match) -> list:
    return DUEL.legal_moves(DUEL.load(board_of(match).state))


def stored(game: Game) -> tuple:
    game.refresh_from_db()
    return (game.state, game.move_log, game.revision, game.score)


def duel_url(match: Match) -> str:
    return reverse("matches:duel", kwargs={"match_id": match.id})


def move_url(match: Match) -> str:
    return reverse("matches:duel_move", kwargs={"match_id": match.id})


def test_the_mover_gets_a_card_to_pick_for_every_legal_transfer_the_stock_and_a_pass(duel, player):
    page = read(client_of(player).get(duel_url(duel)))
    legal = legal_moves(duel)
    transfers = {f"{m.src}/{m.count}" for m in legal if m.kind == "transfer"}
    assert transfers, "a fresh deal always has a transfer (a card to a reserve slot)"
    # Each unit that moves is a link that picks it, the way the no-JS board goes.
    assert transfers <= set(page.links)
    for unit, href in page.links.items():
        assert href == f"{duel_url(duel)}?sel={unit}"
    # The move map duel.js lights up is the server's legal transfers, nothing more.
    move_map = json.loads(page.board["data-legal-moves"])
    assert set(move_map) == transfers
    mapped = {move for places in move_map.values() for move in places.values()}
    assert mapped == {format_move(m) for m in legal if m.kind == "transfer"}
    assert page.board["data-move-url"] == move_url(duel)
    assert page.board["data-revision"] == "0"
    for move in ("draw", "pass"):
        (form,) = page.form_for(move)
        assert form.attrs["method"] == "post"
        assert form.attrs["action"] == form.attrs["hx-post"] == move_url(duel)
        assert form.attrs["hx-target"] == "#duel-board"
        assert form.inputs["revision"] == "0"
        assert form.inputs["csrfmiddlewaretoken"]
    assert page.form_for("draw")[0].button["id"] == "duel-draw"
    assert page.form_for("pass")[0].button["id"] == "duel-pass"
    # The compact list (the fallback in a <details>) holds every move but the pass.
    assert page.listed == {format_move(m) for m in legal if m.kind != "pass"}
    # No card is picked yet: no target on any place.
    assert page.targets == {}
    assert page.selected == []


def test_a_tap_then_a_place_plays_the_move_without_javascript(duel, player, bob):
    client = client_of(player)
    move = next(m for m in legal_moves(duel) if m.kind == "transfer")
    unit = f"{move.src}/{move.count}"
    picked = read(client.get(f"{duel_url(duel)}?sel={unit}"))
    assert picked.selected == [unit]
    assert 'id="duel-selection"' in picked.html
    assert picked.targets == json.loads(picked.board["data-legal-moves"])[unit]
    place = next(place for place, text in picked.targets.items() if text == format_move(move))
    (form,) = [f for f in picked.forms if f.place == place and "target" in f.attrs["class"]]
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == form.attrs["hx-post"] == move_url(duel)
    assert form.button["aria-label"].startswith("Move the ")
    played = client.post(form.attrs["action"], form.inputs)
    assert played.status_code == 302
    assert played["Location"] == duel_url(duel)
    assert board_of(duel).move_log == [format_move(move)]
    # Now bob's turn: alice's page keeps the board and loses its moves.
    after = read(client.get(played["Location"]))
    assert after.forms == []
    assert after.links == {}


def nowhere_to_go(game: Game) -> str:
    """Deal the four slots four stock cards and the waste a stock card nothing takes
    (the cards change places, the two decks stay whole): its code."""
    data = dict(game.state)
    stock = list(data["stock"])
    data["reserves"] = [stock.pop() for _ in range(4)]
    for index, card in enumerate(stock):
        trial = {**data, "stock": stock[:index] + stock[index + 1 :], "waste": [card]}
        if not [m for m in DUEL.legal_moves(DUEL.load(trial)) if m.src == "w"]:
            game.state = trial
            game.save(update_fields=["state"])
            return card
    raise AssertionError("every stock card had a place")


def test_a_picked_card_with_nowhere_to_go_says_so(duel, player):
    """The waste's card may be picked even when nothing takes it: the board says why."""
    card = nowhere_to_go(board_of(duel))
    page = read(client_of(player).get(f"{duel_url(duel)}?sel=w/1"))
    assert page.selected == ["w/1"]
    assert f'data-card="{card}"' in page.html
    assert page.targets == {}
    assert "has nowhere to go on this turn." in page.html


def test_a_card_for_a_pillar_lights_the_pillars_that_take_it(duel, player):
    """`w-f` goes to the first pillar of the suit that takes the card; an Ace, which
    both empty pillars of its suit take, has a target on each, and lands on the first."""
    game = board_of(duel)
    data = dict(game.state)
    stock = list(data["stock"])
    ace = next(card for card in reversed(stock) if card[0] == "A")
    stock.remove(ace)
    game.state = {**data, "stock": stock, "waste": [ace]}
    game.save(update_fields=["state"])
    client = client_of(player)
    page = read(client.get(f"{duel_url(duel)}?sel=w/1"))
    suit = ace[1]
    assert page.targets[f"{suit}1"] == page.targets[f"{suit}2"] == "w-f"
    assert not [place for place in page.targets if place[0] in "SHDC" and place[0] != suit]
    (form,) = [f for f in page.forms if f.place == f"{suit}2"]
    assert (
        form.button["aria-label"]
        == f"Move the {card_name(ace)} to {SUIT_CLASSES[suit]} pillar 2, empty"
    )
    client.post(form.attrs["action"], form.inputs)
    public = DUEL.public_view(DUEL.load(board_of(duel).state))
    assert [p["count"] for p in public["pillars"] if p["suit"] == suit] == [1, 0]


def test_a_pick_that_is_no_unit_of_the_player_picks_nothing(duel, player):
    client = client_of(player)
    for key in ("t9/1", "t1/7", "f/1", "w/1", "nonsense", "t1/0"):
        page = read(client.get(f"{duel_url(duel)}?sel={key}"))
        assert page.targets == {}
        assert page.selected == []
        assert 'id="duel-selection"' not in page.html


def test_a_refused_move_says_why_and_changes_nothing(duel, player, bob):
    """What a drop on a place the server did not light sends: the attempt, refused. To
    htmx a refusal is an answer (200, as the boards' are: a 4xx would have the browser
    log an error), the board with the reason and an HX-Trigger `refused` event carrying
    the code the API's duel endpoint gives the same refusal."""
    game = board_of(duel)
    before = stored(game)
    legal = {format_move(m) for m in legal_moves(duel)}
    attempt = next(m for m in ("t1-f", "t2-f", "t1-t2", "t3-f") if m not in legal)
    refused = client_of(player).post(
        move_url(duel), {"move": attempt, "revision": 0}, HTTP_HX_REQUEST="true"
    )
    assert refusal_code(refused) == "illegal_move"
    page = read(refused)
    assert page.board["id"] == "duel-board"  # the board alone, for htmx to swap in
    assert 'role="alert" id="duel-error"' in page.html
    assert stored(game) == before
    # Without JavaScript the refusal comes back as a message on the board's page.
    plain = client_of(player).post(move_url(duel), {"move": attempt, "revision": 0})
    assert plain.status_code == 302
    assert plain["Location"] == duel_url(duel)
    shown = client_of(player).post(move_url(duel), {"move": attempt, "revision": 0}, follow=True)
    assert 'class="message error"' in shown.content.decode()
    assert stored(game) == before
    # Not your turn, a stale board, a malformed request: refused, the board as it was.
    theirs = client_of(bob).post(
        move_url(duel), {"move": "draw", "revision": 0}, HTTP_HX_REQUEST="true"
    )
    assert refusal_code(theirs) == "illegal_move"
    assert "It is alice's turn." in html.unescape(theirs.content.decode())
    stale = client_of(player).post(
        move_url(duel), {"move": "draw", "revision": 5}, HTTP_HX_REQUEST="true"
    )
    assert refusal_code(stale) == "stale_revision"
    malformed = client_of(player).post(
        move_url(duel), {"move": "draw", "revision": "abc"}, HTTP_HX_REQUEST="true"
    )
    assert refusal_code(malformed) == "malformed"
    assert 'id="duel-error"' in malformed.content.decode()
    assert stored(game) == before


def test_a_move_on_a_duel_that_is_over_is_refused_with_the_apis_code(duel, player):
    run_out_the_clock(duel)
    over = client_of(player).post(
        move_url(duel), {"move": "draw", "revision": 0}, HTTP_HX_REQUEST="true"
    )
    app = ApiClient()
    assert app.log_in(player.username).status_code == 200
    api = app.post(f"/api/v1/matches/{duel.id}/duel/moves", {"move": "draw", "revision": 0})
    assert refusal_code(over) == api.json()["errors"][0]["code"] == "game_closed"
    # The board it brings is the board as it now is: the refusal's look closed it.
    shown = html.unescape(over.content.decode())
    assert "Time is up" in shown
    assert "The duel is over." in shown
    assert 'id="duel-moves"' not in shown


def test_the_seat_not_to_move_sees_the_board_with_nothing_to_press(duel, bob):
    client = client_of(bob)
    for key in ("", "?sel=t1/1", "?sel=r1/1", "?sel=w/1"):
        page = read(client.get(f"{duel_url(duel)}{key}"))
        assert page.forms == []
        assert page.links == {}
        assert "data-legal-moves" not in page.board
        assert "data-move-url" not in page.board
        assert 'id="duel-selection"' not in page.html
        assert "Waiting for alice." in page.html
        assert page.html.count('class="card up"') == 7  # the seven piles' face-up cards


def test_the_board_alone_for_htmx_keeps_the_pick_and_its_targets(duel, player):
    move = next(m for m in legal_moves(duel) if m.kind == "transfer")
    unit = f"{move.src}/{move.count}"
    response = client_of(player).get(f"{duel_url(duel)}?sel={unit}", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith("<section")  # no page round it
    page = read(response)
    assert page.selected == [unit]
    assert format_move(move) in page.targets.values()


def shown_cards(game: Game) -> set[str]:
    public = DUEL.public_view(DUEL.load(game.state))
    shown = {card for pile in public["tableau"] for card in pile["up"]}
    shown.update(public["waste"]["fan"])
    shown.update(pillar["top"] for pillar in public["pillars"] if pillar["top"])
    shown.update(slot["card"] for slot in public["reserves"] if slot["card"])
    return shown


def test_no_page_of_the_board_shows_a_hidden_card(duel, player, bob):
    """Picking cards, the map, the targets and the list: face-up cards only, whichever
    seat looks, over a dozen turns."""
    players = (player, bob)
    for turn in range(12):
        game = board_of(duel)
        state = DUEL.load(game.state)
        mover = players[DUEL.seat_to_move(state)]
        hidden = set(full_deck()) - shown_cards(game)
        units = sorted({f"{m.src}/{m.count}" for m in DUEL.legal_moves(state) if m.src})
        pages = [client_of(user).get(duel_url(duel)) for user in players]
        pages += [client_of(mover).get(f"{duel_url(duel)}?sel={unit}") for unit in units]
        for response in pages:
            html = response.content.decode()
            assert leaked_cards(html, hidden) == []
            assert game.seed not in html
        moves = [format_move(m) for m in DUEL.legal_moves(state)]
        services.duel_move_play(
            match_id=duel.id,
            player=mover,
            move=moves[turn % (len(moves) - 1)],  # never the pass
            revision=game.revision,
        )


def test_the_duel_draws_its_cards_with_the_boards_own_parts(duel, player, bob):
    """The tableau is games/parts/tableau.jinja's, as on every board: links that pick a
    card for the seat to move, faces and backs only for the other; the empty pillars
    are the foundations' slots with their suit's pip, and no pillar shows letters."""
    part = engines["jinja2"].get_template("games/parts/tableau.jinja")
    urls = {"detail": duel_url(duel), "move": move_url(duel), "target": "#duel-board"}
    for user in (player, bob):
        html = client_of(user).get(duel_url(duel)).content.decode()
        board = duel_board_for_player(match_id=duel.id, player=user)
        assert part.render({"board": board, "urls": urls, "csrf_field": ""}).strip() in html
        assert html.count('class="slot-pip"') == 8
        assert 'class="slot-label"' not in html.split('class="foundations pillars"')[1]
