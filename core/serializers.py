"""Serializer helpers shared by the apps."""
from rest_framework import serializers


class StrictSerializer(serializers.Serializer):
    """A serializer that refuses keys it does not declare."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: ["Unknown field."] for key in unknown})
        return super().to_internal_value(data)
