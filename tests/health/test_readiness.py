"""GET /healthz (alive, no database) and GET /readyz (database, models, a warm cluster worker)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from health.models import WorkerHeartbeat
from health.services import worker_heartbeat_record
from health.workers import STALE_AFTER_SECONDS, on_worker_spawn
from memories.warmup import models_loaded, warm_up_models

pytestmark = pytest.mark.django_db


@pytest.fixture
def warm():
    warm_up_models()
    assert models_loaded()


def test_healthz_answers_without_touching_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_readyz_is_503_until_a_warm_worker_reports(client, warm):
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not_ready" and body["failed"] == ["cluster"]
    assert body["checks"]["database"] == "ok" and body["checks"]["models"] == "ok"
    assert response["Retry-After"] == "5"
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]

    worker_heartbeat_record(host="worker-host", pid=4242, warmed_at=timezone.now())

    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "models": "ok", "cluster": "ok"}}


def test_readyz_forgets_a_worker_that_stopped_reporting(client, warm):
    worker_heartbeat_record(host="worker-host", pid=4242, warmed_at=timezone.now())
    WorkerHeartbeat.objects.update(seen_at=timezone.now() - timedelta(seconds=STALE_AFTER_SECONDS + 1))
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["failed"] == ["cluster"]


def test_tasks_run_in_process_do_not_pose_as_cluster_workers(warm):
    # django-q2's sync mode sends post_spawn from the calling process: no heartbeat, no thread.
    assert on_worker_spawn(sender="django_q", proc_name="MainProcess") is None
    assert not WorkerHeartbeat.objects.exists()
