"""POST/GET /api/accounts/user-tokens and DELETE /api/accounts/user-tokens/{id} (issue 9 §1): a chat backend mints
a token for its own client to act as the end user, lists and revokes it; every step audited, no secret stored."""
from __future__ import annotations

from rest_framework.test import APIClient

from accounts.models import ApiToken, TokenKind
from audit.models import AuditLog


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_a_minted_token_acts_as_the_user_until_revoked(system_client, characters):
    response = system_client.post("/api/accounts/user-tokens?user=dana", {"name": "ios-app"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    plain = body["token"]
    assert body["prefix"] == plain[:10] and body["name"] == "ios-app" and body["revokedAt"] is None
    stored = ApiToken.objects.get(pk=body["id"])
    assert (stored.kind, stored.user.get_username()) == (TokenKind.USER, "dana")
    assert plain not in str(ApiToken.objects.values_list()) and plain not in str(AuditLog.objects.values_list())

    client = bearer(plain)
    assert client.get("/api/context/settings").json()["enabled"] is True  # signed in as dana (self)
    assert client.get("/api/context/settings?user=erin").status_code == 403  # no one else

    listed = system_client.get("/api/accounts/user-tokens?user=dana").json()
    assert [t["id"] for t in listed["tokens"]] == [body["id"]] and "token" not in listed["tokens"][0]

    assert system_client.delete(f"/api/accounts/user-tokens/{body['id']}?user=dana").status_code == 204
    assert client.get("/api/context/settings").status_code == 401
    assert system_client.get("/api/accounts/user-tokens?user=dana").json()["tokens"][0]["revokedAt"] is not None
    actions = list(AuditLog.objects.filter(object_type="api_token", object_id=str(body["id"]))
                   .order_by("id").values_list("action", "target_user_ref"))
    assert actions == [("created", "dana"), ("deactivated", "dana")]


def test_only_the_system_role_mints_and_only_the_named_users_tokens_are_revoked(system_client, alice_client, alice,
                                                                                 bob, characters):
    assert alice_client.post("/api/accounts/user-tokens", {}, format="json").status_code == 403
    bobs = system_client.post("/api/accounts/user-tokens?user=bob", {}, format="json").json()
    refused = system_client.delete(f"/api/accounts/user-tokens/{bobs['id']}?user=alice")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "TOKEN_NOT_FOUND"
    assert ApiToken.objects.get(pk=bobs["id"]).revoked_at is None
    assert system_client.delete("/api/accounts/user-tokens/not-a-number?user=bob").status_code == 404
    assert system_client.post("/api/accounts/user-tokens?user=bob", {"name": 5}, format="json").status_code == 400
