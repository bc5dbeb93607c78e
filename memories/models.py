"""Memory items per (user, character) scope, and each user's memory settings (seed 004 §3.3)."""
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from pgvector.django import VectorField

from core.encrypted_fields import EncryptedJSONField, EncryptedTextField

from .categories import MemoryCategory, MemoryKind, MemorySource
from .masking import mask_document, mask_text

EMBEDDING_DIMENSIONS = 512


class MemoryItem(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_items")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="memory_items")
    content = EncryptedTextField(masker=mask_text)
    content_hash = models.CharField(max_length=64, help_text="Keyed hash of the normalised content.")
    category = models.CharField(max_length=32, choices=MemoryCategory.choices, default=MemoryCategory.OTHER)
    kind = models.CharField(max_length=16, choices=MemoryKind.choices, default=MemoryKind.SEMANTIC)
    subject_key = models.CharField(max_length=100, blank=True, help_text="Structured fact key, e.g. 'birthday'.")
    subject_value = EncryptedTextField(blank=True, default="", masker=mask_text)
    importance = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(1), MaxValueValidator(10)])
    confidence = models.FloatField(default=1.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    strength = models.FloatField(default=1.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    emotion = models.CharField(max_length=32, blank=True)
    # What a summary memory is about (seed 001 §2.1: "영화", "여가활동"); masked and encrypted like its text.
    topics = EncryptedJSONField(default=list, blank=True, masker=mask_document)
    emotion_intensity = models.FloatField(default=0.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    source = models.CharField(max_length=16, choices=MemorySource.choices, default=MemorySource.INFERRED)
    source_conversation_id = models.CharField(max_length=128, blank=True)
    source_message_id = models.CharField(max_length=128, blank=True)
    mentioned_count = models.PositiveIntegerField(default=1)
    usage_count = models.PositiveIntegerField(default=0)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    event_date = models.DateField(null=True, blank=True, help_text="When the remembered event happened.")
    superseded_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    strength_decayed_at = models.DateTimeField(null=True, blank=True)
    confidence_decayed_at = models.DateTimeField(null=True, blank=True)
    lexical_keys = ArrayField(models.CharField(max_length=16), default=list, blank=True,
                              help_text="Keyed hashes of the content words (memories.lexical).")
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "character", "content_hash"],
                condition=Q(is_active=True),
                name="memory_unique_active_content_per_scope",
            ),
            models.CheckConstraint(condition=Q(importance__gte=1, importance__lte=10), name="memory_importance_1_10"),
            models.CheckConstraint(condition=Q(confidence__gte=0, confidence__lte=1), name="memory_confidence_0_1"),
            models.CheckConstraint(condition=Q(strength__gte=0, strength__lte=1), name="memory_strength_0_1"),
        ]
        indexes = [
            models.Index(fields=["user", "character", "is_active", "archived_at"], name="memory_scope_live_idx"),
            models.Index(fields=["user", "character", "subject_key"], name="memory_scope_subject_idx"),
            GinIndex(fields=["lexical_keys"], name="memory_lexical_keys_gin"),
            # the scope's structured facts (outdated values, fact writing, summaries) without its episodes
            models.Index(fields=["user", "character"], condition=~Q(subject_key=""), name="memory_scope_facts_idx"),
            # rows the embedding backfill job still has to embed (normally none): found without a table scan
            models.Index(fields=["id"], condition=Q(embedding__isnull=True), name="memory_missing_embedding_idx"),
        ]
        # Migration 0003 also sets toast_tuple_target = 8160 on the table, so the 2 KB embedding stays in the
        # row instead of TOAST: scoring a scope's items then reads one heap page per item, not three more
        # TOAST index and chunk pages (4x faster prompt retrieval at 10,000 items in a 1,000,000-row table).

    def __str__(self) -> str:
        return f"memory #{self.pk} of {self.user.get_username()} with {self.character.display_name} ({self.category})"

    @property
    def is_live(self) -> bool:
        return self.is_active and self.archived_at is None


class MemorySettings(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_settings")
    enabled = models.BooleanField(default=True)
    auto_extraction = models.BooleanField(default=True)
    # Empty list means every category is allowed (seed 004 defaults to two; we keep everything unless told).
    allowed_categories = ArrayField(models.CharField(max_length=32, choices=MemoryCategory.choices), default=list, blank=True)
    retention_days = models.PositiveIntegerField(null=True, blank=True, help_text="Empty keeps memories forever.")
    # Characters memory is paused for (slugs): like memory off, for those characters only.
    paused_characters = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    # When the user agreed to the consent notice on their memory pages (seed 004 §7.4); None: never asked there.
    consented_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "memory settings"

    def __str__(self) -> str:
        return f"memory settings of {self.user.get_username()}"

    def remembers(self, character) -> bool:
        """Whether memory is on for `character` (a Character or its slug): on, and not paused for it. Off, nothing
        is extracted, stored from chat, or shown to any reader of the scope's memories."""
        return self.enabled and getattr(character, "pk", character) not in self.paused_characters

    def allows(self, category: str) -> bool:
        return not self.allowed_categories or category in self.allowed_categories
