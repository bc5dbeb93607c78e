from django.db import migrations, models


class Migration(migrations.Migration):
    """A partial index on a scope's structured facts, and embeddings kept in the row (not in TOAST).

    A 512-d vector is 2,056 bytes, just over the default 2,032-byte TOAST threshold, so every embedding
    went out of line and scoring a scope's items cost three extra page reads per item. With
    toast_tuple_target = 8160 (the maximum) a row is only toasted when it would not fit a page. It
    applies to rows written from now on; `VACUUM FULL memories_memoryitem` rewrites the existing ones.
    """

    dependencies = [
        ("memories", "0002_memoryitem_confidence_decayed_at_and_more"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="memoryitem",
            index=models.Index(condition=models.Q(("subject_key", ""), _negated=True), fields=["user", "character"],
                               name="memory_scope_facts_idx"),
        ),
        migrations.RunSQL(
            "ALTER TABLE memories_memoryitem SET (toast_tuple_target = 8160)",
            reverse_sql="ALTER TABLE memories_memoryitem RESET (toast_tuple_target)",
        ),
    ]
