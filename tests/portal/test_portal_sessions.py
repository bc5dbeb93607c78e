"""Issue 9 §1: a chat backend opens the user's memory pages with a one-time link."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken, PortalLink, TokenKind
from accounts.services import api_token_create
from audit.models import AuditLog

from .helpers import csrf_post, open_portal, signed_in


@pytest.fixture
def alice_seen(alice):
    return alice


def test_the_link_signs_the_user_in_once(system_client, alice, characters):
    opened = open_portal(system_client)
    assert opened["url"].startswith("http://testserver/me/enter/gk_")
    assert "gk_" not in str(list(PortalLink.objects.values_list("key_hash", flat=True)))  # only the hash is kept
    browser = Client()
    landing = browser.get(urlsplit(opened["url"]).path)
    assert landing.status_code == 302 and landing["Location"] == "/me/"
    home = browser.get("/me/", follow=True)
    assert home.status_code == 200
    assert int(browser.session["_auth_user_id"]) == alice.pk
    # a second use (another browser, or a link preview that came first) signs no one in
    again = Client().get(urlsplit(opened["url"]).path)
    assert again.status_code == 410 and "_auth_user_id" not in again.client.session
    assert AuditLog.objects.filter(action="signed_in", object_type="portal_link", target_user_ref="alice").count() == 1


def test_an_expired_link_is_refused(system_client, alice, characters):
    opened = open_portal(system_client)
    PortalLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = Client().get(urlsplit(opened["url"]).path)
    assert response.status_code == 410
    assert "만료" in response.content.decode()


def test_a_link_lives_ten_minutes(system_client, alice, characters):
    opened = open_portal(system_client)
    link = PortalLink.objects.get()
    assert timedelta(minutes=9, seconds=50) < link.expires_at - link.created_at <= timedelta(minutes=10)
    assert opened["expiresAt"].endswith("Z")


def test_a_link_for_one_character_lands_on_its_page(system_client, alice, chunsim):
    _, landing = signed_in(system_client, character="chunsim")
    assert landing["Location"] == "/me/c/chunsim"


def test_unknown_character_is_404(system_client, alice, characters):
    response = system_client.post("/api/accounts/portal-sessions?user=alice", {"character": "nobody"}, format="json")
    assert response.status_code == 404 and response.json()["error"]["code"] == "CHARACTER_NOT_FOUND"
    assert not PortalLink.objects.exists()


def test_only_a_system_client_opens_portal_sessions(alice_client, admin_client_api, anon_client, characters):
    assert alice_client.post("/api/accounts/portal-sessions", {}, format="json").status_code == 403
    assert admin_client_api.post("/api/accounts/portal-sessions?user=alice", {}, format="json").status_code == 403
    assert anon_client.post("/api/accounts/portal-sessions?user=alice", {}, format="json").status_code == 401
    assert not PortalLink.objects.exists()


def _service_client(origins):
    from rest_framework.test import APIClient

    token, plain = api_token_create(name="app-with-origins", kind=TokenKind.SERVICE)
    ApiToken.objects.filter(pk=token.pk).update(return_origins=origins)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {plain}")
    return client


@pytest.mark.parametrize("return_url", [
    "https://evil.example.net/back",
    "https://chat.example.com.evil.net/",
    "https://user@chat.example.com/",
    "javascript:alert(1)",
    "//chat.example.com/x",
    "http://chat.example.com/back",  # another scheme is another origin
    "https://chat.example.com:99999/",
])
def test_a_return_url_outside_the_allow_list_is_refused(db, characters, return_url):
    client = _service_client(["https://chat.example.com"])
    response = client.post("/api/accounts/portal-sessions?user=alice", {"returnUrl": return_url}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "RETURN_URL_NOT_ALLOWED"
    assert not PortalLink.objects.exists()


def test_a_token_without_an_allow_list_takes_no_return_url(system_client, characters):
    response = system_client.post("/api/accounts/portal-sessions?user=alice",
                                  {"returnUrl": "https://chat.example.com/"}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "RETURN_URL_NOT_ALLOWED"


def test_an_allowed_return_url_is_the_way_back(db, characters):
    client = _service_client(["https://Chat.Example.com"])
    opened = open_portal(client, returnUrl="https://chat.example.com/settings?tab=1")
    browser = Client()
    browser.get(urlsplit(opened["url"]).path)
    page = browser.get("/me/", follow=True).content.decode()
    assert 'href="https://chat.example.com/settings?tab=1"' in page


def test_sign_out_ends_the_session(system_client, alice, characters):
    browser, _ = signed_in(system_client)
    assert browser.get("/me/consent").status_code == 200
    response = csrf_post(browser, "/me/sign-out")
    assert response.status_code == 200
    assert browser.get("/me/consent").status_code == 401


def test_sign_out_needs_the_csrf_token(system_client, alice, characters):
    browser, _ = signed_in(system_client)
    assert browser.post("/me/sign-out").status_code == 403
    assert browser.get("/me/consent").status_code == 200


def test_an_idle_session_ends(system_client, alice, characters, settings):
    browser, _ = signed_in(system_client)
    assert browser.get("/me/consent").status_code == 200
    session = browser.session
    state = session["portal"]
    state["seen"] -= settings.PORTAL_IDLE_SECONDS + 1
    session["portal"] = state
    session.save()
    response = browser.get("/me/consent")
    assert response.status_code == 401 and "로그아웃" in response.content.decode()
    assert browser.get("/me/consent").status_code == 401


def test_the_session_cookie_is_http_only_and_expires_with_idleness(system_client, alice, characters, settings):
    browser, landing = signed_in(system_client)
    cookie = landing.cookies[settings.SESSION_COOKIE_NAME]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == settings.PORTAL_IDLE_SECONDS


def test_pages_need_a_portal_session(client, alice, charlie, characters):
    assert client.get("/me/").status_code == 401
    client.force_login(charlie)  # an operator's admin session is not a portal session
    assert client.get("/me/").status_code == 401


def test_a_new_link_replaces_whoever_was_signed_in(system_client, alice, bob, characters):
    browser, _ = signed_in(system_client, "alice")
    browser.get(urlsplit(open_portal(system_client, "bob")["url"]).path)
    assert int(browser.session["_auth_user_id"]) == bob.pk


def test_a_deactivated_user_cannot_sign_in(system_client, alice, characters):
    opened = open_portal(system_client)
    alice.is_active = False
    alice.save()
    assert Client().get(urlsplit(opened["url"]).path).status_code == 410


def test_the_portal_session_api_is_audited_without_the_secret(system_client, alice, characters):
    opened = open_portal(system_client)
    secret = opened["url"].rsplit("/", 1)[1]
    rows = AuditLog.objects.filter(object_type="portal_link", action="created")
    assert rows.count() == 1 and rows.get().target_user_ref == "alice"
    assert secret not in str(list(AuditLog.objects.values()))


def test_create_service_token_takes_return_origins(db, characters):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("create_service_token", "chat-app", "--return-origin", "https://Chat.Example.com/",
                 "--return-origin", "http://localhost:3000", stdout=out, stderr=StringIO())
    token = ApiToken.objects.get(name="chat-app")
    assert token.return_origins == ["https://chat.example.com", "http://localhost:3000"]
    assert out.getvalue().strip().startswith("gk_")


@pytest.mark.parametrize("origin", ["https://chat.example.com/path", "ftp://chat.example.com", "chat.example.com"])
def test_a_bad_return_origin_creates_no_token(db, origin):
    from io import StringIO

    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError):
        call_command("create_service_token", "chat-app", "--return-origin", origin, stdout=StringIO(),
                     stderr=StringIO())
    assert not ApiToken.objects.filter(name="chat-app").exists()
