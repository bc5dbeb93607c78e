"""Production settings: every secret must come from the environment (no defaults)."""
from .base import *  # noqa: F401,F403
from .base import env

DEBUG = False
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
