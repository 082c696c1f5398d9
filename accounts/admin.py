from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts.forms import ArenaUserChangeForm, ArenaUserCreationForm
from accounts.models import Profile

# Renaming happens only here: the user admin refuses look-alike names as sign-up does.
admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class ArenaUserAdmin(UserAdmin):
    form = ArenaUserChangeForm
    add_form = ArenaUserCreationForm


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "public", "highlight_moves", "reduced_motion", "updated_at"]
    list_filter = ["public"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]
