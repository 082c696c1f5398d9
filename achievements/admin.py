from django.contrib import admin

from achievements.models import Award, Backfill


@admin.register(Award)
class AwardAdmin(admin.ModelAdmin):
    list_display = ["code", "player", "repeatable", "earned_at", "awarded_at"]
    list_filter = ["code", "repeatable"]
    search_fields = ["player__username", "code"]
    raw_id_fields = ["player", "game"]


@admin.register(Backfill)
class BackfillAdmin(admin.ModelAdmin):
    list_display = ["code", "completed_at"]
