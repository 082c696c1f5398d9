"""Django's admin site, refusing with a 400 the request values its views cannot
read instead of failing with a 500 (both found by tests/config/test_no_server_error.py,
reachable by any staff account):

- `?_to_field=` present but empty: the change and delete views look up a field
  named "" (FieldDoesNotExist). The admin never writes it empty.
- A value that a model field cannot read, e.g. `/admin/r/<content type>/1/` for a
  model whose primary key is a UUID: the view-on-site shortcut catches ValueError
  but not the ValidationError of the UUID field.

Installed in place of django.contrib.admin (INSTALLED_APPS) as its default site,
so `admin.site` and every ModelAdmin registered on it go through `admin_view`.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.options import TO_FIELD_VAR
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponseBase

from core.params import BadParameter

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


class ArenaAdminSite(AdminSite):
    def admin_view(self, view: View, cacheable: bool = False) -> View:
        return super().admin_view(_refusing_unreadable_values(view), cacheable)


def _refusing_unreadable_values(view: View) -> View:
    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        for values in (request.GET, request.POST):
            if TO_FIELD_VAR in values and not values[TO_FIELD_VAR]:
                raise BadParameter("An empty _to_field names no field.")
        try:
            return view(request, *args, **kwargs)
        except ValidationError as unreadable:
            raise BadParameter("A value of the request cannot be read.") from unreadable

    return cast(View, guarded)


class ArenaAdminConfig(AdminConfig):
    default_site = "core.admin_site.ArenaAdminSite"
