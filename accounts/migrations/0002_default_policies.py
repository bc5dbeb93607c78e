"""Seed the tier policy table (seed 000 §4.3) and the context-admin group."""
from django.db import migrations

DEFAULT_POLICIES = [
    ("FREE", 20, False, "last_seen"),
    ("BASIC", 50, False, "basic"),
    ("PREMIUM", 200, True, "detailed"),
    ("ULTIMATE", None, True, "report"),
]


def seed(apps, schema_editor):
    TierPolicy = apps.get_model("accounts", "TierPolicy")
    for plan, cap, soul, detail in DEFAULT_POLICIES:
        TierPolicy.objects.get_or_create(
            plan=plan, defaults={"memory_cap": cap, "soul_enabled": soul, "heartbeat_detail": detail}
        )
    apps.get_model("auth", "Group").objects.get_or_create(name="context-admin")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
