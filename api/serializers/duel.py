"""The Duel's shared board as the API shows it to one of its two players:
matches.selectors_duel.DuelBoard (the engine's public view, the seats' points, whose
turn it is, the clocks and, for the seat to move, every legal move)."""

from typing import Any

from rest_framework import serializers

from api.serializers.actions import ActionSerializer
from games.forms import MOVE_MAX_LENGTH


class DuelSeatSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.IntegerField()
    is_you = serializers.BooleanField()
    to_move = serializers.BooleanField()


class DuelMoveSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        help_text="The move in the notation, as POST .../duel/moves takes it."
    )
    kind = serializers.CharField()
    label = serializers.CharField(  # type: ignore[assignment]  # the JSON name
        help_text="The move in words (names its card and where from)."
    )


class DuelBoardSerializer(serializers.Serializer[Any]):
    match_id = serializers.UUIDField()
    mode_name = serializers.CharField()
    revision = serializers.IntegerField(help_text="Every move carries the revision it was made at.")
    public = serializers.DictField(help_text="The engine's public view of the shared board.")
    seats = DuelSeatSerializer(many=True)
    to_move = DuelSeatSerializer()
    your_turn = serializers.BooleanField()
    moves = DuelMoveSerializer(
        many=True, help_text="Your legal moves: none unless it is your turn."
    )
    active = serializers.BooleanField()
    turn_remaining_seconds = serializers.IntegerField(allow_null=True)
    match_remaining_seconds = serializers.IntegerField(allow_null=True)
    settled = serializers.BooleanField()
    winner = DuelSeatSerializer(allow_null=True)


class DuelMoveRequestSerializer(ActionSerializer):
    move = serializers.CharField(
        max_length=MOVE_MAX_LENGTH, help_text='A move in the notation, or "pass".'
    )
