"""Settings for `make run`: embedded defaults so a fresh machine needs no configuration.

The defaults below are for local development only; production.py has none of them.
"""
import os

os.environ.setdefault("DJANGO_SECRET_KEY", "dev-only-secret-key-not-for-production-use-0123456789")
# A 32-byte demo key, base64; development only.
os.environ.setdefault("FIELD_ENCRYPTION_KEYS", "dev1:ZGV2LW9ubHkta2V5LWdpZW9rLTMyLWJ5dGVzLWxvbmc=")
os.environ.setdefault("FIELD_ENCRYPTION_ACTIVE_KEY", "dev1")
os.environ.setdefault("MEMORY_HASH_KEY", "dev-only-memory-hash-key")

from .base import *  # noqa: E402,F401,F403
