"""Make the audit table append-only in the database itself: UPDATE and DELETE raise."""
from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION audit_log_reject_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit_auditlog is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER audit_log_append_only
    BEFORE UPDATE OR DELETE ON audit_auditlog
    FOR EACH ROW EXECUTE FUNCTION audit_log_reject_change();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS audit_log_append_only ON audit_auditlog;
DROP FUNCTION IF EXISTS audit_log_reject_change();
"""


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
