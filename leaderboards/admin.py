"""Daily deals in the admin: read only. The certificate is shown (verdict, par, time,
nodes, difficulty, seeds tried); the seed and the solver's line only once the deal's
day is over, like everywhere else (docs/leaderboards.md, "Certified deals")."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

from leaderboards.models import DailyDeal
from leaderboards.periods import today_utc

if TYPE_CHECKING:
    # ModelAdmin takes its model as a parameter in django-stubs only (achievements/admin.py).
    DailyDealAdminBase = admin.ModelAdmin[DailyDeal]
else:
    DailyDealAdminBase = admin.ModelAdmin

LIVE_FIELDS = (
    "date",
    "variant",
    "options",
    "created_at",
    "verdict",
    "par",
    "difficulty",
    "solve_ms",
    "solver_nodes",
    "seeds_tried",
)
SECRET_FIELDS = ("seed", "solver_line")


@admin.register(DailyDeal)
class DailyDealAdmin(DailyDealAdminBase):
    list_display = ["date", "variant", "verdict", "par", "difficulty", "solve_ms", "seeds_tried"]
    list_filter = ["variant", "verdict", "difficulty"]
    date_hierarchy = "date"
    ordering = ["-date", "variant"]

    def get_fields(self, request: HttpRequest, obj: DailyDeal | None = None) -> tuple[str, ...]:
        if obj is not None and obj.date < today_utc():
            return (*LIVE_FIELDS, *SECRET_FIELDS)
        return LIVE_FIELDS

    def get_readonly_fields(
        self, request: HttpRequest, obj: DailyDeal | None = None
    ) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
