"""The engine's public view of a table, as the API shows it: one serializer per game
(Klondike, Kingsley, Spiderette, Steps, Spike and the Duel's shared board), each its
own component in the schema, told apart by `variant`. They read the engine's view
(games.engine's `public_view`: face-up cards and the counts of the others, never a
hidden card) and write it in the API's names (docs/api.md, "One name for one thing"):
the engine's `status` is `state`, Steps' action `points` are `action_points` and its
Architect Ledger, which is its score, is `score` with `score_lines`, and Spike's waste
is a `fan` as every other waste is. A key the engine adds reaches no client until it
is named here."""

from collections.abc import Callable, Mapping
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.engine.variant import IN_PROGRESS, LOST, WON

CARD_PATTERN = r"^[A2-9TJQK][SHDC]$"
TABLE_STATES = (IN_PROGRESS, WON, LOST)


Convert = Callable[[Any], Any]


def _converter(field: serializers.Field[Any, Any, Any, Any]) -> Convert:
    """How a field's value is written: a nested view by its serializer, a list of them
    item by item, a value of JSON's own type (all the engine's views hold) as it is."""
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        item = _as_it_is if field.child is None else _converter(field.child)
        if item is _as_it_is:
            return list
        return lambda values: [item(value) for value in values]
    if isinstance(field, serializers.BaseSerializer):
        return field.to_representation
    return _as_it_is


def _as_it_is(value: Any) -> Any:
    return value


# Writes each field from the engine's key its `source` names, copying a value of JSON's
# own type rather than passing it through DRF's field (a Spike table has a hundred, a
# tenth of a move's answer): the fields declare the schema, and
# tests/api/test_public_views.py checks real tables of every game against it. (A
# comment, not a docstring: the schema would describe every component with it.)
class ViewSerializer(serializers.Serializer[Any]):
    def to_representation(self, instance: Any) -> dict[str, Any]:
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = self.__dict__["_plan"] = [
                (name, field.source, _converter(field), field.required)
                for name, field in self.fields.items()
            ]
        shown = {}
        for name, source, convert, required in plan:
            if not required and source not in instance:
                continue
            value = instance[source]
            shown[name] = None if value is None else convert(value)
        return shown


@extend_schema_field({"type": "string", "pattern": CARD_PATTERN, "example": "QH"})
class CardField(serializers.CharField):
    """A face-up card in the notation: rank then suit (`QH`, `TD`, `AS`)."""


def _cards(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=CardField(), help_text=help_text)


def _card_or_none(help_text: str) -> CardField:
    return CardField(allow_null=True, help_text=help_text)


class VariantKeyField(serializers.ChoiceField):
    """The discriminator: the one game a public view is of."""

    def __init__(self, key: str) -> None:
        super().__init__(choices=[key], help_text=f'"{key}": the game this is a table of.')


class TableStateField(serializers.ChoiceField):
    """The engine's state of the table, which the rules decide: in play, won, or lost
    (no move can win it any more). The game's own `state` says whether it is closed."""

    def __init__(self) -> None:
        super().__init__(
            choices=TABLE_STATES,
            source="status",
            help_text="The table as the rules see it: in_progress, won, or lost (no move "
            "can win it any more; the game stays active until it is finished or the loss "
            "accepted).",
        )


class PileSerializer(ViewSerializer):
    """A tableau pile: its face-down cards counted, its face-up cards named."""

    down = serializers.IntegerField(help_text="Its face-down cards: a count, never the cards.")
    up = _cards("Its face-up cards, the bottom one first.")


class FoundationSerializer(ViewSerializer):
    """A foundation: its suit, its top card and how many cards it holds."""

    suit = serializers.ChoiceField(choices=["S", "H", "D", "C"])
    top = _card_or_none("Its top card; null while it is empty.")
    count = serializers.IntegerField(help_text="Its cards: the top card's rank.")


class WasteSerializer(ViewSerializer):
    """The waste: its size and the cards it shows."""

    count = serializers.IntegerField(help_text="Its cards, face up or covered.")
    fan = _cards("The cards it shows, the top card last (the others are covered).")


