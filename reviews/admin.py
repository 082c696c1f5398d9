"""The reviewers' admin: finished games with their review, the replay viewer,
the actions (each through a form that needs a note) and the audit log.

Everything here is for staff with `reviews.review_results` (the "Reviewers"
group) and nobody else: without it the list, the change page, the replay viewer
and the audit log answer 403. Nobody can add, change or delete anything here;
the review changes only through the actions, which call reviews.services.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, Exists, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from core import params
from games.models import Game
from leaderboards.models import DailyDeal
from leaderboards.periods import today_utc
from reviews import selectors, services
from reviews.forms import ReviewNoteForm
from reviews.models import AuditEntry, Flag, GameReview


class ReviewersOnly:
    """View only, and only for reviewers: no add, change or delete for anyone."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return selectors.is_reviewer(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_reviewer(request.user)

    def has_review_permission(self, request: HttpRequest) -> bool:
        return selectors.is_reviewer(request.user)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _open_flags() -> QuerySet[Flag]:
    return Flag.objects.filter(game=OuterRef("pk"), status=Flag.Status.OPEN)


class FlaggedFilter(admin.SimpleListFilter):
    title = "flagged"
    parameter_name = "flagged"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes (an open flag)"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "yes":
            return queryset.filter(Exists(_open_flags()))
        if self.value() == "no":
            return queryset.exclude(Exists(_open_flags()))
        return queryset


