"""OpenAPI post-processing: one place that documents what every API operation can answer.

drf-spectacular describes each view's success response; the error envelope and the statuses every
operation shares (bad input, authentication, permission, missing objects, body limits, throttling) are
added here once, so no view can forget them and the schema matches what the exception handler sends.
"""
from __future__ import annotations

ERROR_COMPONENT = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "fields"],
            "properties": {
                "code": {"type": "string", "description": "Stable error code, e.g. VALIDATION_ERROR."},
                "message": {"type": "string"},
                "fields": {"type": "object", "additionalProperties": True},
            },
            "additionalProperties": True,
        }
    },
}

# Seed 001's memory API (/api/v1/memory/) answers errors in its own envelope (config.exception_handler).
SEED_001_ERROR_COMPONENT = {
    "type": "object",
    "required": ["success", "error", "message", "fields"],
    "properties": {
        "success": {"type": "boolean", "enum": [False]},
        "error": {"type": "string", "description": "Stable error code, e.g. MEMORY_LIMIT_REACHED, MEMORY_NOT_FOUND."},
        "message": {"type": "string"},
        "fields": {"type": "object", "additionalProperties": True},
    },
    "additionalProperties": True,
}
SEED_001_PREFIX = "/api/v1/memory/"

# Statuses any operation of the API can answer with the error envelope.
COMMON_ERRORS = {
    "400": "Invalid input (VALIDATION_ERROR, MALFORMED_JSON, USER_REQUIRED, INVALID_USER_ID, ...)",
    "401": "No or unknown credentials (NOT_AUTHENTICATED, AUTHENTICATION_FAILED)",
    "403": "Not allowed (NOT_YOUR_DATA, ROLE_NOT_ALLOWED, TIER_FEATURE_UNAVAILABLE, ...)",
    "404": "No such character, user, memory or conversation",
    "405": "Method not allowed",
    "409": "Conflict (MEMORY_LIMIT_REACHED, MEMORY_DISABLED, DUPLICATE_MESSAGE_ID, ...)",
    "413": "Body over the size limit (PAYLOAD_TOO_LARGE)",
    "415": "Body is not JSON (UNSUPPORTED_MEDIA_TYPE)",
    "429": "Too many requests (THROTTLED)",
    "503": "Database unavailable (DATABASE_UNAVAILABLE); retry after Retry-After seconds",
}
_METHODS = {"get", "put", "post", "patch", "delete"}


def add_error_responses(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOK: document the error envelope on every /api/ operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR_COMPONENT
    schemas["Seed001Error"] = SEED_001_ERROR_COMPONENT
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        ref = {"$ref": "#/components/schemas/" + ("Seed001Error" if path.startswith(SEED_001_PREFIX) else "Error")}
        for method, operation in operations.items():
            if method not in _METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in COMMON_ERRORS.items():
                if status in ("413", "415") and method in ("get", "delete"):
                    continue
                responses[status] = {"description": description, "content": {"application/json": {"schema": ref}}}
    return result


def describe_path_examples(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOK: give path ids a real example (a demo character), so clients and
    contract tests reach the operation's logic instead of a 404."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in _METHODS:
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter["name"] == "characterId":
                    parameter["description"] = "Character slug, e.g. chunsim."
                    parameter["example"] = "chunsim"
    return result
