"""Who calls the API (tokens), and which plan each end user is on (tier policy).

End users are Django users whose username is the chat product's external user id.
"""
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models

CONTEXT_ADMIN_GROUP = settings.CONTEXT_ADMIN_GROUP
SERVICE_USERNAME_PREFIX = "__service__"


class Plan(models.TextChoices):
    FREE = "FREE"
    BASIC = "BASIC"
    PREMIUM = "PREMIUM"
    ULTIMATE = "ULTIMATE"


class HeartbeatDetail(models.TextChoices):
    LAST_SEEN = "last_seen", "last_seen only"
    BASIC = "basic", "basic counts"
    DETAILED = "detailed", "counts and emotion trend"
    REPORT = "report", "detailed with analysis report"


class TierPolicy(models.Model):
    """What each plan may keep. Editable by operators in the admin; defaults from seed 000 §4.3."""

    plan = models.CharField(max_length=16, choices=Plan.choices, unique=True)
    memory_cap = models.PositiveIntegerField(null=True, blank=True, help_text="Empty means unlimited.")
    soul_enabled = models.BooleanField(default=False)
    heartbeat_detail = models.CharField(max_length=16, choices=HeartbeatDetail.choices)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "tier policies"
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.plan} (cap {self.memory_cap if self.memory_cap is not None else '∞'})"


class UserPlan(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan")
    plan = models.CharField(max_length=16, choices=Plan.choices, default=Plan.FREE)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user.get_username()}: {self.plan}"


class TokenKind(models.TextChoices):
    USER = "user", "end user"
    SERVICE = "service", "system (chat backend)"


class ApiToken(models.Model):
    """A bearer token. Only its SHA-256 is stored; the plain token is shown once at creation."""

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=16, choices=TokenKind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    key_prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Service tokens: the origins (scheme://host[:port]) a portal session may send the user back to.
    return_origins = ArrayField(models.CharField(max_length=200), default=list, blank=True,
                                help_text="Service tokens: origins a portal session's return URL may point to, "
                                          "e.g. https://chat.example.com")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind}, {self.key_prefix}…)"


class PortalLink(models.Model):
    """A one-time sign-in link to the user's memory pages, minted by a chat backend (POST
    /api/accounts/portal-sessions). Only its SHA-256 is stored; it is spent on first use or expires."""

    key_hash = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="portal_links")
    issued_by = models.ForeignKey(ApiToken, null=True, on_delete=models.SET_NULL, related_name="+")
    character_slug = models.CharField(max_length=64, blank=True)
    return_url = models.CharField(max_length=2000, blank=True)
    language = models.CharField(max_length=8, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["expires_at"], name="portal_link_expiry_idx")]

    def __str__(self) -> str:
        return f"portal link #{self.pk} of {self.user.get_username()}"


class TokenFailureWindow(models.Model):
    """Failed bearer-token authentications from one client address since `window_started_at`.

    In the database, not in process memory, so every gunicorn worker and host shares the count
    (accounts.services.token_failure_record, accounts.selectors.token_lockout_seconds).
    """

    client_address = models.CharField(max_length=64, primary_key=True)
    window_started_at = models.DateTimeField(db_index=True)
    failures = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"{self.client_address}: {self.failures} failed token(s) since {self.window_started_at:%H:%M:%S}"
