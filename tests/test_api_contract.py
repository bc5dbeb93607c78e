"""The API keeps the contract its OpenAPI schema publishes: a short schemathesis run with a fixed seed and
every check on (no 5xx, documented statuses and bodies, schema-valid input accepted, schema-invalid input
refused, …) against a live server on the test database. Settings: schemathesis.toml at the repository root."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings
from django_q.conf import Conf

from accounts.models import TokenKind
from accounts.services import api_token_create
from context_layers.demo import load_characters
from memories.warmup import warm_up_models

ROOT = Path(__file__).resolve().parent.parent
SEED = "20261123"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # keep the migrations' rows (plans)
# PREMIUM: so the soul layer (PREMIUM and up) is reached, not only its 403. The token throttle would turn
# the run's own wrong-token checks (all from 127.0.0.1) into 429s for every later case.
@override_settings(DEFAULT_PLAN="PREMIUM", TOKEN_AUTH_FAILURE_LIMIT=10**6)
def test_api_keeps_its_published_contract(live_server, monkeypatch):
    # Serve as production does: extraction jobs are queued, not run inside the request (the test settings'
    # django-q2 sync mode would extract 100 long messages inside one POST). Read at call time by async_task.
    monkeypatch.setattr(Conf, "SYNC", False)
    load_characters()
    warm_up_models()  # the first embedding must not hit the request timeout
    _, token = api_token_create(name="contract-test", kind=TokenKind.SERVICE)
    command = [
        str(Path(sys.executable).parent / "st"), "--no-color", "--config-file", str(ROOT / "schemathesis.toml"), "run",
        f"{live_server.url}/api/schema/", "--header", f"Authorization: Bearer {token}",
        "--checks", "all", "--seed", SEED, "--max-examples", "5", "--request-timeout", "120",
        "--generation-deterministic",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    # Every operation the schema publishes was exercised (none filtered out or skipped for lack of data).
    selected = re.search(r"Selected: (\d+)/(\d+)", result.stdout)
    tested = re.search(r"Tested: (\d+)", result.stdout)
    assert selected and tested, result.stdout[-5000:]
    assert int(tested.group(1)) == int(selected.group(2)) >= 17
