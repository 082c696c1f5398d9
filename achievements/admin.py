from typing import TYPE_CHECKING

from django.contrib import admin

from achievements.models import Award, Backfill

if TYPE_CHECKING:
    # ModelAdmin takes its model as a parameter in django-stubs only: Django's
    # class is not subscriptable at run time (django_stubs_ext.monkeypatch would
    # make it so, but that package is a dev dependency).
    AwardAdminBase = admin.ModelAdmin[Award]
    BackfillAdminBase = admin.ModelAdmin[Backfill]
else:
    AwardAdminBase = BackfillAdminBase = admin.ModelAdmin


@admin.register(Award)
class AwardAdmin(AwardAdminBase):
    list_display = ["code", "player", "repeatable", "period", "earned_at", "awarded_at"]
    list_filter = ["code", "repeatable"]
    search_fields = ["player__username", "code"]
    raw_id_fields = ["player", "game"]


@admin.register(Backfill)
class BackfillAdmin(BackfillAdminBase):
    list_display = ["code", "completed_at"]
