"""The four document layers of a (user, character) scope, and user-level shared activity.

Layer documents follow seed 000 §10.3 (camelCase keys) and are validated by
context_layers.documents before they are stored. All four are encrypted at rest.
"""
from django.conf import settings
from django.db import models

from core.encrypted_fields import EncryptedJSONField
from memories.masking import mask_document


class UserContext(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="contexts")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="user_contexts")
    heartbeat = EncryptedJSONField(default=dict, blank=True, masker=mask_document)
    # identity = {"userSet": {...}, "inferred": {...}}: seed 000 §3.3 keeps the two apart.
    identity = EncryptedJSONField(default=dict, blank=True, masker=mask_document)
    soul = EncryptedJSONField(default=dict, blank=True, masker=mask_document)
    tools = EncryptedJSONField(default=dict, blank=True, masker=mask_document)
    last_seen_at = models.DateTimeField(null=True, blank=True, help_text="Plain copy for scheduling queries.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "character"], name="user_context_unique_scope")]

    def __str__(self) -> str:
        return f"context of {self.user.get_username()} with {self.character.display_name}"


class UserActivity(models.Model):
    """Heartbeat statistics shared across characters (seed 000 §2.1)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="activity")
    first_seen_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    total_active_days = models.PositiveIntegerField(default=0)
    total_conversations = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "user activity"

    def __str__(self) -> str:
        return f"activity of {self.user.get_username()}"


class IntimacyLevel(models.TextChoices):
    STRANGER = "stranger"
    ACQUAINTANCE = "acquaintance"
    FRIEND = "friend"
    CLOSE_FRIEND = "close_friend"
    INTIMATE = "intimate"


class Relationship(models.Model):
    """The relationship axes of seed 003 §2-1 for one (user, character) scope, each 0-100."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relationships")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="relationships")
    trust = models.FloatField(default=10.0)
    affection = models.FloatField(default=10.0)
    respect = models.FloatField(default=10.0)
    rivalry = models.FloatField(default=0.0)
    familiarity = models.FloatField(default=0.0)
    intimacy_score = models.FloatField(default=0.0)
    intimacy_level = models.CharField(max_length=16, choices=IntimacyLevel.choices, default=IntimacyLevel.STRANGER)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "character"], name="relationship_unique_scope")]

    def __str__(self) -> str:
        return f"relationship of {self.user.get_username()} with {self.character.display_name}: {self.intimacy_level}"
