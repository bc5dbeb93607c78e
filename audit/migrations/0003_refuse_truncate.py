"""The audit table refuses TRUNCATE too (a statement trigger: row triggers never see a TRUNCATE).

The app role has no TRUNCATE privilege at all (core/db_roles.py); this stops the owner role as well,
e.g. `manage.py flush`. The one way through is a session that sets `gieok.allow_audit_truncate = on`
itself: the test settings do, because pytest-django empties every table between transactional tests.
"""
from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION audit_log_reject_truncate() RETURNS trigger AS $$
BEGIN
    IF coalesce(current_setting('gieok.allow_audit_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'audit_auditlog is append-only: TRUNCATE is not allowed'
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER audit_log_no_truncate
    BEFORE TRUNCATE ON audit_auditlog
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_reject_truncate();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_auditlog;
DROP FUNCTION IF EXISTS audit_log_reject_truncate();
"""


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only_trigger")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