class StepsOptionsSerializer(ViewSerializer):
    """The options Steps was dealt with (GET /variants lists them)."""

    draw = serializers.IntegerField(help_text="Cards a draw turns: 1 or 3.")
    buffers = serializers.IntegerField(help_text="The reserve slots in play.")
    recycles = serializers.IntegerField(help_text="The recycles the game allows.")
    retrieval = serializers.BooleanField(help_text="Cards may come back off the foundations.")
    foundations = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="A Codex scenario's foundations built before the deal: suit -> height.",
    )


class StepsReserveSerializer(ViewSerializer):
    """A reserve slot of Steps."""

    slot = serializers.CharField(help_text="r1, r2, ...: as the notation names it.")
    card = _card_or_none("Its card; null while it is empty.")
    enabled = serializers.BooleanField(help_text="In play with these options.")


class ScoreLineSerializer(ViewSerializer):
    """A line of the score: what it counts and its value."""

    label = serializers.CharField()  # type: ignore[assignment]  # the JSON's name
    value = serializers.IntegerField()


class KlondikePublicViewSerializer(ViewSerializer):
    """A Klondike table (`variant` klondike): seven piles, four foundations, the stock
    and the waste, the score and the recycles."""

    variant = VariantKeyField("klondike")
    tableau = PileSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    stock = serializers.IntegerField(help_text="Cards in the stock: a count.")
    waste = WasteSerializer()
    score = serializers.IntegerField()
    recycles = serializers.IntegerField(help_text="Times the waste went back to the stock.")
    free_recycles_left = serializers.IntegerField()
    can_draw = serializers.BooleanField()
    can_recycle = serializers.BooleanField()
    auto_complete = serializers.BooleanField(help_text="Auto-complete is offered.")
    cards_on_foundations = serializers.IntegerField()
    state = TableStateField()


class KingsleyPublicViewSerializer(ViewSerializer):
    """A Kingsley table (`variant` kingsley): Klondike's layout, whose piles take only
    the next lower card of the same suit."""

    variant = VariantKeyField("kingsley")
    tableau = PileSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    stock = serializers.IntegerField(help_text="Cards in the stock: a count.")
    waste = WasteSerializer()
    score = serializers.IntegerField()
    can_draw = serializers.BooleanField()
    auto_complete = serializers.BooleanField(help_text="Auto-complete is offered.")
    cards_on_foundations = serializers.IntegerField()
    state = TableStateField()
    lost_reason = serializers.CharField(allow_null=True, help_text="Why a lost table is lost.")
    may_be_stuck = serializers.BooleanField(
        help_text="The search could not tell whether the table is lost (from what it shows)."
    )


class SpideretteRemovedRunsField(serializers.ListField):
    child = serializers.ChoiceField(choices=["S", "H", "D", "C"])


class SpiderettePublicViewSerializer(ViewSerializer):
    """A Spiderette table (`variant` spiderette): seven piles and the stock; runs King
    to Ace of one suit leave the table."""

    variant = VariantKeyField("spiderette")
    tableau = PileSerializer(many=True)
    stock = serializers.IntegerField(help_text="Cards in the stock: a count.")
    deals_left = serializers.IntegerField()
    next_deal_size = serializers.IntegerField()
    can_deal = serializers.BooleanField()
    deal_refusal = serializers.CharField(allow_null=True, help_text="Why a deal is refused now.")
    removed_runs = SpideretteRemovedRunsField(
        help_text="The suits of the runs removed, in the order they left the table."
    )
    cards_removed = serializers.IntegerField()
    score = serializers.IntegerField()
    state = TableStateField()
    lost_reason = serializers.CharField(allow_null=True, help_text="Why a lost table is lost.")
    may_be_stuck = serializers.BooleanField(
        help_text="The search could not tell whether the table is lost (from what it shows)."
    )


