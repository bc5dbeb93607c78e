"""Serializer helpers shared by the apps."""
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
