"""Browser tests: pytest-playwright driving Debian's chromium (`make test` installs it with fonts-nanum) against
pytest-django's live server on the test database. Settings from ../shared/FIELD_NOTES.md; never
`playwright install` (it downloads a browser)."""
from __future__ import annotations

import importlib
import json
import os
import shutil
import urllib.request
from pathlib import Path

import pytest

# Playwright's sync API keeps an event loop in the test thread; the ORM calls a test makes between page steps
# are still plain synchronous code in that thread (the live server answers from its own threads).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs chromium and fonts-nanum (apt-get)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": [
        "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]}


@pytest.fixture
def shoot():
    """Save the page at phone and desktop width under tests/screenshots/ (not committed) and fail if anything is
    wider than the screen (a phone must never scroll sideways)."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def _shoot(page, name: str) -> None:
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{name} overflows {overflow}px at {label} width"
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{label}.png"), full_page=True)
        page.set_viewport_size(PHONE)
    return _shoot


@pytest.fixture
def seeded(live_server):
    """The rows the migrations seed (plans' tier policies, the context-admin group): a transactional test's flush
    empties them, and serialized rollback did not bring them back once the suite's other tests had run."""
    from django.apps import apps

    importlib.import_module("accounts.migrations.0002_default_policies").seed(apps, None)
    return live_server


def api(base_url: str, method: str, path: str, token: str, body=None) -> tuple[int, dict]:
    """Call the live server's API as a chat backend would (a real HTTP request)."""
    request = urllib.request.Request(f"{base_url}{path}", method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if raw else {})
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")
