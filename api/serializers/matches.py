"""What the API shows of matches: the selectors' views (matches.selectors), never a
match's seed or a card of another seat's game while the match runs; the invite code
only to the match's players."""

from dataclasses import replace
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.pagination import PageSerializer
from api.serializers.public import PublicViewField
from api.serializers.review import ReviewHoldField
from games.models import Game
from matches.models import Match, Seat
from matches.modes import MatchMode, match_mode, match_mode_keys
from matches.selectors import MatchView

MATCH_HOLD_HELP = (
    'The review holds a game of the match: "held" while it is under review, "voided" once '
    "a reviewer voided it; the match is not rated meanwhile. Null otherwise."
)
# Match.invite_code's max_length.
INVITE_CODE_MAX_LENGTH = 32


class MatchCreateSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=match_mode_keys(), help_text="GET /matches/modes.")
    private = serializers.BooleanField(
        default=False, help_text="Joined through its invite code only; not in the lobby."
    )


class MatchJoinSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        max_length=INVITE_CODE_MAX_LENGTH,
        required=False,
        allow_blank=True,
        help_text="A private match's invite code.",
    )


class MatchModeSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    variant = serializers.CharField(help_text="The game every seat plays (GET /variants).")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    clock_seconds = serializers.IntegerField(help_text="The match clock, kept by the server.")
    shared_board = serializers.BooleanField(
        help_text="The seats take turns on one board (the Duel) instead of each playing "
        "their own game."
    )
    turn_seconds = serializers.IntegerField(
        allow_null=True,
        help_text="A shared board's turn clock: the seat to move passes when it runs out. "
        "Null for a mode whose seats play their own games.",
    )
    is_open = serializers.BooleanField(
        help_text="You may play it now: a mode that needs a points table opens once one is "
        "published."
    )
    queued = serializers.BooleanField(help_text="You wait in its quick-match queue.")


@extend_schema_field(
    serializers.ChoiceField(
        choices=Game.Status.choices,
        allow_null=True,
        help_text="The state of the seat's game, as its `state`; null before the start.",
    )
)
class SeatGameStateField(serializers.Field):  # type: ignore[type-arg]
    """The seat's game's state; the selector's empty one (no game yet) is null."""

    def __init__(self) -> None:
        super().__init__(source="game_status", read_only=True)

    def to_representation(self, value: str) -> str | None:
        return value or None


class SeatSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    username = serializers.CharField()
    game_id = serializers.UUIDField(
        allow_null=True,
        help_text="The seat's game once the match starts: yours is played through /games/{id}; "
        "another player's is a 404 there. Null before the start, and on a shared board "
        "(shared_board: the match's board, /matches/{id}/duel, is every seat's).",
    )
    score = serializers.IntegerField(help_text="The game's score now.")
    final_score = serializers.IntegerField(
        allow_null=True, help_text="The score the match ranked by, once settled."
    )
    cards_on_foundations = serializers.IntegerField(
        source="foundation_cards", help_text="The cards on its foundations: a count."
    )
    move_count = serializers.IntegerField()
    game_state = SeatGameStateField()
    public = PublicViewField(
        allow_null=True,
        help_text="The seat's table once the match is over, and a Duel's shared board "
        "throughout; null while a match of separate boards runs (every seat plays the same "
        "deal, so another seat's face-up cards may be hidden in yours) and before the "
        "start. While it runs a seat shows its figures only.",
    )
    placement = serializers.IntegerField(allow_null=True)
    outcome = serializers.ChoiceField(
        choices=[("", "Not settled, or a solo sprint"), *Seat.Outcome.choices]
    )


class MatchSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    mode = serializers.CharField()
    mode_name = serializers.CharField()
    variant = serializers.CharField()
    state = serializers.ChoiceField(
        choices=Match.Status.choices,
        source="status",
        help_text="open (taking seats), running, then finished or cancelled.",
    )
    state_label = serializers.CharField(source="status_label", help_text="The state in words.")
    rated = serializers.BooleanField(
        help_text="It counts in the ratings: false for an unrated match and while the review "
        "holds it (`review`)."
    )
    is_private = serializers.BooleanField()
    invite_code = serializers.CharField(
        allow_null=True, help_text="Yours to share while you are seated; null for anyone else."
    )
    created_by = serializers.CharField(help_text="Who made it: the one who starts it.")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    remaining_seconds = serializers.IntegerField(
        allow_null=True, help_text="The clock while it runs; null before the start."
    )
    points_table_version = serializers.IntegerField(allow_null=True)
    seats = SeatSerializer(many=True)
    your_game_id = serializers.UUIDField(
        allow_null=True,
        help_text="Your seat's game, once the match starts (null on a shared board).",
    )
    shared_board = serializers.BooleanField(
        help_text="The seats take turns on one board (the Duel): it is played at "
        "/matches/{id}/duel, and no seat has a game of its own."
    )
    review = ReviewHoldField(help_text=MATCH_HOLD_HELP)


