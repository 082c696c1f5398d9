from django.contrib import admin

from games.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """A read-only list of results. The seed and the snapshot hold hidden
    cards, so they are left out; the review tools show a deal on purpose."""

    list_display = ["id", "player", "variant", "status", "score", "move_count", "started_at"]
    list_filter = ["variant", "status", "started_at"]
    search_fields = ["player__username"]
    fields = [
        "player",
        "variant",
        "options",
        "status",
        "score",
        "move_count",
        "revision",
        "elapsed_ms",
        "started_at",
        "last_action_at",
        "finished_at",
        "restart_of",
        "move_log",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
