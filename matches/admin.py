"""Matches in the admin. Staff write Klondike's competitive points table here and
publish it (a version with a note: publishing opens the mode); a published table is
never edited, a new version replaces it. Matches are shown read only, without their
seed."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import Max, QuerySet
from django.http import HttpRequest

from matches.errors import MatchRefused
from matches.models import Match, PointsTable, Seat
from matches.services import points_table_publish

if TYPE_CHECKING:
    # ModelAdmin takes its model as a parameter in django-stubs only (achievements/admin.py).
    PointsTableAdminBase = admin.ModelAdmin[PointsTable]
    MatchAdminBase = admin.ModelAdmin[Match]
    SeatInlineBase = admin.TabularInline[Seat, Match]
else:
    PointsTableAdminBase = admin.ModelAdmin
    MatchAdminBase = admin.ModelAdmin
    SeatInlineBase = admin.TabularInline


@admin.register(PointsTable)
class PointsTableAdmin(PointsTableAdminBase):
    list_display = ["version", "published_at", "published_by", "created_at"]
    fields = ["version", "points", "note", "published_at", "published_by"]
    actions = ["publish"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is not None and obj.published_at is not None:
            return ["version", "points", "note", "published_at", "published_by"]
        return ["published_at", "published_by"]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        latest = PointsTable.objects.aggregate(latest=Max("version"))["latest"] or 0
        return {"version": latest + 1}

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or obj.published_at is None

    @admin.action(description="Publish the selected table (opens Klondike head-to-head)")
    def publish(self, request: HttpRequest, queryset: QuerySet[PointsTable]) -> None:
        for table in queryset.order_by("version"):
            try:
                points_table_publish(table_id=table.pk, staff=request.user)  # type: ignore[arg-type]
            except MatchRefused as refusal:
                self.message_user(request, refusal.message, level=messages.ERROR)
            else:
                self.message_user(request, f"Version {table.version} is published.")


class SeatInline(SeatInlineBase):
    model = Seat
    fields = readonly_fields = (
        "number",
        "player",
        "game",
        "foundation_cards",
        "score",
        "placement",
        "outcome",
    )
    extra = 0
    can_delete = False


@admin.register(Match)
class MatchAdmin(MatchAdminBase):
    list_display = ["id", "mode", "status", "is_private", "created_at", "finished_at", "held"]
    list_filter = ["mode", "status", "held"]
    fields = readonly_fields = (
        "mode",
        "status",
        "is_private",
        "created_by",
        "points_table",
        "rated",
        "held",
        "created_at",
        "started_at",
        "deadline_at",
        "finished_at",
        "rematch_of",
    )
    inlines = [SeatInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
