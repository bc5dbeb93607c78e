"""`manage.py create_operator NAME`: an operator who can sign in and sees user data; audited; no end user reused."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.models import CONTEXT_ADMIN_GROUP
from accounts.selectors import is_context_admin
from audit.models import AuditLog


def _create(name: str, *args: str) -> str:
    out = StringIO()
    call_command("create_operator", name, *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip().splitlines()[-1]


def _signs_in(client: Client, username: str, password: str) -> bool:
    """Sign in through the admin login form (as an operator does; axes needs the request)."""
    response = client.post("/admin/login/", {"username": username, "password": password, "next": "/admin/"})
    return response.status_code == 302 and client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_created_operator_signs_in_and_is_a_context_admin(django_user_model, alice):
    password = _create("ops-kim")

    user = django_user_model.objects.get(username="ops-kim")
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name=CONTEXT_ADMIN_GROUP).exists() and is_context_admin(user)
    client = Client()
    assert _signs_in(client, "ops-kim", password)
    assert client.get("/admin/memories/memoryitem/").status_code == 200
    row = AuditLog.objects.get(object_type="operator", object_id=str(user.pk))
    assert row.action == "created" and password not in str(row.__dict__)


@pytest.mark.django_db
def test_running_it_again_resets_the_password(django_user_model):
    first = _create("ops-lee")
    second = _create("ops-lee", "--superuser")

    assert first != second
    assert not _signs_in(Client(), "ops-lee", first)
    assert _signs_in(Client(), "ops-lee", second)
    assert django_user_model.objects.get(username="ops-lee").is_superuser


@pytest.mark.django_db
def test_an_end_user_is_never_turned_into_an_operator(alice):
    with pytest.raises(CommandError):
        _create(alice.get_username())
    alice.refresh_from_db()
    assert not alice.is_staff
