"""The OpenAPI schema (drf-spectacular): every operation lists its refusals in the one
error shape (api.errors), the X-Session-Token scheme, and allauth headless's own
description of the account endpoints (sign up, log in, ...) joins ours."""

from pathlib import Path
from typing import Any

import allauth.headless.spec as headless_spec_module
import yaml
from allauth.account import app_settings as account_settings
from allauth.headless.spec.internal import schema as headless_schema
from django.http import HttpRequest
from django.urls import Resolver404, resolve
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from api.authentication import SESSION_TOKEN_HEADER
from api.errors import ERROR_CODES
from api.serializers.games import GameStateSerializer

API_PREFIX = "/api/v1"
# allauth's spec writes its paths as /_allauth/{client}/v1/auth/login.
HEADLESS_ROOT = "/_allauth/{client}/v1"
# allauth's name for the X-Session-Token scheme, which the API's own views share.
SESSION_TOKEN_SCHEME = "SessionToken"
UNKNOWN_PATH_VIEW = "api:unknown_path"


class ErrorItemSerializer(serializers.Serializer[Any]):
    code = serializers.ChoiceField(choices=sorted(ERROR_CODES), help_text="Stable: switch on it.")
    message = serializers.CharField(help_text="For a person: the reason, in words.")
    param = serializers.CharField(allow_null=True, help_text="The field at fault, if one is.")


class ErrorSerializer(serializers.Serializer[Any]):
    status = serializers.IntegerField()
    errors = ErrorItemSerializer(many=True)  # type: ignore[assignment]  # the JSON's name
    game = GameStateSerializer(
        required=False, help_text="A refused action on a game: the game as it now is."
    )


class SessionTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "api.authentication.SessionTokenAuthentication"
    name = SESSION_TOKEN_SCHEME

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": SESSION_TOKEN_HEADER,
            "description": "The session_token that POST /api/v1/auth/login returns in `meta`.",
        }


