"""The role the service runs as cannot rewrite the audit trail, and can do its normal work.

The `app` database alias of the test settings is a real connection as the app role (the user of
DATABASE_URL, settings.DATABASE_APP_ROLE) to the test database, which pytest-django created and
migrated as the owner role: the privileges checked here are the ones `migrate` granted
(core/db_roles.py), nothing set up by hand. Each test runs in a transaction on both connections that is
rolled back at its end; a refused statement runs in a savepoint.
"""
from __future__ import annotations

import re

import psycopg
import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import DatabaseError, connection, connections, transaction
from django.utils import timezone
from django_q.models import Schedule
from psycopg import errors

from audit.models import AuditLog
from characters.models import Character

# Without DATABASE_OWNER_URL there is one role for everything and these tests run (and fail) as it.
APP = "app" if "app" in settings.DATABASES else "default"
pytestmark = pytest.mark.django_db(databases=sorted({"default", APP}))


@pytest.fixture(scope="module", autouse=True)
def _close_app_connection(django_db_setup):
    """The mirror alias is not closed by the test database teardown: close it, or the database cannot be dropped."""
    yield
    connections[APP].close()


@pytest.fixture
def app_connection():
    return connections[APP]


@pytest.fixture
def audit_row(app_connection):
    """An audit row the app role wrote (INSERT is what it may do)."""
    return AuditLog.objects.using(APP).create(actor_label="system", action="viewed", trigger="system",
                                              object_type="role_probe", object_id="1")


def _refused(conn, statement: str) -> BaseException:
    with pytest.raises(DatabaseError) as refused:
        with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
            cursor.execute(statement)
    return refused.value.__cause__


@pytest.mark.parametrize("statement", [
    "TRUNCATE audit_auditlog",
    "ALTER TABLE audit_auditlog DISABLE TRIGGER audit_log_append_only",
    "ALTER TABLE audit_auditlog DISABLE TRIGGER ALL",
    "DROP TRIGGER audit_log_append_only ON audit_auditlog",
    "SET session_replication_role = replica",
    "UPDATE audit_auditlog SET actor_label = 'forged'",
    "DELETE FROM audit_auditlog",
    "ALTER TABLE audit_auditlog OWNER TO CURRENT_USER",
    "DROP TABLE audit_auditlog",
    "CREATE TABLE role_probe (id int)",
], ids=["truncate", "disable-trigger", "disable-all-triggers", "drop-trigger", "replication-role", "update",
        "delete", "take-ownership", "drop-table", "create-table"])
def test_app_role_is_refused(app_connection, audit_row, statement):
    rows = AuditLog.objects.using(APP)
    before = rows.count()

    refusal = _refused(app_connection, statement)

    # Refused for want of a privilege (not by the owner's triggers, which a privileged role could disable).
    assert isinstance(refusal, errors.InsufficientPrivilege)
    assert re.match(r"(permission denied|must be owner)", str(refusal)), str(refusal)
    with app_connection.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone() == ("origin",)
        cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'audit_auditlog'::regclass "
                       "AND tgenabled = 'O' AND tgname IN ('audit_log_append_only', 'audit_log_no_truncate')")
        assert cursor.fetchone() == (2,)
    assert rows.count() == before >= 1
    assert rows.get(pk=audit_row.pk).actor_label == "system"


def test_app_role_is_refused_audit_changes_through_the_orm(app_connection, audit_row):
    rows = AuditLog.objects.using(APP)

    with pytest.raises(DatabaseError):
        with transaction.atomic(using=APP):
            rows.filter(pk=audit_row.pk).update(actor_label="forged")
    with pytest.raises(DatabaseError):
        with transaction.atomic(using=APP):
            rows.filter(pk=audit_row.pk).delete()

    assert rows.get(pk=audit_row.pk).actor_label == "system"


def test_app_role_owns_nothing_and_is_no_superuser(app_connection):
    with app_connection.cursor() as cursor:
        cursor.execute("SELECT current_user, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls "
                       "FROM pg_roles WHERE rolname = current_user")
        role = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM pg_class WHERE relowner = current_user::regrole")
        owned = cursor.fetchone()[0]
        cursor.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")
        table_owners = {row[0] for row in cursor.fetchall()}

    assert role == (settings.DATABASE_APP_ROLE, False, False, False, False)
    assert settings.DATABASE_APP_ROLE != connection.settings_dict["USER"]
    assert owned == 0
    assert table_owners == {connection.settings_dict["USER"]}  # the owner role, which ran the migrations


def test_app_role_inserts_and_reads_audit_rows(app_connection):
    row = AuditLog.objects.using(APP).create(actor_label="system", action="viewed", trigger="system",
                                             object_type="role_probe", object_id="7")

    assert AuditLog.objects.using(APP).filter(pk=row.pk, object_id="7").exists()


def test_app_role_reads_and_writes_the_normal_tables(app_connection):
    character = Character.objects.using(APP).create(slug="role-probe", display_name="probe")
    Character.objects.using(APP).filter(slug="role-probe").update(display_name="probe 2")
    schedule = Schedule.objects.using(APP).create(name="role-probe", func="core.tasks.nothing")
    schedule.repeats = 0
    schedule.save(using=APP)
    Session.objects.using(APP).create(session_key="role-probe", session_data="", expire_date=timezone.now())

    assert Character.objects.using(APP).get(slug="role-probe").display_name == "probe 2"
    assert Schedule.objects.using(APP).get(pk=schedule.pk).repeats == 0
    assert Session.objects.using(APP).filter(session_key="role-probe").exists()

    character.delete(using=APP)
    schedule.delete(using=APP)
    Session.objects.using(APP).filter(session_key="role-probe").delete()
    assert not Character.objects.using(APP).filter(slug="role-probe").exists()


def test_app_role_reads_but_never_writes_the_migration_history(app_connection):
    with app_connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM django_migrations")
        assert cursor.fetchone()[0] > 0

    assert isinstance(_refused(app_connection, "DELETE FROM django_migrations"), errors.InsufficientPrivilege)


def test_owner_role_is_refused_truncate_of_the_audit_table_by_the_trigger():
    """The test settings let the suite's sessions empty the table; any other session of the owner cannot."""
    params = connection.settings_dict
    with psycopg.connect(host=params["HOST"] or None, port=params["PORT"] or None, dbname=params["NAME"],
                         user=params["USER"], password=params["PASSWORD"] or None, autocommit=True,
                         options="-c lock_timeout=10000") as owner:
        assert owner.execute("SELECT current_user").fetchone() == (params["USER"],)
        with pytest.raises(errors.InsufficientPrivilege, match="append-only: TRUNCATE"):
            with owner.transaction():  # rolled back: the row never outlives the test
                owner.execute(
                    "INSERT INTO audit_auditlog (created_at, actor_label, action, trigger, target_user_ref, "
                    "character_slug, object_type, object_id, changed_fields, details, request_id) VALUES "
                    "(now(), 'system', 'viewed', 'system', '', '', 'role_probe', '', '[]', '{}', '')")
                owner.execute("TRUNCATE audit_auditlog")
