"""The append-only audit trail. It holds ids, names of changed fields and counts, never content.

No foreign keys: deleting a user, character or memory must not delete or rewrite the trail
(and the database trigger rejects every UPDATE and DELETE on this table).
"""
from django.db import models


class AuditAction(models.TextChoices):
    CREATED = "created"
    UPDATED = "updated"
    MERGED = "merged"
    DEACTIVATED = "deactivated"
    REACTIVATED = "reactivated"
    EXPIRED = "expired"
    ARCHIVED = "archived"
    DELETED = "deleted"
    EXPORTED = "exported"
    VIEWED = "viewed"
    REFUSED = "refused"
    KEY_ROTATED = "key_rotated"
    REDACTED = "redacted"
    SIGNED_IN = "signed_in"
    SIGNED_OUT = "signed_out"


class AuditTrigger(models.TextChoices):
    API = "api"
    ADMIN = "admin"
    LLM_EXTRACTION = "llm_extraction"
    USER_REQUEST = "user_request"
    SYSTEM = "system"
    DECAY = "decay"
    TIER_POLICY = "tier_policy"
    COMMAND = "command"
    PORTAL = "portal"  # an end user on their memory pages


class AuditLog(models.Model):
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor_id = models.BigIntegerField(null=True, blank=True)
    actor_label = models.CharField(max_length=200, blank=True)
    action = models.CharField(max_length=32, choices=AuditAction.choices)
    trigger = models.CharField(max_length=32, choices=AuditTrigger.choices)
    target_user_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    target_user_ref = models.CharField(max_length=200, blank=True)
    character_slug = models.CharField(max_length=64, blank=True)
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64, blank=True)
    changed_fields = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)  # counts and codes only, never content
    request_id = models.CharField(max_length=64, blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["target_user_id", "-created_at"], name="audit_target_time_idx"),
            models.Index(fields=["object_type", "object_id"], name="audit_object_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.actor_label} {self.action} {self.object_type}:{self.object_id}"
