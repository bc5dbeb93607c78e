"""What the service's database role may do, granted by the owner role after every `migrate`.

The app role (settings.DATABASE_APP_ROLE, the user of DATABASE_URL) owns nothing. It may read and
write the rows of every table (Django's, django-q2's and ours) and use their sequences, read the
migration history, and only INSERT and SELECT audit rows: with no UPDATE, DELETE or TRUNCATE privilege,
no ownership (ALTER TABLE ... DISABLE TRIGGER) and no superuser (session_replication_role), it cannot
rewrite the audit trail. The triggers of audit/migrations refuse UPDATE, DELETE and TRUNCATE to the
owner as well.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from psycopg import sql

from audit.models import AuditLog

APPEND_ONLY_TABLES = (AuditLog._meta.db_table,)  # INSERT and SELECT only
READ_ONLY_TABLES = ("django_migrations",)


def app_role_grant(*, using: str) -> str | None:
    """Grant the app role its privileges on every table of the current schema; return the role, or None
    when the connection already is the app role (a single-role setup: nothing to grant)."""
    role = settings.DATABASE_APP_ROLE
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT current_user, current_schema()")
        current_user, schema = cursor.fetchone()
        if not role or role == current_user:
            return None
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cursor.fetchone() is None:
            raise ImproperlyConfigured(
                f"The app role {role!r} (the user of DATABASE_URL) does not exist: create it "
                f"(CREATE ROLE {role} LOGIN PASSWORD '...') and run migrate again.")
        names = {"role": sql.Identifier(role), "schema": sql.Identifier(schema)}
        statements = [
            "GRANT USAGE ON SCHEMA {schema} TO {role}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}",
            "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
            "REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA {schema} FROM {role}",
        ]
        for statement in statements:
            cursor.execute(sql.SQL(statement).format(**names).as_string(cursor.connection))
        for table in READ_ONLY_TABLES:
            cursor.execute(sql.SQL("REVOKE INSERT, UPDATE, DELETE ON {table} FROM {role}").format(
                table=sql.Identifier(table), **names).as_string(cursor.connection))
        for table in APPEND_ONLY_TABLES:
            cursor.execute(sql.SQL("REVOKE UPDATE, DELETE ON {table} FROM {role}").format(
                table=sql.Identifier(table), **names).as_string(cursor.connection))
    return role
