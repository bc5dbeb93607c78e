"""Input and output shapes of the memory API (camelCase, as in seed 000 §11.2)."""
from rest_framework import serializers

from core.serializers import ChoiceField, DateTimeField, StrictSerializer

from .categories import MemoryCategory, MemoryKind, MemorySource, seed_004_category
from .models import MemoryItem

MAX_CONTENT_CHARS = 2000


class MemoryCreateInput(StrictSerializer):
    content = serializers.CharField(max_length=MAX_CONTENT_CHARS, trim_whitespace=True)
    category = ChoiceField(choices=MemoryCategory.choices, default=MemoryCategory.OTHER)
    kind = ChoiceField(choices=MemoryKind.choices, default=MemoryKind.SEMANTIC)
    subjectKey = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)
    subjectValue = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)
    importance = serializers.IntegerField(min_value=1, max_value=10, default=5)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0, default=1.0)
    emotion = serializers.CharField(max_length=32, required=False, default="", allow_blank=True)
    emotionIntensity = serializers.FloatField(min_value=0.0, max_value=1.0, default=0.0)
    source = ChoiceField(choices=MemorySource.choices, default=MemorySource.INFERRED)
    sourceConversationId = serializers.CharField(max_length=128, required=False, default="", allow_blank=True)
    sourceMessageId = serializers.CharField(max_length=128, required=False, default="", allow_blank=True)
    expiresAt = DateTimeField(required=False, allow_null=True, default=None)


class MemoryListQuery(StrictSerializer):
    json_types = False  # query string: every value is a string
    user = serializers.CharField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)  # PostgreSQL OFFSET is a bigint
    includeArchived = serializers.BooleanField(default=False)
    category = ChoiceField(choices=MemoryCategory.choices, required=False)


class MemoryOutput(serializers.ModelSerializer):
    characterId = serializers.CharField(source="character_id")
    subjectKey = serializers.CharField(source="subject_key")
    subjectValue = serializers.CharField(source="subject_value")
    emotionIntensity = serializers.FloatField(source="emotion_intensity")
    sourceConversationId = serializers.CharField(source="source_conversation_id")
    sourceMessageId = serializers.CharField(source="source_message_id")
    mentionedCount = serializers.IntegerField(source="mentioned_count")
    usageCount = serializers.IntegerField(source="usage_count")
    lastUsedAt = DateTimeField(source="last_used_at", allow_null=True)
    expiresAt = DateTimeField(source="expires_at", allow_null=True)
    archivedAt = DateTimeField(source="archived_at", allow_null=True)
    createdAt = DateTimeField(source="created_at")
    updatedAt = DateTimeField(source="updated_at")
    isActive = serializers.BooleanField(source="is_active", help_text="False: replaced (superseded, merged).")
    supersededBy = serializers.IntegerField(source="superseded_by_id", allow_null=True,
                                            help_text="The memory that replaced this one, if any.")

    class Meta:
        model = MemoryItem
        fields = [
            "id", "characterId", "content", "category", "kind", "subjectKey", "subjectValue", "importance",
            "confidence", "strength", "emotion", "emotionIntensity", "source", "sourceConversationId",
            "sourceMessageId", "mentionedCount", "usageCount", "lastUsedAt", "expiresAt", "archivedAt",
            "createdAt", "updatedAt", "isActive", "supersededBy",
        ]
        read_only_fields = fields


class MemoryListOutput(serializers.Serializer):
    characterId = serializers.CharField()
    memories = MemoryOutput(many=True)
    total = serializers.IntegerField()
    hasMore = serializers.BooleanField()


class MemoryCreateOutput(serializers.Serializer):
    memory = MemoryOutput()
    created = serializers.BooleanField()


MAX_RETENTION_DAYS = 36500
MAX_PAUSED_CHARACTERS = 200