class StepsPublicViewSerializer(ViewSerializer):
    """A Steps table (`variant` steps): Klondike's layout with reserve slots; its score
    is the Architect Ledger, and its action points a figure beside it."""

    variant = VariantKeyField("steps")
    options = StepsOptionsSerializer()
    tableau = PileSerializer(many=True)
    foundations = FoundationSerializer(many=True)
    reserves = StepsReserveSerializer(many=True)
    stock = serializers.IntegerField(help_text="Cards in the stock: a count.")
    waste = WasteSerializer()
    score = serializers.IntegerField(
        help_text="The Architect Ledger (the rules' 2.7) without the time bonus: the score."
    )
    score_lines = ScoreLineSerializer(
        many=True, source="ledger_lines", help_text="The score line by line."
    )
    action_points = serializers.IntegerField(
        source="points",
        help_text="The action points of the rules' table 2.5, earned move by move: a figure "
        "beside the score, not the score.",
    )
    recycles = serializers.IntegerField(help_text="Times the waste went back to the stock.")
    recycles_left = serializers.IntegerField()
    can_draw = serializers.BooleanField()
    can_recycle = serializers.BooleanField()
    auto_complete = serializers.BooleanField(help_text="Auto-complete is offered.")
    cards_on_foundations = serializers.IntegerField()
    reserve_used_ever = serializers.BooleanField()
    state = TableStateField()
    lost_reason = serializers.CharField(allow_null=True, help_text="Why a lost table is lost.")
    may_be_stuck = serializers.BooleanField(
        help_text="The search could not tell whether the table is lost (from what it shows)."
    )


class SpikeCellSerializer(ViewSerializer):
    """A place of a spike: its card once it is exposed."""

    card = _card_or_none("The card, once it is exposed; null while covered or gone.")
    face_up = serializers.BooleanField()
    exposed = serializers.BooleanField(help_text="Nothing covers it: it may be played.")
    gone = serializers.BooleanField(help_text="Played to the waste.")


class SpikeSpikeSerializer(ViewSerializer):
    """A spike: its rows of cards, the peak first."""

    index = serializers.IntegerField(help_text="1 to 5, left to right.")
    rows = serializers.ListField(
        child=SpikeCellSerializer(many=True), help_text="Its rows, the peak first."
    )
    cleared = serializers.BooleanField()


class SpikeWasteSerializer(WasteSerializer):
    """Spike's waste shows its top card only: a fan of one, or none while it is empty or
    the wild card is on top (`top_is_wild`)."""

    top_is_wild = serializers.BooleanField(help_text="The wild card is on top: any card fits.")

    def to_representation(self, instance: Mapping[str, Any]) -> dict[str, Any]:
        top = instance["top"]
        return {
            "count": instance["count"],
            "fan": [] if top is None else [top],
            "top_is_wild": instance["top_is_wild"],
        }


class SpikeWildSerializer(ViewSerializer):
    """The wild card."""

    available = serializers.BooleanField(help_text="The wild card has not been used yet.")


class SpikeBracketSerializer(ViewSerializer):
    """The streak's bracket: what the next card played earns."""

    name = serializers.CharField()
    points = serializers.IntegerField(help_text="What the next card played earns.")


class SpikePublicViewSerializer(ViewSerializer):
    """A Spike table (`variant` spike): five spikes of cards played onto the waste,
    one rank up or down, in streaks."""

    variant = VariantKeyField("spike")
    mode = serializers.CharField(help_text="The deal's mode (GET /variants).")
    spikes = SpikeSpikeSerializer(many=True)
    stock = serializers.IntegerField(help_text="Cards in the stock: a count.")
    waste = SpikeWasteSerializer()
    wild = SpikeWildSerializer()
    streak = serializers.IntegerField()
    bracket = SpikeBracketSerializer()
    score = serializers.IntegerField()
    spikes_cleared = serializers.IntegerField()
    cards_on_spikes = serializers.IntegerField()
    playable = _cards("The exposed cards that go on the waste's top now.")
    time_bonus_seconds = serializers.IntegerField()
    state = TableStateField()
    lost_reason = serializers.CharField(allow_null=True, help_text="Why a lost table is lost.")
    badge = serializers.ChoiceField(
        choices=["gold", "silver", "bronze"],
        allow_null=True,
        help_text="The Summit badge the table earns, if one.",
    )


