"""The app as `make run` serves it: gunicorn, config.settings.local without DJANGO_DEBUG, collected static
files, the app database role — reached through a proxy, so the database can be cut off for real.
"""
from __future__ import annotations

import http.client
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlparse

import environ
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from accounts.models import TokenKind
from accounts.services import api_token_create
from tests.support.db_proxy import DatabaseProxy
from tests.support.servers import running_gunicorn

RESIDENT_NUMBER = "900101-1234567"


class Server:
    def __init__(self, port: int, proxy: DatabaseProxy, log: Path):
        self.port, self.proxy, self.log = port, proxy, log

    def request(self, method: str, path: str, *, body: dict | None = None, token: str | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        content = response.read()
        conn.close()
        return response, content


@pytest.fixture(scope="module")
def served_app(django_db_setup, tmp_path_factory):
    """gunicorn on config.wsgi with the `make run` settings, static files collected, DATABASE_URL = the app
    role on the test database through a proxy."""
    tmp = tmp_path_factory.mktemp("served")
    app = environ.Env().db("DATABASE_URL")  # the app role, as devdb gives it to `make run`
    settings_dict = connection.settings_dict
    proxy = DatabaseProxy(host=settings_dict["HOST"], port=settings_dict["PORT"])
    proxy_port = proxy.start()
    password = f":{quote(app['PASSWORD'], safe='')}" if app.get("PASSWORD") else ""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_OWNER_URL", "DJANGO_DEBUG")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DATABASE_URL": f"postgres://{quote(app['USER'], safe='')}{password}@127.0.0.1:{proxy_port}/"
                        f"{settings_dict['NAME']}",
        "DJANGO_STATIC_ROOT": str(tmp / "static"),
        "GIEOK_WARM_UP": "0",
        "OPENBLAS_NUM_THREADS": "1",
    })
    with override_settings(STATIC_ROOT=tmp / "static"):  # what `make run` does before starting gunicorn
        call_command("collectstatic", interactive=False, verbosity=0)
    log = tmp / "gunicorn.log"
    try:
        with running_gunicorn(env=env, log=log, start_within=90, stop_within=30,
                              args=("--log-level", "info")) as port:
            yield Server(port, proxy, log)
    finally:
        proxy.cut()


# --- static files (WhiteNoise) and the API docs (drf-spectacular-sidecar) -----------------------------

def test_admin_stylesheet_is_served_by_the_app(served_app):
    response, content = served_app.request("GET", "/static/admin/css/base.css")

    assert response.status == 200
    assert response.getheader("Content-Type").startswith("text/css")
    assert b"body" in content and len(content) > 1000


class _AssetLinks(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.links.append(value)


def test_swagger_ui_page_loads_only_local_assets_and_they_are_served(served_app):
    response, content = served_app.request("GET", "/api/docs/")
    page = content.decode()
    parser = _AssetLinks()
    parser.feed(page)

    assert response.status == 200
    assert not re.search(r"https?://|//cdn|jsdelivr|unpkg", page), "the docs page names an external host"
    assets = {link: urlparse(link) for link in parser.links}
    assert len(assets) >= 3  # the stylesheet, the bundle and the preset, at least
    expected_types = {".css": "text/css", ".js": "javascript", ".png": "image/png"}
    for link, url in assets.items():
        assert not url.scheme and not url.netloc, link
        asset, body = served_app.request("GET", link)
        assert asset.status == 200, link
        suffix = Path(url.path).suffix
        assert expected_types[suffix] in asset.getheader("Content-Type"), (link, asset.getheader("Content-Type"))
        assert len(body) > 500, link
    assert any("swagger-ui-bundle.js" in link for link in assets)


# --- errors stay JSON, and a lost database is 503 until it returns --------------------------------------

def test_unknown_api_path_is_a_json_404_without_url_listing(served_app):
    response, content = served_app.request("GET", "/api/nope")

    assert response.status == 404
    assert response.getheader("Content-Type") == "application/json"
    assert json.loads(content)["error"]["code"] == "NOT_FOUND"
    assert b"URLconf" not in content and b"api/context" not in content


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_lost_database_gives_503_json_and_the_service_recovers_by_itself(served_app, alice, chunsim):
    _, token = api_token_create(name="outage-probe", kind=TokenKind.SERVICE)
    context_path = "/api/context/chunsim?user=alice"
    messages_path = "/api/context/chunsim/messages?user=alice"
    message = {"conversationId": "outage", "messages": [{
        "id": "outage-1", "role": "user", "content": f"내 주민번호는 {RESIDENT_NUMBER} 이야",
        "createdAt": "2026-03-01T10:00:00+09:00"}]}
    assert served_app.request("GET", context_path, token=token)[0].status == 200  # a pooled connection exists

    served_app.proxy.cut()  # open connections dropped, new ones refused
    try:
        outcomes = [served_app.request("GET", context_path, token=token),  # the pooled connection is dead
                    served_app.request("POST", messages_path, body=message, token=token),  # no connection at all
                    served_app.request("GET", context_path, token=token)]
    finally:
        served_app.proxy.restore()

    for response, content in outcomes:
        assert response.status == 503, content[:300]
        assert response.getheader("Content-Type") == "application/json"
        assert response.getheader("Retry-After") == "5"
        assert json.loads(content)["error"]["code"] == "DATABASE_UNAVAILABLE"
        assert RESIDENT_NUMBER.encode() not in content and b"<html" not in content.lower()

    response, content = served_app.request("GET", context_path, token=token)
    assert response.status == 200, content[:300]
    assert json.loads(content)["characterId"] == "chunsim"
    response, content = served_app.request("POST", messages_path, body=message, token=token)
    assert response.status == 202, content[:300]
    log = served_app.log.read_text()
    assert "database unavailable" in log
    assert RESIDENT_NUMBER not in log and "1234567" not in log
