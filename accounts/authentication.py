"""`Authorization: Bearer <token>` for end users and system clients.

Failed token authentications are counted per client address (accounts.services.token_failure_record).
After TOKEN_AUTH_FAILURE_LIMIT failures within TOKEN_AUTH_FAILURE_WINDOW_SECONDS the address gets 429
`THROTTLED` with Retry-After for every bearer request, a valid token included, until the window
ends: a guesser must not learn that a guess was right while it is locked out.
"""
from __future__ import annotations

from rest_framework import authentication, exceptions

from core.timing import phase

from .access import client_ip
from .models import ApiToken
from .selectors import token_lockout_seconds
from .services import token_failure_record
from .tokens import hash_token


class TokenThrottled(exceptions.Throttled):
    default_detail = "Too many failed token authentications from this address."


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        with phase("auth"):  # core.timing: with resolve_caller's subject lookup, the request's "auth" phase
            return self._authenticate(request)

    def _authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        address = client_ip(request)
        wait = token_lockout_seconds(client_address=address)
        if wait is not None:
            raise TokenThrottled(wait=wait)
        try:
            return self._token_user(header)
        except exceptions.AuthenticationFailed:
            token_failure_record(client_address=address)
            raise

    def _token_user(self, header: list[bytes]):
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Authorization header must be 'Bearer <token>'.")
        try:
            plain = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        token = (
            ApiToken.objects.select_related("user")
            .filter(key_hash=hash_token(plain), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        return token.user, token

    def authenticate_header(self, request):
        return self.keyword
