"""Validation of the layer documents of seed 000 §10.3. Unknown keys are rejected."""
from __future__ import annotations

import re

from rest_framework import serializers

from core.serializers import ChoiceField, DateTimeField, StrictSerializer

HONORIFICS = ["반말", "존댓말", "혼합"]
RELATIONSHIP_TYPES = ["팬", "친구", "연인", "동생", "오빠", "언니"]
_SHORT = 200
_LIST_MAX = 50
_MONTH_DAY = re.compile(r"^(\d{4}-)?(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")


def _text_list(**kwargs):
    return serializers.ListField(child=serializers.CharField(max_length=_SHORT), max_length=_LIST_MAX,
                                 required=False, **kwargs)


class HeartbeatDocument(StrictSerializer):
    lastSeenAt = DateTimeField(required=False)
    recentDaysCount = serializers.IntegerField(min_value=0, max_value=7, required=False)
    totalConversations = serializers.IntegerField(min_value=0, max_value=10**9, required=False)
    avgSessionDuration = serializers.FloatField(min_value=0, max_value=100_000, required=False)
    emotionTrend = serializers.CharField(max_length=_SHORT, required=False, allow_blank=True)
    streakDays = serializers.IntegerField(min_value=0, max_value=100_000, required=False)
    lastEmotionKeywords = _text_list()


class IdentityDocument(StrictSerializer):
    nickname = serializers.CharField(max_length=50, required=False)
    honorific = ChoiceField(choices=HONORIFICS, required=False)
    relationshipType = ChoiceField(choices=RELATIONSHIP_TYPES, required=False)
    customTitle = serializers.CharField(max_length=50, required=False, allow_blank=True)
    inferredTraits = _text_list()


class SoulDocument(StrictSerializer):
    values = _text_list()
    dreams = _text_list()
    fears = _text_list()
    recurringWorries = _text_list()
    lifePhase = serializers.CharField(max_length=50, required=False, allow_blank=True)
    summary = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class SpecialDate(StrictSerializer):
    # A RegexField, so the published schema carries the same pattern the server checks.
    date = serializers.RegexField(_MONTH_DAY.pattern, max_length=10, help_text="MM-DD, or YYYY-MM-DD for a one-off date.",
                                  error_messages={"invalid": "Use MM-DD or YYYY-MM-DD."})
    description = serializers.CharField(max_length=_SHORT)


class CustomRule(StrictSerializer):
    condition = serializers.CharField(max_length=_SHORT)
    action = serializers.CharField(max_length=_SHORT)


class ToolsDocument(StrictSerializer):
    avoidTopics = _text_list()
    specialDates = serializers.ListField(child=SpecialDate(), max_length=_LIST_MAX, required=False)
    enabledFeatures = _text_list()
    disabledFeatures = _text_list()
    customRules = serializers.ListField(child=CustomRule(), max_length=_LIST_MAX, required=False)


LAYER_DOCUMENTS = {
    "heartbeat": HeartbeatDocument,
    "identity": IdentityDocument,
    "soul": SoulDocument,
    "tools": ToolsDocument,
}


def validate_layer_document(layer: str, data) -> dict:
    """Return the validated document (JSON-ready) or raise a DRF ValidationError."""
    if not isinstance(data, dict):
        raise serializers.ValidationError({"nonFieldErrors": ["Expected a JSON object."]})
    serializer = LAYER_DOCUMENTS[layer](data=data)
    serializer.is_valid(raise_exception=True)
    # Round-trip through to_representation so datetimes are stored in the API's one text form.
    return {key: value for key, value in serializer.to_representation(serializer.validated_data).items()
            if key in serializer.validated_data}
