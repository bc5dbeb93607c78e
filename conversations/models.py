"""Chat messages posted by chat backends, their conversations and summaries.

Message text is PII-masked before it is stored, and encrypted at rest. A message whose
`processed_at` is empty is pending work: the outbox the extraction jobs drain, so a crash between
storing and processing never loses a message. A message whose processing keeps failing is
quarantined after JOB_MAX_ATTEMPTS runs (`quarantined_at`, with `processed_at` set so it leaves the
queue), so one bad row never blocks the queue.
"""
from datetime import timedelta
from datetime import timezone as dt_timezone

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from core.encrypted_fields import EncryptedJSONField, EncryptedTextField
from memories.masking import mask_document, mask_text


class ConversationStatus(models.TextChoices):
    OPEN = "open"
    ENDED = "ended"


class EndReason(models.TextChoices):
    EXPLICIT = "explicit"
    IDLE = "idle"
    SAVE_REQUEST = "save_request"


class Conversation(models.Model):
    # The scope row anchors the conversation: deleting a character context deletes its messages too.
    scope = models.ForeignKey("context_layers.UserContext", on_delete=models.CASCADE, related_name="conversations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="conversations")
    external_id = models.CharField(max_length=128)
    status = models.CharField(max_length=8, choices=ConversationStatus.choices, default=ConversationStatus.OPEN)
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True)
    started_at = models.DateTimeField()
    last_message_at = models.DateTimeField()
    last_received_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    message_count = models.PositiveIntegerField(default=0)
    summarized_count = models.PositiveIntegerField(default=0, help_text="Messages covered by summaries so far.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "character", "external_id"],
                                               name="conversation_unique_external_id")]
        indexes = [models.Index(fields=["status", "last_received_at"], name="conversation_idle_idx")]

    def __str__(self) -> str:
        return f"conversation {self.external_id} of {self.user.get_username()} with {self.character.display_name}"


class MessageRole(models.TextChoices):
    USER = "user"
    ASSISTANT = "assistant"


class Message(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    external_id = models.CharField(max_length=128)
    role = models.CharField(max_length=16, choices=MessageRole.choices)
    content = EncryptedTextField(help_text="PII-masked before storage.", masker=mask_text)
    pii_kinds = ArrayField(models.CharField(max_length=16), default=list, blank=True)
    created_at = models.DateTimeField(help_text="When the message was sent (from the client).")
    # The sender's UTC offset, so "today"/"어제" and event dates use the user's own calendar day.
    utc_offset_minutes = models.SmallIntegerField(default=0)
    received_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    # Keyed hash of the masked text: a re-posted id with other content is a conflict, not a duplicate.
    content_digest = models.CharField(max_length=64, blank=True)
    # Poison-message handling: failed processing runs, the last error's class name, and when the
    # message was taken out of the queue for good (then processed_at is set too).
    process_attempts = models.PositiveSmallIntegerField(default=0)
    last_error_code = models.CharField(max_length=64, blank=True)
    quarantined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "character", "external_id"],
                                               name="message_unique_external_id")]
        indexes = [
            models.Index(fields=["user", "character", "created_at"], name="message_scope_time_idx"),
            models.Index(fields=["user", "character"], condition=Q(processed_at__isnull=True),
                         name="message_pending_idx"),
        ]

    def __str__(self) -> str:
        return f"message {self.external_id} ({self.role})"

    @property
    def local_created_at(self):
        """created_at in the sender's own UTC offset."""
        return self.created_at.astimezone(dt_timezone(timedelta(minutes=self.utc_offset_minutes)))


class ConversationSummary(models.Model):
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="summaries")
    summary = EncryptedTextField(masker=mask_text)
    topics = EncryptedJSONField(default=list, masker=mask_document)
    emotion = models.CharField(max_length=16)
    importance = models.PositiveSmallIntegerField()
    fallback = models.BooleanField(default=False)
    covers_until = models.PositiveIntegerField(help_text="message_count of the conversation this summary covers.")
    summarizer = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["conversation", "covers_until"],
                                               name="summary_unique_coverage")]

    def __str__(self) -> str:
        return f"summary of {self.conversation_id} up to message {self.covers_until}"
