from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "public", "highlight_moves", "reduced_motion", "updated_at"]
    list_filter = ["public"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]
