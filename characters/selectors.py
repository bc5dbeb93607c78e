"""Reads for characters."""
from core.errors import NotFoundError

from .models import Character


def character_get_active(*, slug: str) -> Character:
    """Return the active character with this slug, or raise CHARACTER_NOT_FOUND (404)."""
    # PostgreSQL text cannot hold NUL, so such a slug names no character (rather than a 500).
    character = None if "\x00" in slug else Character.objects.filter(slug=slug, is_active=True).first()
    if character is None:
        raise NotFoundError(f"Unknown character {slug!r}.", code="CHARACTER_NOT_FOUND")
    return character


def characters_unknown(*, slugs) -> list[str]:
    """The slugs among `slugs` that name no character, sorted."""
    slugs = {slug for slug in slugs if "\x00" not in slug}
    return sorted(slugs - set(Character.objects.filter(slug__in=slugs).values_list("slug", flat=True)))
