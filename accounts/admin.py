from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User

from accounts.forms import ArenaUserChangeForm, ArenaUserCreationForm
from accounts.models import Profile

if TYPE_CHECKING:
    # The admin classes take their model as a parameter in django-stubs only (as in
    # achievements/admin.py): Django's own classes are not subscriptable.
    UserAdminBase = UserAdmin[User]
    ProfileAdminBase = admin.ModelAdmin[Profile]
else:
    UserAdminBase = UserAdmin
    ProfileAdminBase = admin.ModelAdmin

# Renaming happens only here: the user admin refuses look-alike names as sign-up does.
admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class ArenaUserAdmin(UserAdminBase):
    form = ArenaUserChangeForm
    add_form = ArenaUserCreationForm


@admin.register(Profile)
class ProfileAdmin(ProfileAdminBase):
    list_display = ["user", "public", "highlight_moves", "reduced_motion", "updated_at"]
    list_filter = ["public"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]
