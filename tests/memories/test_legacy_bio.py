"""Issue 10 §5: the legacy User.bio migration — import, export (rollback), the dual-write mirror."""
from __future__ import annotations

import json
import os
import time
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.services import end_user_get_or_create
from audit.models import AuditLog
from memories.legacy import legacy_bio_memory
from memories.models import MemoryItem, MemorySettings

BIOS = [
    {"userId": "kim-1", "characterId": "chunsim",
     "bio": json.dumps({"memory": "유저가 좋아하는 음식은 피자. 최근 회사에서 스트레스를 받고 있음. 고양이 보리를 키움.",
                        "updatedAt": "2026-01-15T12:00:00Z"}, ensure_ascii=False)},
    {"userId": "lee-2", "bio": json.dumps({"memory": "Loves hiking.\nWorks as a nurse in Seoul.",
                                           "updatedAt": "2026-01-10T08:00:00Z"})},
]


@pytest.fixture
def backups(tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.LEGACY_BIO_DEFAULT_CHARACTER = "sora"
    return settings.BACKUP_DIR


def recent_backup(directory):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "gieok-20261126-000000.dump").write_bytes(b"PGDMP")


def write_jsonl(path, records, extra_lines=()):
    lines = [json.dumps(record, ensure_ascii=False) for record in records] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(*args):
    out = StringIO()
    call_command("import_legacy_bio", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_import_then_export_gives_back_equivalent_bios(characters, backups, tmp_path):
    recent_backup(backups)
    report = run(str(write_jsonl(tmp_path / "in.jsonl", BIOS)))
    assert "users 2, memories created 5, already there 0" in report and "skipped lines 0" in report
    assert MemoryItem.objects.filter(user__username="kim-1", character_id="chunsim").count() == 3
    assert MemoryItem.objects.filter(user__username="lee-2", character_id="sora").count() == 2  # the default
    call_command("export_legacy_bio", str(tmp_path / "out.jsonl"), stdout=StringIO(), stderr=StringIO())
    exported = {(line["userId"], line["characterId"]): line for line in
                map(json.loads, (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines())}
    assert legacy_bio_memory(exported[("kim-1", "chunsim")]["bio"]) == \
        "유저가 좋아하는 음식은 피자. 최근 회사에서 스트레스를 받고 있음. 고양이 보리를 키움."
    assert legacy_bio_memory(exported[("lee-2", "sora")]["bio"]) == "Loves hiking. Works as a nurse in Seoul."
    # the export is importable as is, and changes nothing
    before = (MemoryItem.objects.count(), AuditLog.objects.count())
    assert "memories created 0, already there 5" in run(str(tmp_path / "out.jsonl"))
    assert (MemoryItem.objects.count(), AuditLog.objects.count()) == before


def test_rerunning_the_import_changes_nothing(characters, backups, tmp_path):
    recent_backup(backups)
    path = write_jsonl(tmp_path / "in.jsonl", BIOS)
    run(str(path))
    before = (MemoryItem.objects.count(), AuditLog.objects.count())
    assert "memories created 0, already there 5" in run(str(path))
    assert (MemoryItem.objects.count(), AuditLog.objects.count()) == before


def test_pii_in_a_bio_is_masked_like_every_write(characters, backups, tmp_path):
    recent_backup(backups)
    bio = {"userId": "park-3", "characterId": "chunsim",
           "bio": json.dumps({"memory": "전화번호는 010-1234-5678 임. 매운 음식을 좋아함."}, ensure_ascii=False)}
    run(str(write_jsonl(tmp_path / "in.jsonl", [bio])))
    contents = " ".join(MemoryItem.objects.filter(user__username="park-3").values_list("content", flat=True))
    assert "1234-5678" not in contents and "매운 음식" in contents


def test_a_malformed_line_is_reported_by_number_and_skipped_whole(characters, backups, tmp_path):
    recent_backup(backups)
    MemorySettings.objects.create(user=end_user_get_or_create(external_id="off-4"), enabled=False)
    path = write_jsonl(tmp_path / "in.jsonl", BIOS[:1], extra_lines=[
        "{not json",
        json.dumps({"userId": "x-5", "characterId": "chunsim", "bio": "{broken"}),
        json.dumps({"userId": "x-6", "characterId": "nobody", "bio": "{}"}),
        json.dumps({"userId": "off-4", "characterId": "chunsim", "bio": json.dumps({"memory": "하나. 둘."})}),
        json.dumps({"userId": "!bad", "bio": "{}"}),
    ])
    with pytest.raises(CommandError):
        out = StringIO()
        call_command("import_legacy_bio", str(path), stdout=out, stderr=StringIO())
    report = out.getvalue()
    for number in (2, 3, 4, 5, 6):
        assert f"error line {number}:" in report
    assert "error line 1:" not in report and "skipped lines 5" in report
    assert "broken" not in report and "하나" not in report  # reasons, never content
    assert MemoryItem.objects.filter(user__username="kim-1").count() == 3
    assert not MemoryItem.objects.filter(user__username__in=["x-5", "x-6", "off-4"]).exists()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username__in=["x-5", "x-6"]).exists()


def test_the_import_needs_a_recent_backup_unless_told(characters, backups, tmp_path):
    path = write_jsonl(tmp_path / "in.jsonl", BIOS)
    with pytest.raises(CommandError, match="backup"):
        run(str(path))
    assert "dry run: nothing written" in run(str(path), "--dry-run") and not MemoryItem.objects.exists()
    recent_backup(backups)
    old = backups / "gieok-20261126-000000.dump"
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    with pytest.raises(CommandError, match="backup"):
        run(str(path))
    assert "memories created 5" in run(str(path), "--no-backup")


def test_the_mirror_follows_every_memory_write(system_client, characters, settings):
    settings.LEGACY_BIO_MIRROR = False
    off = system_client.get("/api/v1/legacy/bio?user=alice&characterId=chunsim")
    assert off.status_code == 404 and off.json()["error"]["code"] == "LEGACY_MIRROR_OFF"
    settings.LEGACY_BIO_MIRROR = True
    created = system_client.post("/api/context/chunsim/memory?user=alice", {"content": "민트초코 좋아함"}, format="json")
    bio = system_client.get("/api/v1/legacy/bio?user=alice&characterId=chunsim").json()["bio"]
    assert legacy_bio_memory(bio) == "민트초코 좋아함" and json.loads(bio)["updatedAt"].endswith("Z")
    system_client.delete(f"/api/context/chunsim/memory/{created.json()['memory']['id']}?user=alice")
    assert legacy_bio_memory(system_client.get("/api/v1/legacy/bio?user=alice&characterId=chunsim").json()["bio"]) == ""


def test_only_the_system_reads_the_mirror(alice_client, characters, settings):
    settings.LEGACY_BIO_MIRROR = True
    assert alice_client.get("/api/v1/legacy/bio?characterId=chunsim").status_code == 403
