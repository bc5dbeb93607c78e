"""Serializer helpers shared by the apps."""
from datetime import timezone as dt_timezone

from django.utils import timezone
from rest_framework import serializers


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


class OffsetPreservingDateTimeField(serializers.DateTimeField):
    """Keep the client's own UTC offset (needed for the user's calendar day); naive input is UTC."""

    def enforce_timezone(self, value):
        if timezone.is_aware(value):
            return value
        return timezone.make_aware(value, dt_timezone.utc)