class ReviewStateFilter(admin.SimpleListFilter):
    title = "review"
    parameter_name = "review"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [*GameReview.State.choices, ("none", "Not reviewed yet")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        if value == "none":
            return queryset.filter(review__isnull=True)
        if value in GameReview.State.values:
            return queryset.filter(review__state=value)
        return queryset


class DailyDealFilter(admin.SimpleListFilter):
    title = "daily deal"
    parameter_name = "daily"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("ranked", "Daily deal, ranked attempt"),
            ("practice", "Daily deal, practice"),
            ("none", "Not a daily deal"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "ranked":
            return queryset.filter(track=Game.Track.DAILY, is_ranked=True)
        if self.value() == "practice":
            return queryset.filter(track=Game.Track.DAILY, is_ranked=False)
        if self.value() == "none":
            return queryset.exclude(track=Game.Track.DAILY)
        return queryset


# The date of a daily-track game's deal: the deal whose id is the game's track_ref,
# compared as text so that other tracks' refs are never cast.
_deal_dates = DailyDeal.objects.annotate(ref=Cast("pk", CharField())).filter(
    ref=OuterRef("track_ref")
)


class Perform(Protocol):
    """A review action on one game (reviews.services), done by a reviewer with a note."""

    def __call__(self, *, game_id: UUID, reviewer: User, note: str) -> object: ...


def _reviewer(request: HttpRequest) -> User:
    """The reviewer asking; anybody else is refused (403)."""
    user = request.user
    if not user.is_authenticated or not selectors.is_reviewer(user):
        raise PermissionDenied
    return user


if TYPE_CHECKING:
    # ModelAdmin takes its model as a parameter in django-stubs only: Django's
    # class is not subscriptable at run time (django_stubs_ext.monkeypatch would
    # make it so, but that package is a dev dependency).
    GameAdminBase = admin.ModelAdmin[Game]
    AuditEntryAdminBase = admin.ModelAdmin[AuditEntry]
else:
    GameAdminBase = AuditEntryAdminBase = admin.ModelAdmin


@admin.register(Game)
class GameReviewAdmin(ReviewersOnly, GameAdminBase):
    """Finished games for review. The seed and the snapshot are never shown."""

    list_display = [
        "game",
        "player",
        "variant",
        "status",
        "final_score",
        "move_count",
        "time",
        "daily",
        "review_state",
        "open_flags",
        "finished_at",
    ]
    list_filter = [
        "variant",
        "status",
        FlaggedFilter,
        ReviewStateFilter,
        DailyDealFilter,
        ("finished_at", admin.DateFieldListFilter),
    ]
    search_fields = ["player__username"]
    search_help_text = "Search by player username."
    list_select_related = ["player", "review"]
    ordering = ["-finished_at"]
    list_per_page = 50
    show_full_result_count = False
    fields = readonly_fields = (
        "player",
        "variant",
        "options",
        "status",
        "score",
        "final_score",
        "move_count",
        "undo_count",
        "revision",
        "elapsed_ms",
        "track",
        "track_ref",
        "is_ranked",
        "restart_of",
        "started_at",
        "last_action_at",
        "finished_at",
        "move_log",
    )
    actions = ["verify_again", "void_results", "restore_results", "dismiss_flags"]
    change_form_template = "admin/reviews/game_change_form.html"

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # "Other games of this daily deal" links to the changelist by the deal's ref.
        return lookup in {"track", "track_ref"} or super().lookup_allowed(lookup, value, request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return (
            super()
            .get_queryset(request)
            .exclude(status=Game.Status.ACTIVE)
            .defer("state", "undo_log", "seed", "move_log")
            .annotate(deal_date=Subquery(_deal_dates.values("date")[:1]))
            .prefetch_related(
                Prefetch(
                    "review_flags",
                    queryset=Flag.objects.filter(status=Flag.Status.OPEN),
                    to_attr="open_flag_list",
                )
            )
        )

    @admin.display(description="game")
    def game(self, obj: Game) -> str:
        return str(obj.id)[:8]

    @admin.display(description="time")
    def time(self, obj: Game) -> str:
        minutes, seconds = divmod(obj.elapsed_ms // 1000, 60)
        return f"{minutes}:{seconds:02d}"

    @admin.display(description="daily deal")
    def daily(self, obj: Game) -> str:
        deal_date = getattr(obj, "deal_date", None)
        if deal_date is None:
            return "—"
        kind = "ranked" if obj.is_ranked else "practice"
        return f"{deal_date:%Y-%m-%d} ({kind})"

    @admin.display(description="review")
    def review_state(self, obj: Game) -> str:
        review = getattr(obj, "review", None)
        return review.get_state_display() if review is not None else "Not reviewed yet"

    @admin.display(description="open flags")
    def open_flags(self, obj: Game) -> str:
        flags = getattr(obj, "open_flag_list", [])
        return ", ".join(flag.get_kind_display() for flag in flags) or "—"

    # -- the change page and the replay viewer -------------------------------------

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if game is not None and self.has_view_permission(request, game):
            context["review"] = selectors.review_detail(game=game)
            context["action_checkbox_name"] = helpers.ACTION_CHECKBOX_NAME
            context["changelist_url"] = reverse("admin:games_game_changelist")
            context["replay_url"] = reverse("admin:games_game_replay", args=[game.pk])
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[URLPattern]:
        replay = path(
            "<uuid:object_id>/replay/",
            self.admin_site.admin_view(self._unless_live_deal_of_viewer(self.replay_view)),
            name="games_game_replay",
        )
        return [replay, *super().get_urls()]

    def _unless_live_deal_of_viewer(
        self, view: Callable[[HttpRequest, UUID], HttpResponse]
    ) -> Callable[[HttpRequest, UUID], HttpResponse]:
        """The replay viewer, refused (403, with the reason on the page) to a
        reviewer who has an attempt at the game's daily deal while it is live."""

        def guarded(request: HttpRequest, object_id: UUID) -> HttpResponse:
            reviewer = _reviewer(request)
            game = get_object_or_404(
                Game.objects.exclude(status=Game.Status.ACTIVE).select_related("player"),
                pk=object_id,
            )
            today = today_utc()
            refusal = selectors.replay_refusal(game=game, viewer=reviewer, today=today)
            if refusal is None:
                services.replay_view_record(game=game, viewer=reviewer, today=today)
                return view(request, object_id)
            context = {
                **self.admin_site.each_context(request),
                "title": "This replay is not open to you yet",
                "refusal": refusal,
                "opts": self.opts,
                "original": game,
                "change_url": reverse("admin:games_game_change", args=[game.pk]),
            }
            return TemplateResponse(
                request, "admin/reviews/replay_refused.html", context, status=403
            )

        return guarded

    def replay_view(self, request: HttpRequest, object_id: UUID) -> HttpResponse:
        """Step through the game move by move, every card shown (reviewers only)."""
        _reviewer(request)
        game = get_object_or_404(Game.objects.exclude(status=Game.Status.ACTIVE), pk=object_id)
        last = len(game.move_log)
        step = params.integer(request.GET, "step", default=0, minimum=0, maximum=last)
        board = selectors.replay_board(game=game, step=step)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Replay of {board.variant_name} game {str(game.id)[:8]}",
            "board": board,
            "opts": self.opts,
            "original": game,
            "change_url": reverse("admin:games_game_change", args=[game.pk]),
        }
        return TemplateResponse(request, "admin/reviews/replay.html", context)

    # -- actions: each asks for a note first ----------------------------------------

    @admin.action(description="Verify again by replay", permissions=["review"])
    def verify_again(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return self._with_note(
            request, queryset, "verify_again", "Verify again", services.review_verify_again
        )

    @admin.action(description="Void the result", permissions=["review"])
    def void_results(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return self._with_note(request, queryset, "void_results", "Void", services.review_void)

    @admin.action(description="Restore a voided result", permissions=["review"])
    def restore_results(
        self, request: HttpRequest, queryset: QuerySet[Game]
    ) -> HttpResponse | None:
        return self._with_note(
            request, queryset, "restore_results", "Restore", services.review_restore
        )

    @admin.action(description="Dismiss the open flags", permissions=["review"])
    def dismiss_flags(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return self._with_note(
            request, queryset, "dismiss_flags", "Dismiss flags", services.review_flags_dismiss
        )

    def _with_note(
        self,
        request: HttpRequest,
        queryset: QuerySet[Game],
        action: str,
        title: str,
        perform: Perform,
    ) -> HttpResponse | None:
        """First the form (the games and a note), then the action on each game.
        An empty note is an error on the form, and nothing happens."""
        reviewer = _reviewer(request)
        games = list(queryset.select_related("player"))
        if "apply" in request.POST:
            form = ReviewNoteForm(request.POST)
            if form.is_valid():
                done = 0
                for game in games:
                    try:
                        perform(game_id=game.id, reviewer=reviewer, note=form.cleaned_data["note"])
                    except services.ReviewRefused as refusal:
                        self.message_user(
                            request,
                            f"{title}: game {str(game.id)[:8]}: {refusal}",
                            messages.WARNING,
                        )
                    else:
                        done += 1
                if done:
                    self.message_user(
                        request, f"{title}: done for {done} game(s).", messages.SUCCESS
                    )
                if len(games) == 1:
                    return HttpResponseRedirect(
                        reverse("admin:games_game_change", args=[games[0].pk])
                    )
                return None
        else:
            form = ReviewNoteForm()
        context = {
            **self.admin_site.each_context(request),
            "title": f"{title}: a note is required",
            "action_title": title,
            "action": action,
            "games": games,
            "form": form,
            "opts": self.opts,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/reviews/review_action.html", context)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReviewersOnly, AuditEntryAdminBase):
    """The audit log: read only, for reviewers only, for everyone read only."""

    list_display = ["created_at", "actor_name", "action", "game_link", "player_name", "note"]
    list_filter = ["action", ("created_at", admin.DateFieldListFilter)]
    search_fields = ["player_name", "actor_name"]
    search_help_text = "Search by player or reviewer username."
    fields = readonly_fields = (
        "created_at",
        "actor_name",
        "action",
        "game_link",
        "player_name",
        "flag_id",
        "note",
        "details",
    )
    actions = None
    list_per_page = 100

    @admin.display(description="game")
    def game_link(self, obj: AuditEntry) -> str:
        url = reverse("admin:games_game_change", args=[obj.game_id])
        return format_html('<a href="{}">{}</a>', url, str(obj.game_id)[:8])
