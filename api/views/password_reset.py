"""allauth headless's password reset, refusing a key with nothing before its "-".

The key of a reset link is `<uidb36>-<token>`. allauth splits it and hands the parts to
UserTokenForm, whose uidb36 field refuses the empty part, but whose clean() then looks
the user up with uidb36=None: base36_to_int(None) raises TypeError, which it does not
catch (it catches ValueError), and "-anything" was a 500 (found by
tests/api/test_schemathesis.py). Here such a key is refused as allauth refuses any
other bad key: 400, invalid_password_reset."""

from typing import Any

from allauth.account.adapter import get_adapter as get_account_adapter
from allauth.headless.account import inputs, views
from allauth.headless.internal.restkit.response import ErrorResponse
from django.http import HttpRequest, HttpResponseBase


class _KeyNamesSomebody:
    cleaned_data: dict[str, Any]

    def _clean_key_link(self) -> Any:
        uidb36, _, _ = self.cleaned_data["key"].partition("-")
        if not uidb36:
            raise get_account_adapter().validation_error("invalid_password_reset")
        return super()._clean_key_link()  # type: ignore[misc]


class ResetPasswordKeyInput(_KeyNamesSomebody, inputs.ResetPasswordKeyInput):  # type: ignore[misc]
    pass


class ResetPasswordInput(_KeyNamesSomebody, inputs.ResetPasswordInput):  # type: ignore[misc]
    pass


class ResetPasswordView(views.ResetPasswordView):  # type: ignore[misc]
    input_class = ResetPasswordInput

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response: HttpResponseBase
        if self.process is None:  # a reset link's key, not a code
            key = ResetPasswordKeyInput({"key": request.headers.get("X-Password-Reset-Key", "")})
            if not key.is_valid():
                response = ErrorResponse(request, input=key)
                return response
        response = super().get(request, *args, **kwargs)
        return response
