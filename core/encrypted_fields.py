"""Model fields whose values are encrypted at rest with core.crypto (AES-256-GCM).

The column is plain text holding ciphertext. Lookups other than isnull are meaningless on it.

A field declared with `masker=` (a function from value to value, e.g. the PII masking service) passes every
value written through it — by save(), create(), bulk_create() or QuerySet.update() — through the masker
before sealing it, and puts the masked value back on the instance being saved. The masker is not part of
the schema, so it is left out of migrations.
"""
from __future__ import annotations

import json

from django import forms
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from .crypto import current_key_ring


class _EncryptedMixin:
    def __init__(self, *args, masker=None, **kwargs):
        self.masker = masker
        super().__init__(*args, **kwargs)

    def _masked(self, value):
        return self.masker(value) if self.masker is not None and value is not None else value

    def pre_save(self, model_instance, add):
        value = super().pre_save(model_instance, add)
        masked = self._masked(value)
        if masked is not value and masked != value:
            setattr(model_instance, self.attname, masked)  # the saved instance shows what is stored
        return masked

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
        return None if value is None else self._seal(self._masked(str(value)))


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
        return self._seal(json.dumps(self._masked(value), cls=self.encoder, ensure_ascii=False))

    def value_to_string(self, obj):
        return json.dumps(self.value_from_object(obj), cls=self.encoder, ensure_ascii=False)

    def formfield(self, **kwargs):
        return forms.JSONField(encoder=self.encoder, **{"required": not self.blank, **kwargs})
