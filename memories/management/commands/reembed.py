"""Re-embed memories written by another embedding model (after switching Gemini on or off).

Vectors of different models cannot be compared, so search and the surprise filter need every row
in the current embedder's space. Only `embedding` and `embedding_model` change: the content, its
audit trail and `updated_at` stay as they were.
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from memories.embeddings import get_embedder
from memories.models import EMBEDDING_DIMENSIONS, MemoryItem


class Command(BaseCommand):
    help = "Re-embed every memory whose embedding_model differs from the current embedder's (or all with --all)."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Re-embed every memory, current model or not.")
        parser.add_argument("--batch-size", type=int, default=64)

    def handle(self, *args, **options):
        embedder = get_embedder()
        if embedder.dimensions != EMBEDDING_DIMENSIONS:
            raise CommandError(f"{embedder.model_name} gives {embedder.dimensions} dimensions; "
                               f"the column holds {EMBEDDING_DIMENSIONS}.")
        batch_size = max(1, options["batch_size"])
        stale = MemoryItem.objects.all()
        if not options["all"]:
            stale = stale.exclude(embedding_model=embedder.model_name, embedding__isnull=False)
        ids = list(stale.order_by("id").values_list("id", flat=True))
        total = MemoryItem.objects.count()

        updated = 0
        with tqdm(total=len(ids), unit="memory", desc=f"re-embedding ({embedder.model_name})",
                  disable=not ids) as progress:
            for start in range(0, len(ids), batch_size):
                items = list(MemoryItem.objects.filter(pk__in=ids[start:start + batch_size])
                             .only("id", "content", "content_hash"))
                vectors = embedder.embed([item.content for item in items])
                with transaction.atomic():
                    for item, vector in zip(items, vectors):
                        # The hash guard skips a row whose content was edited since it was read.
                        updated += MemoryItem.objects.filter(pk=item.pk, content_hash=item.content_hash).update(
                            embedding=vector, embedding_model=embedder.model_name)
                progress.update(len(items))

        self.stdout.write(f"Re-embedded {updated} of {total} memories with {embedder.model_name}; "
                          f"{total - len(ids)} already current, {len(ids) - updated} changed or deleted meanwhile.")
