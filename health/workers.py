"""django-q2 worker processes load their models before they take any work, then keep a heartbeat.

`on_worker_spawn` is connected to django-q2's `post_spawn` signal, which a worker process sends after it
starts and before it reads its first task from the queue. Loading the models there means no worker
ever claims a scope (and holds its lock) while loading kiwipiepy and the sentence encoder: until the
worker is warm, queued jobs wait, and a prompt finds the scope's lock free and processes its pending
messages inline. Recycled and restarted workers go through the same signal.

When warm, the process records a `WorkerHeartbeat` row and a daemon thread refreshes it every
HEARTBEAT_EVERY_SECONDS; GET /readyz counts rows seen in the last STALE_AFTER_SECONDS.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import threading

from django.db import DatabaseError, close_old_connections, connection
from django.utils import timezone

from memories.warmup import ensure_models_loaded

from .services import worker_heartbeat_forget_stale, worker_heartbeat_record

logger = logging.getLogger(__name__)

HEARTBEAT_EVERY_SECONDS = 10
STALE_AFTER_SECONDS = 30


def _beat(warmed_at) -> bool:
    close_old_connections()
    try:
        worker_heartbeat_record(host=socket.gethostname(), pid=os.getpid(), warmed_at=warmed_at)
    except DatabaseError as exc:  # the database is away: try again next beat
        logger.warning("worker heartbeat not recorded: %s", type(exc).__name__)
        connection.close()
        return False
    return True


def _keep_beating(warmed_at, stop: threading.Event) -> None:
    while not stop.wait(HEARTBEAT_EVERY_SECONDS):
        _beat(warmed_at)
    connection.close()


def on_worker_spawn(sender=None, proc_name: str = "", **kwargs) -> threading.Event | None:
    """Load the models in this new worker process, then start its heartbeat; return the thread's stop event.

    Never raises: a worker that cannot warm up still works (it loads the models with its first job),
    it just never reports itself warm. Tasks run in-process (django-q2's sync mode, used by the test
    suite) send the signal too, from a process that is no cluster worker: those are left alone.
    """
    if multiprocessing.parent_process() is None:
        return None
    try:
        ensure_models_loaded()
    except Exception:  # noqa: BLE001 - a model that cannot load must not kill the worker in a loop
        logger.exception("worker %s could not load its models", proc_name)
        return None
    warmed_at = timezone.now()
    logger.info("worker %s (pid %s) warm", proc_name, os.getpid())
    try:
        worker_heartbeat_forget_stale()
    except DatabaseError:
        connection.close()
    _beat(warmed_at)
    stop = threading.Event()
    threading.Thread(target=_keep_beating, args=(warmed_at, stop), name="worker-heartbeat", daemon=True).start()
    return stop
