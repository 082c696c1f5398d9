"""The Duel's shared board as the API shows it to one of its two players:
matches.selectors_duel.DuelBoard (the engine's public view, the seats' scores, whose
turn it is, the clocks and, for the seat to move, every legal move)."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.actions import ActionSerializer
from api.serializers.public import DuelPublicViewSerializer
from games.forms import MOVE_MAX_LENGTH
from matches.selectors_duel import DuelBoard


class DuelSeatSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="0 or 1: as the board's `seat_to_move`.")
    username = serializers.CharField()
    score = serializers.IntegerField(
        source="points", help_text="The seat's action points: its score in the Duel."
    )
    is_you = serializers.BooleanField()
    to_move = serializers.BooleanField()


class DuelBoardSerializer(serializers.Serializer[Any]):
    match_id = serializers.UUIDField()
    mode_name = serializers.CharField()
    revision = serializers.IntegerField(help_text="Every move carries the revision it was made at.")
    public = DuelPublicViewSerializer(help_text="The shared board as both seats see it.")
    seats = DuelSeatSerializer(many=True)
    to_move = DuelSeatSerializer()
    your_turn = serializers.BooleanField()
    legal_moves = serializers.SerializerMethodField(
        help_text="Every legal move now, in the notation, as a game's `legal_moves`: yours "
        'on your turn ("pass" among them), none otherwise.'
    )
    active = serializers.BooleanField()
    turn_remaining_seconds = serializers.IntegerField(allow_null=True)
    match_remaining_seconds = serializers.IntegerField(allow_null=True)
    settled = serializers.BooleanField()
    winner = DuelSeatSerializer(allow_null=True)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_legal_moves(self, board: DuelBoard) -> list[str]:
        moves = [move.text for move in board.moves]
        return moves if board.pass_move is None else [*moves, board.pass_move.text]


class DuelMoveRequestSerializer(ActionSerializer):
    move = serializers.CharField(
        max_length=MOVE_MAX_LENGTH, help_text='A move in the notation, or "pass".'
    )
