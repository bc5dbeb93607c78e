"""Domain errors: raised by services, turned into JSON by config.exception_handler."""
from __future__ import annotations


class ApplicationError(Exception):
    """An error a client can cause and understand; `code` is a stable string."""

    status_code = 400
    code = "BAD_REQUEST"

    def __init__(self, message: str, *, code: str | None = None, status_code: int | None = None,
                 fields: dict | None = None, extra: dict | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status_code:
            self.status_code = status_code
        self.fields = fields or {}
        self.extra = extra or {}


class NotFoundError(ApplicationError):
    status_code = 404
    code = "NOT_FOUND"


class ForbiddenError(ApplicationError):
    status_code = 403
    code = "PERMISSION_DENIED"


class ConflictError(ApplicationError):
    status_code = 409
    code = "CONFLICT"
