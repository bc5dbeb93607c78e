"""Describe StrictSerializer in the OpenAPI schema as strictly as it validates.

It refuses undeclared keys (additionalProperties: false). Its text fields refuse NUL characters (DRF's
CharField does), and a trimmed field that may not be blank refuses text that is only whitespace — in
Python's sense of whitespace, which is what DRF strips (it includes U+0085 and U+001C-U+001F, which a
regex's \\s does not). Patterns state both, so clients and contract tests know before sending.
"""
from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

NO_NUL_PATTERN = "^[^\\x00]*$"
_PY_WHITESPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
NOT_BLANK_PATTERN = f"^[^\\x00]*[^\\x00{_PY_WHITESPACE}][^\\x00]*$"


def _text_pattern(field) -> str:
    if isinstance(field, serializers.CharField) and field.trim_whitespace and not field.allow_blank:
        return NOT_BLANK_PATTERN
    return NO_NUL_PATTERN


def _describe_text(schema: dict, field) -> None:
    if schema.get("type") == "string" and not {"format", "pattern", "enum"} & set(schema):
        schema["pattern"] = _text_pattern(field)
    elif schema.get("type") == "array" and isinstance(schema.get("items"), dict) and hasattr(field, "child"):
        _describe_text(schema["items"], field.child)


class StrictSerializerExtension(OpenApiSerializerExtension):
    target_class = "core.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        for name, field in self.target.fields.items():
            if name in schema.get("properties", {}):
                _describe_text(schema["properties"][name], field)
        return schema
