"""`make backup` / `make restore` (issue 10 §6): a pg_dump round-trips a database, on a throw-away embedded server
(real processes, as an operator runs them)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
set -e
PY="{python}"
$PY manage.py load_demo --characters-only >/dev/null
$PY manage.py shell -c "
from accounts.services import end_user_get_or_create
from audit.services import AuditContext
from characters.models import Character
from memories.services import MemoryInput, memory_create
alice = end_user_get_or_create(external_id='alice')
memory_create(user=alice, character=Character.objects.get(slug='chunsim'), data=MemoryInput(content='민트초코를 좋아함'),
              context=AuditContext(actor_label='test', trigger='system'))
" >/dev/null
FILE=$($PY manage.py backup_database --dir "{backups}" | tail -1)
echo "file=$FILE"
$PY manage.py shell -c "
from memories.models import MemoryItem
from django.contrib.auth import get_user_model
MemoryItem.objects.all().delete(); get_user_model().objects.filter(username='alice').delete()
print('after-delete', MemoryItem.objects.count())
"
if $PY manage.py restore_database "$FILE" 2>/dev/null; then echo "restored-without-yes"; fi
$PY manage.py restore_database "$FILE" --yes
$PY manage.py shell -c "
from memories.models import MemoryItem
from audit.models import AuditLog
from django.db import connection
print('after-restore', [m.content for m in MemoryItem.objects.filter(user__username='alice')])
print('audit-rows', AuditLog.objects.filter(target_user_ref='alice').count())
try:
    with connection.cursor() as cursor:
        cursor.execute('UPDATE audit_auditlog SET action = %s', ['deleted'])
    print('audit-update-allowed')
except Exception as exc:
    print('audit-update-refused', type(exc).__name__)
"
"""


def test_backup_and_restore_round_trip_a_database():
    with tempfile.TemporaryDirectory() as scratch:
        env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "DATABASE_OWNER_URL")}
        env["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
        script = SCRIPT.format(python=sys.executable, backups=f"{scratch}/backups")
        result = subprocess.run(
            [sys.executable, "scripts/devdb.py", "--pgdata", f"{scratch}/pg", "--migrate", "--", "bash", "-c", script],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        out = result.stdout
        assert result.returncode == 0, out[-3000:] + result.stderr[-3000:]
        dump = Path(out.split("file=")[1].split()[0])
        assert dump.parent == Path(scratch) / "backups" and dump.name.startswith("gieok-") and dump.stat().st_size > 0
        assert "after-delete 0" in out
        assert "restored-without-yes" not in out  # a restore needs --yes
        assert "after-restore ['민트초코를 좋아함']" in out
        assert "audit-rows 1" in out  # the trail as it was dumped
        assert "audit-update-refused" in out  # and still append-only for the service's role
