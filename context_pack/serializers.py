"""Request and response shapes of the context pack API."""
from rest_framework import serializers

from core.serializers import ChoiceField, StrictSerializer

from .situations import SITUATIONS


class PromptInput(StrictSerializer):
    message = serializers.CharField(max_length=10_000, allow_blank=True, trim_whitespace=False)
    budgetTokens = serializers.IntegerField(min_value=200, max_value=8000, default=1100)
    situation = ChoiceField(choices=SITUATIONS, allow_null=True, required=False, default=None)


class PromptItem(serializers.Serializer):
    id = serializers.IntegerField()
    content = serializers.CharField()
    category = serializers.CharField()
    sourceMessageId = serializers.CharField()
    score = serializers.FloatField()


class LayerOutput(serializers.Serializer):
    tokens = serializers.IntegerField()
    lines = serializers.IntegerField()


class MemoryLayerOutput(LayerOutput):
    items = PromptItem(many=True)


class PromptLayers(serializers.Serializer):
    memory = MemoryLayerOutput()
    heartbeat = LayerOutput()
    identity = LayerOutput()
    soul = LayerOutput()
    tools = LayerOutput()


class PromptOutput(serializers.Serializer):
    text = serializers.CharField()
    tokens = serializers.IntegerField()
    budget = serializers.IntegerField()
    situation = serializers.CharField()
    fresh = serializers.BooleanField()
    layers = PromptLayers()


class MemoryLoadQuery(StrictSerializer):
    json_types = False  # query string: every value is a string
    personaId = serializers.CharField(max_length=64)
    limit = serializers.IntegerField(min_value=1, max_value=50, default=5)
    user = serializers.CharField(required=False)
