"""AES-256-GCM encryption of field values with a key ring from settings.

Stored format: ``gk1:<key id>:<base64url(nonce || ciphertext+tag)>``. The associated data binds a
value to its model and field, so a ciphertext copied into another column fails to decrypt.
"""
from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "gk1"
NONCE_BYTES = 12


class EncryptionConfigError(Exception):
    """The key ring in the environment is missing or malformed."""


class DecryptionError(Exception):
    """A stored value could not be decrypted (wrong key, unknown key id or tampering)."""


@dataclass(frozen=True)
class KeyRing:
    keys: dict[str, bytes]
    active_id: str

    def encrypt(self, plaintext: bytes, associated_data: bytes) -> str:
        nonce = os.urandom(NONCE_BYTES)
        sealed = AESGCM(self.keys[self.active_id]).encrypt(nonce, plaintext, associated_data)
        token = base64.urlsafe_b64encode(nonce + sealed).decode("ascii")
        return f"{PREFIX}:{self.active_id}:{token}"

    def decrypt(self, stored: str, associated_data: bytes) -> bytes:
        try:
            prefix, key_id, token = stored.split(":", 2)
        except ValueError:
            raise DecryptionError("value is not in the encrypted format") from None
        if prefix != PREFIX:
            raise DecryptionError("value is not in the encrypted format")
        key = self.keys.get(key_id)
        if key is None:
            raise DecryptionError(f"no key with id {key_id!r} in the key ring")
        try:
            raw = base64.urlsafe_b64decode(token.encode("ascii"))
        except (binascii.Error, ValueError):
            raise DecryptionError("encrypted value is not valid base64") from None
        try:
            return AESGCM(key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], associated_data)
        except InvalidTag:
            raise DecryptionError(f"authentication failed with key {key_id!r} (wrong key or tampered value)") from None


def key_id_of(stored: str) -> str | None:
    """Return the key id a stored value was encrypted with, or None if it is not ours."""
    parts = stored.split(":", 2)
    return parts[1] if len(parts) == 3 and parts[0] == PREFIX else None


def parse_key_ring(spec: str, active_id: str) -> KeyRing:
    """Build a key ring from ``"id:base64key,id2:base64key"``; every key must be 32 bytes."""
    keys: dict[str, bytes] = {}
    for entry in filter(None, (part.strip() for part in (spec or "").split(","))):
        key_id, sep, encoded = entry.partition(":")
        if not sep or not key_id or ":" in key_id:
            raise EncryptionConfigError("each key ring entry must look like 'id:base64key'")
        try:
            key = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise EncryptionConfigError(f"key {key_id!r} is not valid base64") from None
        if len(key) != 32:
            raise EncryptionConfigError(f"key {key_id!r} must be 32 bytes for AES-256, got {len(key)}")
        keys[key_id] = key
    if not keys:
        raise EncryptionConfigError("FIELD_ENCRYPTION_KEYS is empty")
    if active_id not in keys:
        raise EncryptionConfigError(f"active key {active_id!r} is not in FIELD_ENCRYPTION_KEYS")
    return KeyRing(keys=keys, active_id=active_id)


@lru_cache(maxsize=4)
def _cached_ring(spec: str, active_id: str) -> KeyRing:
    return parse_key_ring(spec, active_id)


def current_key_ring() -> KeyRing:
    """Return the key ring configured in settings (re-read if settings change, e.g. in tests)."""
    from django.conf import settings

    return _cached_ring(settings.FIELD_ENCRYPTION_KEYS, settings.FIELD_ENCRYPTION_ACTIVE_KEY)
