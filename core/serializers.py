"""Serializer helpers shared by the apps."""
from datetime import timezone as dt_timezone

from django.utils import timezone
from rest_framework import serializers


class StrictSerializer(serializers.Serializer):
    """A serializer that refuses keys it does not declare (reported with the other field errors)."""

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        errors = {key: ["Unknown field."] for key in unknown}
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
