"""`load_demo` (run by `make run`) prints URLs where the service really listens (GIEOK_BIND)."""
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_printed_urls_follow_gieok_bind(monkeypatch):
    monkeypatch.setenv("GIEOK_BIND", "127.0.0.1:9123")
    out = StringIO()
    call_command("load_demo", stdout=out)

    text = out.getvalue()
    assert "http://127.0.0.1:9123/admin/" in text
    assert "http://127.0.0.1:9123/api/context/chunsim?user=demo-user" in text
    assert "8000" not in text


@pytest.mark.django_db
def test_the_printed_memory_pages_link_signs_the_demo_user_in(client):
    import re

    out = StringIO()
    call_command("load_demo", stdout=out)
    path = re.search(r"memory pages : http://[^/]+(/me/enter/\S+)", out.getvalue()).group(1)
    landing = client.get(path)
    assert landing.status_code == 302
    assert client.session["_auth_user_id"] and client.get("/me/consent").status_code == 200
