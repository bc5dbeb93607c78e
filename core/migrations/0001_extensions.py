"""PostgreSQL extensions the project needs: pgvector for embeddings, pg_trgm for Korean substring search."""
from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations
from pgvector.django import VectorExtension


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [VectorExtension(), TrigramExtension()]
