"""Settings for the test suite: same as local, with django-q2 running tasks inline."""
from .local import *  # noqa: F401,F403
from .local import DATABASES, Q_CLUSTER

DEBUG = False
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
# The suite's tier tests start users on FREE (the tightest plan); the default itself is tested too.
DEFAULT_PLAN = "FREE"

# The suite runs as the owner role (pytest-django creates, migrates and empties its own database).
# The `app` alias is the app role (DATABASE_URL) on the same test database: tests/audit/test_app_role_limits.py
# uses it to prove what the service's role can and cannot do.
if "owner" in DATABASES:
    DATABASES = {
        "default": {**DATABASES["owner"], "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"]},
        "app": {**DATABASES["default"], "TEST": {"MIRROR": "default"}},
    }
# Transactional tests empty every table with TRUNCATE, which the audit table refuses unless the session
# says so (audit/migrations/0003_refuse_truncate.py).
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c gieok.allow_audit_truncate=on"
