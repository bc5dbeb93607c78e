"""Model fields whose values are encrypted at rest with core.crypto (AES-256-GCM).

The column is plain text holding ciphertext. Lookups other than isnull are meaningless on it.
"""
from __future__ import annotations

import json

from django import forms
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from .crypto import current_key_ring


class _EncryptedMixin:
    def associated_data(self) -> bytes:
        return f"{self.model._meta.label_lower}.{self.name}".encode()

    def _seal(self, plaintext: str) -> str:
        return current_key_ring().encrypt(plaintext.encode("utf-8"), self.associated_data())

    def _open(self, stored: str) -> str:
        return current_key_ring().decrypt(stored, self.associated_data()).decode("utf-8")

    def get_internal_type(self) -> str:
        return "TextField"


class EncryptedTextField(_EncryptedMixin, models.TextField):
    """A text field stored as AES-256-GCM ciphertext."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else self._open(value)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return None if value is None else self._seal(str(value))


class EncryptedJSONField(_EncryptedMixin, models.TextField):
    """A JSON value stored as AES-256-GCM ciphertext; types (numbers, bools, lists) survive."""

    def __init__(self, *args, encoder=DjangoJSONEncoder, **kwargs):
        self.encoder = encoder
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.encoder is not DjangoJSONEncoder:
            kwargs["encoder"] = self.encoder
        return name, path, args, kwargs

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(self._open(value))

    def to_python(self, value):
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                return value
        return value

    def get_prep_value(self, value):
        if value is None:
            return None
        return self._seal(json.dumps(value, cls=self.encoder, ensure_ascii=False))

    def value_to_string(self, obj):
        return json.dumps(self.value_from_object(obj), cls=self.encoder, ensure_ascii=False)

    def formfield(self, **kwargs):
        return forms.JSONField(encoder=self.encoder, **{"required": not self.blank, **kwargs})