def match_body(view: MatchView, *, username: str) -> dict[str, Any]:
    """The match as the selector let this player see it, with their own game. A shared
    board is no game of the site (a 404 at /games/{id}): its seats name none."""
    seats = (
        [replace(seat, game_id=None) for seat in view.seats] if view.shared_board else view.seats
    )
    your_game = next((seat.game_id for seat in seats if seat.username == username), None)
    shown = {
        **view.__dict__,
        "seats": seats,
        "invite_code": view.invite_code or None,
        "your_game_id": your_game,
    }
    return dict(MatchSerializer(shown).data)


class LobbyMatchSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    mode = serializers.CharField()
    mode_name = serializers.CharField()
    created_by = serializers.CharField()
    seated = serializers.IntegerField()
    max_players = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class LobbySerializer(PageSerializer):
    results = LobbyMatchSerializer(many=True, help_text="Open public matches, oldest first.")
    current = MatchSerializer(
        allow_null=True, help_text="Your match waiting or running (a quick match found)."
    )
    queued = serializers.ListField(
        child=serializers.CharField(), help_text="The modes whose quick-match queue you wait in."
    )


def _mode_of(match: Match) -> MatchMode:
    mode = match_mode(match.mode)
    if mode is None:
        raise ValueError(f"Match {match.id} is of a mode the site no longer has")
    return mode


def lobby_row(match: Match) -> dict[str, Any]:
    """A lobby match (matches.selectors.lobby_matches counted its seats)."""
    mode = _mode_of(match)
    return dict(
        LobbyMatchSerializer(
            {
                "id": match.id,
                "mode": match.mode,
                "mode_name": mode.name,
                "created_by": match.created_by.get_username(),
                "seated": match.seated,  # type: ignore[attr-defined]  # the selector's count
                "max_players": mode.max_players,
                "created_at": match.created_at,
            }
        ).data
    )


class QueueWaitingSerializer(serializers.Serializer[Any]):
    waiting = serializers.BooleanField(help_text="No opponent yet: poll GET /matches (current).")


class RatingSerializer(serializers.Serializer[Any]):
    mode = serializers.CharField()
    mode_name = serializers.CharField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="Too few matches yet to trust it.")
    display = serializers.CharField(help_text='As the site shows it, e.g. "1500?".')
    matches = serializers.IntegerField()


class RatingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    rating = RatingSerializer()


class RatingsLeaderboardSerializer(PageSerializer):
    results = RatingRowSerializer(many=True)
    mode = serializers.CharField()
    mode_name = serializers.CharField()


class RatingPointSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    rating = serializers.IntegerField()
    won = serializers.BooleanField(help_text="The match it follows was a win.")


class PlayerRatingSerializer(RatingSerializer):
    history = RatingPointSerializer(
        many=True, help_text="The rating after each rated match, oldest first (for a chart)."
    )


class MatchHistoryItemSerializer(serializers.Serializer[Any]):
    match_id = serializers.UUIDField()
    mode = serializers.CharField()
    mode_name = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    rated = serializers.BooleanField(
        help_text="It counts in the ratings: false for an unrated match and while the review "
        "holds it (`review`)."
    )
    review = ReviewHoldField(help_text=MATCH_HOLD_HELP)
    score = serializers.IntegerField(allow_null=True, help_text="The score the match ranked by.")
    placement = serializers.IntegerField(allow_null=True)
    outcome = serializers.ChoiceField(
        choices=[("", "A solo sprint: no outcome"), *Seat.Outcome.choices]
    )


def history_row(seat: Seat) -> dict[str, Any]:
    """A settled match of the player's, from their seat (the selector brought the match)."""
    match = seat.match
    return dict(
        MatchHistoryItemSerializer(
            {
                "match_id": match.id,
                "mode": match.mode,
                "mode_name": _mode_of(match).name,
                "started_at": match.started_at,
                "finished_at": match.finished_at,
                "rated": match.rated and not match.held,
                "review": seat.match_review,  # type: ignore[attr-defined]  # the selector's
                "score": seat.score,
                "placement": seat.placement,
                "outcome": seat.outcome,
            }
        ).data
    )


SHOWN_ONLY_IF_VISIBLE = "Empty unless stats_visible: a private profile is its owner's only."


class MatchHistorySerializer(PageSerializer):
    results = MatchHistoryItemSerializer(
        many=True, help_text="Settled matches, newest first. " + SHOWN_ONLY_IF_VISIBLE
    )
    username = serializers.CharField()
    is_owner = serializers.BooleanField()
    stats_visible = serializers.BooleanField(help_text="Yours, or a public profile.")
    ratings = PlayerRatingSerializer(many=True, help_text=SHOWN_ONLY_IF_VISIBLE)
