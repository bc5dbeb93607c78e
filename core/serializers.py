"""Serializer helpers shared by the apps: every API serializer takes its timestamp and choice fields
from here, so timestamps have one form and choice errors one message everywhere."""
from datetime import timezone as dt_timezone

from rest_framework import serializers

from .timestamps import InstantError, check_instant, format_instant, format_stored_instant


def _json_type_error(field, value) -> str | None:
    """Return why `value` does not have the JSON type `field` declares, or None.

    DRF coerces on input (1 becomes "1" for a CharField, "5" becomes 5 for an IntegerField, 1 becomes True);
    the published schema promises types, so a JSON body must carry them (schemathesis checks both ways).
    """
    if value is None:
        return None  # allow_null / required are DRF's own checks
    if isinstance(field, serializers.ListSerializer):
        if not isinstance(value, list):
            return "Expected a list."
        return next((error for item in value if (error := _json_type_error(field.child, item))), None)
    if isinstance(field, serializers.Serializer):
        return None if isinstance(value, dict) else "Expected an object."
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return "Expected a list."
        return next((error for item in value if (error := _json_type_error(field.child, item))), None)
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return "Expected an object."
        return next((error for item in value.values() if (error := _json_type_error(field.child, item))), None)
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Expected a boolean."
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else "Expected an integer."
    if isinstance(field, (serializers.FloatField, serializers.DecimalField)):
        return None if isinstance(value, (int, float)) and not isinstance(value, bool) else "Expected a number."
    if isinstance(field, (serializers.CharField, serializers.ChoiceField, serializers.DateTimeField,
                          serializers.DateField)):
        return None if isinstance(value, str) else "Expected a string."
    return None


class StrictSerializer(serializers.Serializer):
    """A serializer that refuses keys it does not declare and, for JSON bodies, values of the wrong JSON type
    (both reported with the other field errors). Query-string serializers set `json_types = False`: every
    query value is a string and is parsed by the field."""

    json_types = True

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        errors = {key: ["Unknown field."] for key in unknown}
        if self.json_types and isinstance(data, dict):
            for name, field in self.fields.items():
                if name in data and not field.read_only and (error := _json_type_error(field, data[name])):
                    errors[name] = [error]
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            detail = exc.detail if isinstance(exc.detail, dict) else {"nonFieldErrors": exc.detail}
            raise serializers.ValidationError({**detail, **errors}) from None
        if errors:
            raise serializers.ValidationError(errors)
        return value


class DateTimeField(serializers.DateTimeField):
    """The API's timestamp: ISO 8601 with an explicit UTC offset in, `YYYY-MM-DDTHH:MM:SS.sssZ` out.

    Input without an offset is refused (taking it as UTC would silently shift a Korean client's
    time by nine hours), as are offsets beyond ±14:00 and instants outside 1970-2100 UTC
    (core.timestamps). With `keep_offset=True` the validated value keeps the client's own offset
    (messages need it for the sender's calendar day); otherwise it is converted to UTC.
    """

    default_error_messages = {
        "invalid": "Datetime has wrong format. Use ISO 8601 with a UTC offset, e.g. 2026-03-01T21:00:00+09:00 "
                   "or 2026-03-01T12:00:00Z.",
        "offset_required": "Datetime needs a UTC offset (e.g. +09:00 or Z).",
        "offset_range": "UTC offset must be whole minutes between -14:00 and +14:00.",
        "out_of_range": "Datetime must be between 1970-01-01T00:00:00Z and 2100-01-01T00:00:00Z.",
    }

    def __init__(self, *, keep_offset: bool = False, **kwargs):
        self.keep_offset = keep_offset
        super().__init__(**kwargs)

    def enforce_timezone(self, value):
        try:
            check_instant(value)
        except InstantError as error:
            self.fail(error.code)
        return value if self.keep_offset else value.astimezone(dt_timezone.utc)

    def to_representation(self, value):
        if isinstance(value, str):  # a timestamp kept as text in a JSON document
            return format_stored_instant(value)
        return format_instant(value)


class ChoiceField(serializers.ChoiceField):
    """DRF's ChoiceField whose error lists the valid values."""

    default_error_messages = {"invalid_choice": '"{input}" is not a valid choice. Valid values: {valid}.'}

    def fail(self, key, **kwargs):
        if key == "invalid_choice":
            kwargs["valid"] = ", ".join(self.choice_strings_to_values)
        super().fail(key, **kwargs)
