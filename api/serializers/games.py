"""A game as the API shows it: games.selectors.Board without the web's layout."""

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from api.serializers.public import GamePublicViewField
from api.serializers.review import ReviewHoldField
from games.models import Game
from games.selectors import Board


class BoardGoalSerializer(serializers.Serializer[Any]):
    words = serializers.CharField(help_text="The goal in plain words.")
    progress = serializers.CharField(help_text="Where the game stands: 'Sevens ...: 1 of 2'.")
    met = serializers.BooleanField(help_text="The game met the goal (it stays met).")
    failed = serializers.BooleanField(help_text="This game can no longer meet it.")


class ScenarioDashboardSerializer(serializers.Serializer[Any]):
    """The Architect Dashboard of a Codex scenario's game: where it stands against the
    scenario's par and the stars it can still earn."""

    key = serializers.CharField(help_text="The scenario (GET /codex).")
    number = serializers.IntegerField()
    name = serializers.CharField()
    tier = serializers.IntegerField()
    par = serializers.IntegerField(help_text="The moves of the solver's win.")
    two_star_moves = serializers.IntegerField(help_text="The most moves a two-star win may take.")
    stars_in_reach = serializers.IntegerField(
        help_text="The most stars the game can still earn from where it stands; once it is "
        "over, the stars it earned."
    )
    handicaps = serializers.ListField(
        child=serializers.CharField(), help_text="The handicaps in force, in words."
    )


class NotationListField(serializers.ListField):
    """A list of moves in the notation, strings already: represented as they are (a
    ListField of CharFields passed every move of a long game's log through two of DRF's
    calls, on every action's answer)."""

    child = serializers.CharField()

    def to_representation(self, data: Any) -> list[str]:
        return list(data)


@extend_schema_serializer(component_name="Game")
class GameStateSerializer(serializers.Serializer[Board]):
    """A game as it stands: its table (`public`), its figures, its legal moves and its
    `state` in its life (active, then its result)."""

    id = serializers.UUIDField()
    variant = serializers.CharField(help_text="The game's key (klondike, spike, ...).")
    variant_name = serializers.CharField()
    options = serializers.DictField(help_text="The deal options the game was dealt with.")
    state = serializers.ChoiceField(
        choices=Game.Status.choices,
        source="status",
        help_text="Where the game stands: active while it is played, then won, lost, finished "
        "or abandoned (its result final).",
    )
    state_label = serializers.CharField(source="status_label", help_text="The state in words.")
    is_active = serializers.BooleanField()
    revision = serializers.IntegerField(
        help_text="Counts every change; every action sends the revision it was made at."
    )
    score = serializers.IntegerField()
    final_score = serializers.IntegerField(
        help_text="The score the result ranks by: the score with time taken into account."
    )
    time_scored = serializers.BooleanField(help_text="Whether time changes the final score.")
    move_count = serializers.IntegerField()
    undo_count = serializers.IntegerField()
    hints_used = serializers.IntegerField()
    elapsed_seconds = serializers.IntegerField()
    remaining_seconds = serializers.IntegerField(
        allow_null=True, help_text="The clock of a timed game; null without one."
    )
    can_undo = serializers.BooleanField()
    undos_left = serializers.IntegerField(
        allow_null=True,
        help_text="A game with an undo allowance (a Codex scenario's): the undos left; "
        "null without one.",
    )
    track = serializers.ChoiceField(choices=Game.Track.choices)
    match_id = serializers.SerializerMethodField(
        help_text="A match seat's game: its match (GET /matches/{id}); null for any other."
    )
    is_ranked = serializers.BooleanField(help_text="A daily deal's first attempt: the one ranked.")
    is_practice_restart = serializers.BooleanField()
    daily_label = serializers.CharField(allow_null=True)
    certified_winnable = serializers.BooleanField(
        help_text="The solver has won this deal: a certified daily deal, or a Codex scenario."
    )
    public = GamePublicViewField(
        help_text="The table as the player sees it, one shape per game (`variant` says "
        "which): face-up cards, the counts of the face-down ones, the stock and waste sizes, "
        "the foundations, the game's counters and flags. Never a hidden card."
    )
    legal_moves = NotationListField(
        help_text="Every legal move now, in the notation (docs/notation.md); none once closed.",
    )
    started_at = serializers.DateTimeField()
    last_action_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    goal = BoardGoalSerializer(
        allow_null=True,
        help_text="A daily challenge's goal and the game's progress; null for other games.",
    )
    scenario = serializers.SerializerMethodField(
        help_text="A Codex scenario's game: its Architect Dashboard; null for other games."
    )
    review = ReviewHoldField()

    @extend_schema_field(serializers.UUIDField(allow_null=True))
    def get_match_id(self, board: Board) -> str | None:
        return board.track_ref if board.track == Game.Track.MATCH else None

    @extend_schema_field(ScenarioDashboardSerializer(allow_null=True))
    def get_scenario(self, board: Board) -> dict[str, Any] | None:
        if board.scenario is None:
            return None
        return dict(
            _DASHBOARD.to_representation({"key": board.track_ref, **asdict(board.scenario)})
        )