class DuelPillarSerializer(ViewSerializer):
    """A pillar of the Duel: one of a suit's two foundations."""

    pillar = serializers.CharField(help_text="S1, S2, H1, ...: a suit's first or second.")
    suit = serializers.ChoiceField(choices=["S", "H", "D", "C"])
    top = _card_or_none("Its top card; null while it is empty.")
    count = serializers.IntegerField()


class DuelReserveSerializer(ViewSerializer):
    """A reserve slot of the Duel's board."""

    slot = serializers.CharField(help_text="r1, r2, ...: as the notation names it.")
    card = _card_or_none("Its card; null while it is empty.")


class DuelPublicViewSerializer(ViewSerializer):
    """The Duel's shared board (`variant` steps_duel): both seats take turns on it, so
    it is public to both."""

    variant = VariantKeyField("steps_duel")
    tableau = PileSerializer(many=True)
    pillars = DuelPillarSerializer(many=True)
    reserves = DuelReserveSerializer(many=True)
    stock = serializers.IntegerField(help_text="Cards in the stock: a count.")
    waste = WasteSerializer()
    recycles = serializers.IntegerField(help_text="Times the waste went back to the stock.")
    recycles_left = serializers.IntegerField()
    can_draw = serializers.BooleanField()
    can_recycle = serializers.BooleanField()
    cards_on_pillars = serializers.IntegerField()
    seat_to_move = serializers.IntegerField(help_text="The seat whose turn it is (its number).")
    scores = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's score, seat 0 first."
    )
    passes_in_a_row = serializers.IntegerField()
    moves_without_progress = serializers.IntegerField()
    state = TableStateField()
    over = serializers.BooleanField()
    end_reason = serializers.ChoiceField(
        choices=["built", "passes", "lockout", "stagnation"],
        allow_null=True,
        help_text="Why the game ended; null while it goes on.",
    )
    end_text = serializers.CharField(allow_null=True, help_text="The end's reason in words.")
    winner = serializers.IntegerField(
        allow_null=True, help_text="The seat that won (its number); null for a draw or before."
    )
    score = serializers.IntegerField(help_text="Both seats' scores together.")


GAME_PUBLIC_VIEWS: dict[str, serializers.Serializer[Mapping[str, Any]]] = {
    "klondike": KlondikePublicViewSerializer(),
    "kingsley": KingsleyPublicViewSerializer(),
    "spiderette": SpiderettePublicViewSerializer(),
    "steps": StepsPublicViewSerializer(),
    "spike": SpikePublicViewSerializer(),
}
"""A game's public view by its variant, one serializer each (each keeps no state
between two representations: made once, as a move's answer needs one)."""

PUBLIC_VIEWS: dict[str, serializers.Serializer[Mapping[str, Any]]] = {
    **GAME_PUBLIC_VIEWS,
    "steps_duel": DuelPublicViewSerializer(),
}
"""Every table's, the Duel's shared board's too."""


def public_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's public view in the API's names, by its game."""
    return dict(PUBLIC_VIEWS[view["variant"]].to_representation(view))


def _polymorphic(component_name: str, views: Mapping[str, Any]) -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name=component_name,
        serializers={key: type(serializer) for key, serializer in views.items()},
        resource_type_field_name="variant",
    )


@extend_schema_field(_polymorphic("GamePublicView", GAME_PUBLIC_VIEWS))
class GamePublicViewField(serializers.Field):  # type: ignore[type-arg]
    """A game's table (a game's state, a proof's position): one of the five games'."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: Mapping[str, Any]) -> dict[str, Any]:
        return public_view(value)


@extend_schema_field(_polymorphic("PublicView", PUBLIC_VIEWS))
class PublicViewField(GamePublicViewField):
    """A seat's table: a game's, or the Duel's shared board."""
