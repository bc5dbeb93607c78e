"""`manage.py export_legacy_bio FILE.jsonl [--user ID]`: write the legacy User.bio shape back from the new tables
(seed 000 §9.3 rollback): one line per (user, character) scope with live memories, the shape import_legacy_bio
reads."""
from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from tqdm import tqdm

from memories.legacy import legacy_bio_render
from memories.models import MemoryItem


class Command(BaseCommand):
    help = "Export every scope's live memories as legacy User.bio JSONL lines (the import's shape)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--user", help="Only this external user id.")

    def handle(self, *args, file, user=None, **options):
        scopes = MemoryItem.objects.filter(is_active=True, archived_at__isnull=True)
        if user:
            scopes = scopes.filter(user__username=user)
        pairs = scopes.order_by("user_id", "character_id").values_list("user_id", "character_id").distinct()
        users = {u.pk: u for u in get_user_model().objects.filter(pk__in={pk for pk, _ in pairs})}
        written = 0
        with Path(file).open("w", encoding="utf-8") as out:
            for user_pk, slug in tqdm(list(pairs), unit="scope", disable=None):
                account = users[user_pk]
                out.write(json.dumps({"userId": account.get_username(), "characterId": slug,
                                      "bio": legacy_bio_render(user=account, character=slug)},
                                     ensure_ascii=False) + "\n")
                written += 1
        self.stdout.write(f"{written} scope(s) written to {file}")