class MemorySettingsInput(StrictSerializer):
    """PUT /api/context/settings: the fields to change; a field left out keeps its value. Validated data is keyed
    by MemorySettings field (memory_settings_update's `changes`)."""
    enabled = serializers.BooleanField(required=False, help_text="Memory on or off for every character.")
    autoExtraction = serializers.BooleanField(required=False, source="auto_extraction", help_text="Extract from chat automatically; off, "
                                              "only what the user asks to remember is kept.")
    allowedCategories = serializers.ListField(child=ChoiceField(choices=MemoryCategory.choices), required=False,
                                              source="allowed_categories",
                                              max_length=len(MemoryCategory.choices),
                                              help_text="Empty allows every category.")
    retentionDays = serializers.IntegerField(required=False, allow_null=True, min_value=1, source="retention_days",
                                             max_value=MAX_RETENTION_DAYS, help_text="null keeps memories forever.")
    pausedCharacters = serializers.ListField(child=serializers.CharField(max_length=64), required=False,
                                             source="paused_characters",
                                             max_length=MAX_PAUSED_CHARACTERS,
                                             help_text="Characters memory is paused for (their ids).")


class MemorySettingsOutput(serializers.Serializer):
    enabled = serializers.BooleanField()
    autoExtraction = serializers.BooleanField(source="auto_extraction")
    allowedCategories = serializers.ListField(child=serializers.CharField(), source="allowed_categories")
    retentionDays = serializers.IntegerField(source="retention_days", allow_null=True)
    pausedCharacters = serializers.ListField(child=serializers.CharField(), source="paused_characters")
    updatedAt = DateTimeField(source="updated_at", allow_null=True)


class MemoryUpdateInput(StrictSerializer):
    content = serializers.CharField(max_length=2000, required=False)
    importance = serializers.IntegerField(min_value=1, max_value=10, required=False)
    category = ChoiceField(choices=MemoryCategory.choices, required=False)


class MemoryEventOutput(serializers.Serializer):
    memoryId = serializers.CharField(source="object_id")
    action = serializers.CharField()
    trigger = serializers.CharField()
    fields = serializers.ListField(source="changed_fields", child=serializers.CharField())
    details = serializers.DictField(help_text="Counts, codes and numbers (e.g. importance_from/importance_to).")
    at = DateTimeField(source="created_at")


class MemoryHistoryOutput(serializers.Serializer):
    memoryId = serializers.IntegerField()
    characterId = serializers.CharField()
    versions = MemoryOutput(many=True, help_text="Oldest first: what it said before each correction or merge.")
    events = MemoryEventOutput(many=True)


# Seed 004 §6 (/api/v1/users/me/...): its field names and its five categories.
SEED_004_NAMES = [(name, name) for name in ("location", "preference", "behavior", "context", "feedback")]


class UserMemoryListQuery(StrictSerializer):
    json_types = False
    user = serializers.CharField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)


class UserMemoryOutput(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    category = serializers.SerializerMethodField(help_text="Seed 004's category name.")
    character_id = serializers.CharField(help_text="The character this memory is kept with (our addition).")
    confidence = serializers.FloatField()
    created_at = DateTimeField()
    last_used_at = DateTimeField(allow_null=True)
    usage_count = serializers.IntegerField()

    def get_category(self, item) -> str:
        return seed_004_category(item.category, item.source)


class UserMemoryListOutput(serializers.Serializer):
    memories = UserMemoryOutput(many=True)
    total = serializers.IntegerField()


class UserMemorySettingsInput(StrictSerializer):
    is_enabled = serializers.BooleanField(required=False)
    auto_extraction = serializers.BooleanField(required=False)
    allowed_categories = serializers.ListField(child=ChoiceField(choices=SEED_004_NAMES), required=False,
                                               max_length=5, help_text="Seed 004's names; empty allows every one.")


class UserMemorySettingsOutput(serializers.Serializer):
    is_enabled = serializers.BooleanField()
    auto_extraction = serializers.BooleanField()
    allowed_categories = serializers.ListField(child=serializers.CharField())
    max_memories = serializers.IntegerField(allow_null=True, help_text="The plan's cap per character; null: none.")
