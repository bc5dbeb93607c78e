"""The characters users talk to. The persona is the immutable setting of seed 002 §1:
conversations never write it; only operators edit it."""
from django.core.validators import RegexValidator
from django.db import models


class Character(models.Model):
    slug = models.SlugField(
        max_length=64, primary_key=True,
        validators=[RegexValidator(r"^[a-z0-9][a-z0-9_-]*$", "lowercase letters, digits, - and _")],
    )
    display_name = models.CharField(max_length=100)
    persona = models.TextField(blank=True, help_text="Immutable persona: personality, speech, world, limits.")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.slug})"
