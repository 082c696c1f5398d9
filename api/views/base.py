"""What every view of the API shares: the player of a request, a validated body, the
player's own game and its state."""

from typing import Any, TypeVar
from uuid import UUID

from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from api.serializers.games import game_state
from games import selectors
from games.models import Game

S = TypeVar("S", bound=serializers.Serializer[Any])


def player_of(request: Request) -> User:
    """The signed-in player (IsAuthenticated, the default permission, let the request in)."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("A view that needs a player was reached without one")
    return user


def viewer_of(request: Request) -> User | None:
    """The signed-in player of a page open to visitors; None for a visitor."""
    return request.user if isinstance(request.user, User) else None


def valid_data(serializer_class: type[S], request: Request) -> dict[str, Any]:
    """The body as the serializer reads it; a body it refuses is a 400 (api.errors)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def own_game(request: Request, game_id: UUID) -> Game:
    """The player's own game; anybody else's is a 404, as a game that does not exist."""
    try:
        return selectors.game_for_player(game_id=game_id, player=player_of(request))
    except Game.DoesNotExist as missing:
        raise NotFound("No such game.") from missing


def state_of(game: Game) -> dict[str, Any]:
    return game_state(selectors.game_board(game=game))
