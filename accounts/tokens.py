"""Bearer token format and hashing."""
import hashlib
import secrets

TOKEN_PREFIX = "gk_"


def new_plain_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(plain: str) -> str:
    return hashlib.sha256(plain.encode("utf-8")).hexdigest()
