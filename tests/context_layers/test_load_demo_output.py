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
