"""Create (or update) the django-q2 schedules of the pipeline and maintenance jobs. Idempotent."""
from django.core.management.base import BaseCommand
from django_q.models import Schedule

SCHEDULES = [
    # (name, function, minutes between runs)
    ("process pending messages", "conversations.tasks.process_pending_task", 1),
    ("end idle conversations", "conversations.tasks.end_idle_conversations_task", 5),
    ("decay memory strength", "memories.tasks.decay_strength_task", 60 * 24),
    ("decay memory confidence", "memories.tasks.decay_confidence_task", 60 * 24),
    ("consolidate memories", "memories.tasks.consolidate_task", 60),
    ("promote memories", "memories.tasks.promote_task", 60),
    ("prune memories", "memories.tasks.prune_task", 60 * 6),
    ("expire memories", "memories.tasks.expire_task", 60),
    ("backfill memory embeddings", "memories.tasks.backfill_embeddings_task", 1),
]


class Command(BaseCommand):
    help = "Create or update the pipeline's django-q2 schedules (safe to run repeatedly)."

    def handle(self, *args, **options):
        for name, func, minutes in SCHEDULES:
            _, created = Schedule.objects.update_or_create(
                name=name, defaults={"func": func, "schedule_type": Schedule.MINUTES, "minutes": minutes, "repeats": -1},
            )
            self.stdout.write(f"{'created' if created else 'updated'}: {name} every {minutes} min")
