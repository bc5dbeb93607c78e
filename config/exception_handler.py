"""Turn every error a client can cause into `{"error": {"code", "message", "fields"}}`."""
from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.crypto import DecryptionError
from core.errors import ApplicationError

logger = logging.getLogger(__name__)

_DRF_CODES = {
    exceptions.ParseError: "MALFORMED_JSON",
    exceptions.NotAuthenticated: "NOT_AUTHENTICATED",
    exceptions.AuthenticationFailed: "AUTHENTICATION_FAILED",
    exceptions.PermissionDenied: "PERMISSION_DENIED",
    exceptions.NotFound: "NOT_FOUND",
    exceptions.MethodNotAllowed: "METHOD_NOT_ALLOWED",
    exceptions.NotAcceptable: "NOT_ACCEPTABLE",
    exceptions.UnsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
    exceptions.Throttled: "THROTTLED",
    exceptions.ValidationError: "VALIDATION_ERROR",
}


def _encodable(value):
    """Escape lone surrogates that validation messages echo from the input, so the body encodes as UTF-8."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_encodable(key): _encodable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_encodable(item) for item in value]
    return value


def _body(code: str, message: str, fields: dict | None = None, extra: dict | None = None) -> dict:
    error = {"code": code, "message": _encodable(message), "fields": _encodable(fields or {})}
    error.update(extra or {})
    return {"error": error}


def _drf_code(exc: exceptions.APIException) -> str:
    for cls in type(exc).__mro__:
        if cls in _DRF_CODES:
            return _DRF_CODES[cls]
    return "API_ERROR"


def api_exception_handler(exc, context):
    if isinstance(exc, ApplicationError):
        return Response(_body(exc.code, exc.message, exc.fields, exc.extra), status=exc.status_code)
    if isinstance(exc, RequestDataTooBig):
        return Response(_body("PAYLOAD_TOO_LARGE", "Request body is too large."), status=413)
    if isinstance(exc, DjangoValidationError):
        fields = exc.message_dict if hasattr(exc, "error_dict") else {"nonFieldErrors": exc.messages}
        return Response(_body("VALIDATION_ERROR", "Invalid input.", fields), status=400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, DecryptionError):
        # Never shown to clients in detail: it means a key problem on our side.
        logger.error("decryption failed: %s", exc)
        return Response(_body("DECRYPTION_FAILED", "Stored data could not be decrypted."), status=500)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"nonFieldErrors": exc.detail}
        response.data = _body("VALIDATION_ERROR", "Invalid input.", detail)
    else:
        response.data = _body(_drf_code(exc), str(exc.detail))
    return response


def json_404(request, exception=None):
    return JsonResponse(_body("NOT_FOUND", "Not found."), status=status.HTTP_404_NOT_FOUND)


def json_500(request):
    return JsonResponse(_body("INTERNAL_ERROR", "Internal server error."), status=500)


def json_400(request, exception=None):
    return JsonResponse(_body("BAD_REQUEST", "Bad request."), status=400)


def json_403(request, exception=None):
    return JsonResponse(_body("PERMISSION_DENIED", "Forbidden."), status=403)


__all__ = ["api_exception_handler", "json_400", "json_403", "json_404", "json_500"]
