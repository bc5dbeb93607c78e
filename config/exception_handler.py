"""Turn every error a client can cause into `{"error": {"code", "message", "fields"}}`."""
from __future__ import annotations

import json
import logging
import sys
import traceback
from http import HTTPStatus

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.crypto import DecryptionError
from core.errors import ApplicationError

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# Seconds a client should wait before retrying after 503 DATABASE_UNAVAILABLE.
DATABASE_RETRY_AFTER_SECONDS = 5
# Codes for error responses under /api/ that did not come from the handlers below (Django's own pages).
_STATUS_CODES = {
    400: "BAD_REQUEST", 401: "NOT_AUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED", 411: "LENGTH_REQUIRED", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE",
    429: "THROTTLED", 500: "INTERNAL_ERROR", 503: "SERVICE_UNAVAILABLE",
}
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")

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


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Lost or refused connections, server shutdown, timeouts, deadlocks: transient, worth a retry."""
    return isinstance(exc, (OperationalError, InterfaceError))


def database_unavailable_response(request, exc: BaseException) -> JsonResponse:
    # The exception's text may quote SQL; the request is named by method and path only.
    logger.warning("database unavailable: %s %s (%s)", request.method, request.path, type(exc).__name__)
    response = JsonResponse(_body("DATABASE_UNAVAILABLE", "The database is unavailable; retry shortly."),
                            status=status.HTTP_503_SERVICE_UNAVAILABLE)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
    return response


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
    error = sys.exc_info()[1]
    if is_database_unavailable(error):
        return database_unavailable_response(request, error)
    return JsonResponse(_body("INTERNAL_ERROR", "Internal server error."), status=500)


def json_400(request, exception=None):
    return JsonResponse(_body("BAD_REQUEST", "Bad request."), status=400)


def json_403(request, exception=None):
    return JsonResponse(_body("PERMISSION_DENIED", "Forbidden."), status=403)


# Seed 001's memory API answers errors in its own envelope: {"success": false, "error": "<CODE>", ...}.
SEED_001_PREFIX = "/api/v1/memory/"


def seed_001_envelope(response):
    """Rewrite the usual error envelope as seed 001's (same code, message and fields; headers kept)."""
    try:
        body = json.loads(response.content)
    except (ValueError, TypeError):
        return response
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return response
    rewritten = JsonResponse({"success": False, **{k: v for k, v in error.items() if k != "code"},
                              "error": error.get("code", "ERROR")}, status=response.status_code)
    for header, value in response.items():
        if header.lower() not in ("content-type", "content-length"):
            rewritten[header] = value
    return rewritten


class JsonErrorsMiddleware:
    """Keep errors JSON, whatever DEBUG says.

    - A lost database gives 503 DATABASE_UNAVAILABLE with Retry-After on every path (Django closes the broken
      connection at the end of the request, so the next request reconnects by itself).
    - Under /api/, any other unhandled exception gives the JSON 500 (logged without its message, which may quote
      user data), and any error page Django renders itself (unknown URL, 405 of a plain view, DEBUG's technical
      pages) is replaced by the JSON envelope: no HTML, no URL listings, no echo of the request.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (request.path_info.startswith(API_PREFIX) and response.status_code >= 400 and not response.streaming
                and not response.get("Content-Type", "").startswith("application/json")):
            response = self._envelope(response)
        if request.path_info.startswith(SEED_001_PREFIX) and response.status_code >= 400 and not response.streaming:
            response = seed_001_envelope(response)
        return response

    def process_exception(self, request, exception):
        if is_database_unavailable(exception):
            return database_unavailable_response(request, exception)
        if request.path_info.startswith(API_PREFIX):
            logger.error("unhandled %s in %s %s\n%s", type(exception).__name__, request.method, request.path,
                         "".join(traceback.format_tb(exception.__traceback__)))
            return json_500(request)
        return None

    @staticmethod
    def _envelope(response):
        code = _STATUS_CODES.get(response.status_code, "ERROR")
        try:
            message = HTTPStatus(response.status_code).phrase + "."
        except ValueError:
            message = "Error."
        envelope = JsonResponse(_body(code, message), status=response.status_code)
        for header in _KEPT_HEADERS:
            if header in response:
                envelope[header] = response[header]
        return envelope


__all__ = ["JsonErrorsMiddleware", "api_exception_handler", "database_unavailable_response", "json_400",
           "json_403", "json_404", "json_500"]
