"""Shapes of the ingestion and session-memory API."""
from rest_framework import serializers

from core.serializers import ChoiceField, DateTimeField, StrictSerializer

from .models import MessageRole

MAX_MESSAGE_CHARS = 10_000
MAX_BATCH = 100
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}$"


class IncomingMessageInput(StrictSerializer):
    id = serializers.RegexField(ID_PATTERN, max_length=128)
    role = ChoiceField(choices=MessageRole.choices)
    content = serializers.CharField(max_length=MAX_MESSAGE_CHARS, trim_whitespace=False)
    # The sender's offset is kept (stored as utc_offset_minutes for the user's calendar day).
    createdAt = DateTimeField(keep_offset=True)

    def validate_content(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError("Content must not be empty.")
        if "\x00" in value:
            raise serializers.ValidationError("Content must not contain NUL characters.")
        return value


class MessagesInput(StrictSerializer):
    conversationId = serializers.RegexField(ID_PATTERN, max_length=128)
    messages = serializers.ListField(child=IncomingMessageInput(), min_length=1, max_length=MAX_BATCH)


class MessagesAccepted(serializers.Serializer):
    conversationId = serializers.CharField()
    accepted = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    kept = serializers.BooleanField(help_text="False while the user has memory off or paused for this character: "
                                              "nothing posted was stored.")


class MessageOutput(serializers.Serializer):
    id = serializers.CharField(source="external_id")
    role = serializers.CharField()
    content = serializers.CharField()
    createdAt = DateTimeField(source="created_at")


class SummaryOutput(serializers.Serializer):
    summary = serializers.CharField()
    topics = serializers.ListField(child=serializers.CharField())
    emotion = serializers.CharField()
    importance = serializers.IntegerField()
    fallback = serializers.BooleanField()
    createdAt = DateTimeField(source="created_at")


class ConversationOutput(serializers.Serializer):
    conversationId = serializers.CharField(source="external_id")
    characterId = serializers.CharField(source="character_id")
    status = serializers.CharField()
    endReason = serializers.CharField(source="end_reason")
    startedAt = DateTimeField(source="started_at")
    lastMessageAt = DateTimeField(source="last_message_at")
    endedAt = DateTimeField(source="ended_at", allow_null=True)
    messageCount = serializers.IntegerField(source="message_count")
    messages = MessageOutput(many=True)
    summaries = SummaryOutput(many=True)


class ConversationEnded(serializers.Serializer):
    conversationId = serializers.CharField()
    status = serializers.CharField()