_DASHBOARD = ScenarioDashboardSerializer()
_GAME_STATE = GameStateSerializer()
"""One serializer for every game's state: a new one deep-copies its thirty fields
(DRF binds them per instance), a tenth of a move's CPU; its fields keep no state
between two representations."""


def game_state(board: Board) -> dict[str, Any]:
    return dict(_GAME_STATE.to_representation(board))


class MoveLogSerializer(serializers.Serializer[Any]):
    """The moves played, only when asked (GET /games/{id}/moves): every action's answer
    carried them, and so grew with the game."""

    revision = serializers.IntegerField(help_text="The game's revision this log is of.")
    moves = NotationListField(
        help_text="The moves played, in the notation, the first first (an undone move is "
        "taken out)."
    )


class ActionResultSerializer(serializers.Serializer[Any]):
    game = GameStateSerializer()
    events = serializers.ListField(
        child=serializers.CharField(),
        help_text=(
            'What the action made happen on the table, e.g. "auto_foundation:QH" (a card '
            'the automatic-moves setting sent home) or "run_removed:S" (Spiderette).'
        ),
    )


class HintSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(allow_null=True, help_text="The move suggested, in the notation.")
    text = serializers.CharField(help_text="The suggestion in words.")
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]  # the JSON name
    destination = serializers.CharField(allow_null=True)


class HintResultSerializer(serializers.Serializer[Any]):
    hint = HintSerializer()
    game = GameStateSerializer()


class HistoryGameSerializer(serializers.Serializer[Game]):
    id = serializers.UUIDField()
    variant = serializers.CharField()
    state = serializers.ChoiceField(choices=Game.Status.choices, source="status")
    score = serializers.IntegerField()
    final_score = serializers.IntegerField(allow_null=True)
    move_count = serializers.IntegerField()
    undo_count = serializers.IntegerField()
    hints_used = serializers.IntegerField()
    elapsed_seconds = serializers.IntegerField()
    track = serializers.ChoiceField(choices=Game.Track.choices)
    is_ranked = serializers.BooleanField()
    is_practice_restart = serializers.SerializerMethodField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    review = ReviewHoldField(source="review_hold")

    def get_is_practice_restart(self, game: Game) -> bool:
        return game.restart_of_id is not None


class FiguresSerializer(serializers.Serializer[Any]):
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    win_rate = serializers.FloatField()
    best_score = serializers.IntegerField(allow_null=True)
    fastest_win_seconds = serializers.IntegerField(allow_null=True)
    total_moves = serializers.IntegerField()
    held = serializers.IntegerField(
        help_text="Your games these figures leave out: those the review holds (each is in "
        "the history with its `review`)."
    )
