"""Settings for the test suite: same as local, with django-q2 running tasks inline."""
from .local import *  # noqa: F401,F403
from .local import Q_CLUSTER

DEBUG = False
Q_CLUSTER = {**Q_CLUSTER, "sync": True}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
# The suite's tier tests start users on FREE (the tightest plan); the default itself is tested too.
DEFAULT_PLAN = "FREE"