class ArenaAutoSchema(AutoSchema):
    """Adds to each operation its refusals: those its view names (`refusals`: a tuple
    for all of its methods, or a mapping of a method to its own), and those every
    operation of its kind can meet (a body it cannot read, no login, a browser's
    missing CSRF token)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        responses = operation.setdefault("responses", {})
        for status, codes in self._refusals_by_status().items():
            described = " ".join(f"`{code}`: {ERROR_CODES[code][1]}" for code in codes)
            responses.setdefault(
                str(status),
                {"description": described, "content": {"application/json": {"schema": error}}},
            )
        return operation

    def _refusals_by_status(self) -> dict[int, list[str]]:
        declared = getattr(self.view, "refusals", ())
        codes = list(declared.get(self.method, ()) if isinstance(declared, dict) else declared)
        public = any(isinstance(p, AllowAny) for p in self.view.get_permissions())
        codes += (
            ["invalid_session_token"] if public else ["not_authenticated", "invalid_session_token"]
        )
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            codes += ["malformed", "csrf_failed", "unsupported_media_type"]
        else:
            codes.append("malformed")
        codes.append("not_acceptable")
        by_status: dict[int, list[str]] = {}
        for code in dict.fromkeys(codes):
            by_status.setdefault(ERROR_CODES[code][0], []).append(code)
        return dict(sorted(by_status.items()))


def _drop_unrouted_paths(spec: dict[str, Any]) -> set[str]:
    """allauth's drop_unused_paths, but a path counts as routed only when one of its
    own views answers it: api.urls ends with a catch-all (the API's JSON 404) that
    every path resolves to, which would keep the endpoints of apps not installed
    (social accounts, MFA, phone)."""
    used_tags: set[str] = set()
    for path, operations in list(spec["paths"].items()):
        try:
            routed = resolve(path).view_name != UNKNOWN_PATH_VIEW
        except Resolver404:
            routed = False
        if routed:
            used_tags.update(tag for operation in operations.values() for tag in operation["tags"])
        else:
            del spec["paths"][path]
    return used_tags


# allauth's views answer a body that is no JSON object (not JSON, not UTF-8, a list)
# with a bare HttpResponseBadRequest(): 400, text/html, no body
# (allauth.headless.internal.restkit.views.RESTView._parse_json); its spec documents
# only its JSON errors.
UNREADABLE_BODY = {"text/html": {"schema": {"type": "string", "maxLength": 0}}}


def _document_unreadable_body(spec: dict[str, Any]) -> None:
    shared = spec["components"]["responses"]
    for operations in spec["paths"].values():
        for operation in operations.values():
            if "requestBody" not in operation:
                continue
            responses = operation["responses"]
            refused = responses.get("400", {"description": "The body is no JSON object."})
            if "$ref" in refused:
                refused = shared[refused["$ref"].rpartition("/")[2]]
            content = {**refused.get("content", {}), **UNREADABLE_BODY}
            responses["400"] = {**refused, "content": content}


# allauth's rate limits (ACCOUNT_RATE_LIMITS) answer these with its 429, JSON
# {"status": 429} (allauth.core.internal.ratelimit.respond_429, the headless 429
# handler); its spec documents the 429 of the code resends only. Each is limited by
# allauth.headless.account.views: @rate_limit on LoginView, SignupView,
# ResetPasswordView, ChangePasswordView and ReauthenticateView, and consume_or_429 in
# RequestPasswordResetView.post and in ManageEmailView.dispatch (every method but GET).
RATE_LIMITED = {
    "/auth/login": ("post",),
    "/auth/signup": ("post",),
    "/auth/password/request": ("post",),
    "/auth/password/reset": ("post",),
    "/auth/reauthenticate": ("post",),
    "/account/password/change": ("post",),
    "/account/email": ("post", "put", "patch", "delete"),
}


def _document_rate_limits(spec: dict[str, Any]) -> None:
    for path, methods in RATE_LIMITED.items():
        for method in methods:
            responses = spec["paths"][API_PREFIX + path][method]["responses"]
            responses.setdefault("429", {"$ref": "#/components/responses/TooManyRequests"})


PASSWORD_CHANGED = (
    "The password is changed, and the session's key with it: `meta.session_token` is the "
    "new session token. Send it from now on: the token this request sent is dead (`401 "
    "invalid_session_token` on the arena's endpoints, `410` on these), as is every other "
    "session of the account (its other devices log in again)."
)
LOGGED_OUT = {
    "description": "Logged out: the session token sent is dead from now on. (allauth's "
    "protocol answers a log-out 401; this site answers 200, a result a generated client "
    "reads.)",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {
                    "status": {"type": "integer", "enum": [200]},
                    "data": {
                        "type": "object",
                        "properties": {
                            "flows": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/Flow"},
                            }
                        },
                    },
                    "meta": {
                        "type": "object",
                        "properties": {"is_authenticated": {"type": "boolean", "enum": [False]}},
                        "required": ["is_authenticated"],
                    },
                },
                "required": ["status", "data", "meta"],
            }
        }
    },
}


def _document_session_answers(spec: dict[str, Any]) -> None:
    """The answers allauth's spec leaves out: the password change's 200 (which carries
    the new session token), the log-out's 200 (api.views.session), and the 410 that
    every endpoint of its app client answers a dead session token with (its
    authentication_context wraps them all), whose `meta.is_authenticated` is null."""
    paths = spec["paths"]
    change = paths[API_PREFIX + "/account/password/change"]["post"]
    change["description"] = f"{change.get('description', '').rstrip()}\n\n{PASSWORD_CHANGED}"
    change["responses"]["200"] = {
        "description": PASSWORD_CHANGED,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/AuthenticatedResponse"}}
        },
    }
    paths[API_PREFIX + "/auth/session"]["delete"]["responses"]["200"] = LOGGED_OUT
    for operations in paths.values():
        for method, operation in operations.items():
            if isinstance(operation, dict) and method != "parameters":
                operation["responses"].setdefault(
                    "410", {"$ref": "#/components/responses/SessionGone"}
                )
    spec["components"]["schemas"]["SessionGoneResponse"]["properties"]["meta"] = {
        "type": "object",
        "properties": {"is_authenticated": {"type": "boolean", "nullable": True}},
        "required": ["is_authenticated"],
    }


LOGIN_BY = {"username": "Username", "email": "Email", "phone": "Phone"}
"""allauth's login methods and the components of their fields."""


def _login_by_the_sites_methods(spec: dict[str, Any]) -> None:
    """allauth writes its Login as allOf a password and anyOf a login field: a client
    generated from it keeps the password only (openapi-python-client drops the anyOf),
    and must set the name by hand. One object instead, of the site's login methods
    (ACCOUNT_LOGIN_METHODS) and the password, which every login needs."""
    methods = [method for method in LOGIN_BY if method in account_settings.LOGIN_METHODS]
    spec["components"]["schemas"]["Login"] = {
        "type": "object",
        "description": "Log in with the password and one of "
        + " or ".join(f"`{method}`" for method in methods)
        + ": a login names one (`400` without).",
        "properties": {
            **{method: {"$ref": f"#/components/schemas/{LOGIN_BY[method]}"} for method in methods},
            "password": {"$ref": "#/components/schemas/Password"},
        },
        "required": ["password"],
    }


LOGIN_RETRY_AFTER = {
    "Retry-After": {
        "description": "With `too_many_login_attempts`: the seconds until its window has "
        "passed (the longest of the failed-login limits').",
        "schema": {"type": "integer"},
    }
}


def _document_login_retry_after(spec: dict[str, Any]) -> None:
    refused = spec["paths"][API_PREFIX + "/auth/login"]["post"]["responses"]["400"]
    refused["headers"] = {**refused.get("headers", {}), **LOGIN_RETRY_AFTER}


def _headless_spec() -> dict[str, Any]:
    """allauth's description of its headless endpoints, as its own schema view makes it
    (allauth.headless.spec.internal.schema.get_schema) but rooted where config.urls
    mounts the app client, /api/v1/, which its view cannot know."""
    spec: dict[str, Any] = yaml.safe_load(
        (Path(headless_spec_module.__file__).parent / "doc/openapi.yaml").read_bytes()
    )
    spec["paths"] = {
        API_PREFIX + path.removeprefix(HEADLESS_ROOT): operations
        for path, operations in spec["paths"].items()
        if path.startswith(HEADLESS_ROOT)
    }
    headless_schema.specify_user(spec)
    headless_schema.pin_client(spec)
    headless_schema.drop_unused_client_parameter(spec)
    used_tags = _drop_unrouted_paths(spec)
    headless_schema.drop_unused_tags(spec, used_tags)
    headless_schema.specify_signup_fields(spec)
    headless_schema.specify_custom_signup_form(spec)
    headless_schema.specify_auth(spec)
    _login_by_the_sites_methods(spec)
    _document_unreadable_body(spec)
    _document_login_retry_after(spec)
    _document_rate_limits(spec)
    _document_session_answers(spec)
    return spec


def headless_paths_merge(
    result: dict[str, Any], request: HttpRequest | None = None, **_kwargs: Any
) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: allauth's account endpoints (sign up, log
    in, log out, password reset, the session) join ours, with their components, and the
    server is named: the origin the schema was asked of, or without a request (the
    schema written by `manage.py spectacular`) the root of wherever it is served."""
    result["servers"] = [
        {
            "url": request.build_absolute_uri("/").rstrip("/") if request is not None else "/",
            "description": "This site: every path starts with /api/v1.",
        }
    ]
    spec = _headless_spec()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and method != "parameters":
                name = path.removeprefix(API_PREFIX + "/").replace("/", "_").replace("-", "_")
                operation.setdefault("operationId", f"{name}_{method}")
    result["paths"].update(spec["paths"])
    result.setdefault("tags", []).extend(spec.get("tags", []))
    components = result.setdefault("components", {})
    for kind, entries in spec.get("components", {}).items():
        ours = components.setdefault(kind, {})
        clash = (set(ours) & set(entries)) - {SESSION_TOKEN_SCHEME}
        if clash:
            raise ValueError(f"allauth's {kind} {sorted(clash)} clash with the API's names")
        # The session token's scheme is ours: allauth's describes a `client` parameter
        # of its paths, which are rooted at /api/v1/ here and have none.
        ours.update({name: entry for name, entry in entries.items() if name not in ours})
    return result
