"""The per-player throttle on actions: far above a person's pace (five a second,
sustained for a minute: settings.REST_FRAMEWORK), so only a script meets it (429 with
Retry-After). One budget for each player however the actions come, by POST or over
any of their match sockets: DRF's history of the player's actions, in the cache, so
every process and node spends the same one."""

from typing import Any, NoReturn
from uuid import UUID

from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from api.errors import throttled_refusal
from api.serializers.games import game_state
from games import selectors
from games.models import Game


class MoveRateThrottle(UserRateThrottle):
    scope = "moves"


def move_budget_spend(*, player: User, game_id: UUID | None = None) -> None:
    """Spend one action of the player's budget for an action that comes by no HTTP
    request (the match socket's): the throttle the action's POST has, on the same
    history. Throttled (429) once the budget is spent, carrying the player's game the
    action was on, if one; nothing spent then."""
    request = Request(HttpRequest())
    request.user = player
    throttle = MoveRateThrottle()
    if not throttle.allow_request(request, APIView()):
        game = game_state_or_none(game_id=game_id, player=player)
        raise throttled_refusal(throttle.wait(), game=game)


def game_state_or_none(*, game_id: UUID | None, player: Any) -> dict[str, Any] | None:
    """The player's game as it now is, for a refusal to carry; None when it is none of
    theirs (its refusal is then the one of a game that does not exist, and says nothing
    of it)."""
    if game_id is None or not isinstance(player, User):
        return None
    try:
        game = selectors.game_for_player(game_id=game_id, player=player)
    except Game.DoesNotExist:
        return None
    return game_state(selectors.game_board(game=game))


class GameThrottledMixin(APIView):
    """A throttled action on a game (`game_id` in its path) carries the game as it now
    is, as every refused action on a game does."""

    def throttled(self, request: Request, wait: float) -> NoReturn:
        game = game_state_or_none(game_id=self.kwargs.get("game_id"), player=request.user)
        raise throttled_refusal(wait, game=game)
