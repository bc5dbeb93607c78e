"""Describe StrictSerializer in the OpenAPI schema as strictly as it validates.

It refuses undeclared keys (additionalProperties: false), and its text fields refuse NUL characters
(DRF's CharField does), which a pattern states so clients and contract tests know before sending.
"""
from drf_spectacular.extensions import OpenApiSerializerExtension

NO_NUL_PATTERN = "^[^\\x00]*$"


def _forbid_nul(schema: dict) -> None:
    if schema.get("type") == "string" and not {"format", "pattern", "enum"} & set(schema):
        schema["pattern"] = NO_NUL_PATTERN
    for sub in schema.get("properties", {}).values():
        _forbid_nul(sub)
    if isinstance(schema.get("items"), dict):
        _forbid_nul(schema["items"])


class StrictSerializerExtension(OpenApiSerializerExtension):
    target_class = "core.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        _forbid_nul(schema)
        return schema
