"""Request plumbing: server timing, a request id for audit rows, a hard limit on body size, chunked bodies,
no-store for the API."""
from __future__ import annotations

import io
import re
import time
import uuid

from django.conf import settings
from django.http import JsonResponse
from django.utils.cache import add_never_cache_headers

from . import timing

_REQUEST_ID_PATTERN = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class RequestTimingMiddleware:
    """Report the time spent in Django as `Server-Timing: app;dur=<ms>` (first in MIDDLEWARE, so it covers
    every other middleware, the view and the database; not the WSGI server or the network), followed by the
    phases the code marked (core.timing: `auth;dur=…, sql;dur=…`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        token = timing.begin()
        try:
            response = self.get_response(request)
        finally:
            phases = timing.end(token)
        response["Server-Timing"] = timing.server_timing((time.perf_counter() - start) * 1000, phases)
        return response


class RequestIdMiddleware:
    """Take X-Request-ID from the caller when it is well formed, else make one; echo it back."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        supplied = request.headers.get("X-Request-ID", "")
        request.request_id = supplied if _REQUEST_ID_PATTERN.match(supplied) else uuid.uuid4().hex
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        return response


class BodySizeLimitMiddleware:
    """Refuse bodies over MAX_REQUEST_BODY_BYTES with 413 before anything reads them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.MAX_REQUEST_BODY_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            return payload_too_large_response(limit)
        return self.get_response(request)


def payload_too_large_response(limit: int) -> JsonResponse:
    return JsonResponse(
        {"error": {"code": "PAYLOAD_TOO_LARGE", "message": f"Request body exceeds {limit} bytes.", "fields": {}}},
        status=413,
    )


class NoStoreApiMiddleware:
    """Mark every /api/ response `Cache-Control: no-store` (with private, no-cache, max-age=0): they carry
    a user's data, which no browser or shared cache may keep. The admin sets the same on its pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/api/"):
            add_never_cache_headers(response)
        return response
class ChunkedBodyMiddleware:
    """WSGI wrapper: give Django the body of a `Transfer-Encoding: chunked` request.

    gunicorn decodes chunked bodies but sets no CONTENT_LENGTH, and Django reads nothing without
    one, so the view saw an empty body. Read it here (at most MAX_REQUEST_BODY_BYTES; more is
    413 PAYLOAD_TOO_LARGE, as for a declared length) and hand it on with its length.
    """

    DRAIN_LIMIT_FACTOR = 16  # an over-limit body is read and dropped up to this many times the limit

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            limit = settings.MAX_REQUEST_BODY_BYTES
            stream = environ["wsgi.input"]
            body = stream.read(limit + 1)
            if len(body) > limit:
                self._drain(stream, limit * self.DRAIN_LIMIT_FACTOR)
                response = payload_too_large_response(limit)
                start_response(f"{response.status_code} {response.reason_phrase}", list(response.items()))
                return [response.content]
            environ["CONTENT_LENGTH"] = str(len(body))
            environ["wsgi.input"] = io.BytesIO(body)
        return self.app(environ, start_response)

    @staticmethod
    def _drain(stream, most: int) -> None:
        """Read what the client is still sending (bounded), so it gets the 413 and not a reset connection."""
        while most > 0:
            data = stream.read(min(65536, most))
            if not data:
                return
            most -= len(data)
