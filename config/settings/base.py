"""Settings shared by every environment. Values come from the environment via django-environ."""
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
if env.bool("DJANGO_READ_DOT_ENV_FILE", default=False):
    env.read_env(str(BASE_DIR / ".env"))

SECRET_KEY = env("DJANGO_SECRET_KEY")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "django_q",
    "core",
    "audit",
    "accounts",
    "characters",
    "memories",
    "context_layers",
    "conversations",
    "context_pack",
]

MIDDLEWARE = [
    "core.middleware.RequestTimingMiddleware",  # first: its Server-Timing covers everything below
    "core.middleware.RequestIdMiddleware",
    "core.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# PostgreSQL only. `make run` / `make test` export DATABASE_URL for the embedded server when unset.
DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False  # services own their transactions
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / ".data" / "static"

# Request bodies above this are refused with 413 (core.middleware.BodySizeLimitMiddleware).
MAX_REQUEST_BODY_BYTES = 256 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Bearer first: its WWW-Authenticate header makes anonymous requests 401, not 403.
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "config.exception_handler.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "gieok context API",
    "DESCRIPTION": "Per-user, per-character memory and context layers for companion-chat characters.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The error envelope and the statuses every operation shares, documented once (config/schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.add_error_responses",
                            "config.schema.describe_path_examples"],
}

# Field encryption key ring: "id:base64key,id2:base64key"; the active id encrypts, all decrypt.
FIELD_ENCRYPTION_KEYS = env("FIELD_ENCRYPTION_KEYS")
FIELD_ENCRYPTION_ACTIVE_KEY = env("FIELD_ENCRYPTION_ACTIVE_KEY")
# Keyed hash for duplicate detection of encrypted memory content (never a plain hash of text).
MEMORY_HASH_KEY = env("MEMORY_HASH_KEY")

REDIS_URL = env("REDIS_URL", default="")
Q_CLUSTER = {
    "name": "gieok",
    "workers": env.int("Q_WORKERS", default=2),
    "timeout": 120,
    "retry": 300,  # larger than timeout, or a running task is started again
    "max_attempts": 3,
    "catch_up": False,
    "orm": "default",
}
if REDIS_URL:
    Q_CLUSTER.pop("orm")
    Q_CLUSTER["redis"] = REDIS_URL

# Plan of an end user the service sees for the first time (the chat backend can change it with
# PUT /api/accounts/plan). PREMIUM (200 memories per character) rather than FREE (20): a memory
# layer that silently drops what an unknown user said would fail at its one job.
DEFAULT_PLAN = env("DEFAULT_PLAN", default="PREMIUM")

GEMINI_API_KEY = env("GEMINI_API_KEY", default="")
GEMINI_MODEL = env("GEMINI_MODEL", default="gemini-2.5-flash")
GEMINI_BASE_URL = env("GEMINI_BASE_URL", default="")  # only for pointing at a stub server in tests
GEMINI_RETRY_BASE_DELAY = env.float("GEMINI_RETRY_BASE_DELAY", default=1.0)  # s; doubles per retry

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    # Never log request bodies or SQL parameters: both may carry user content.
    "loggers": {"django.db.backends": {"level": "WARNING", "propagate": True}},
}

LOGIN_REDIRECT_URL = "/api/docs/"

# Surprise filter for episodes (seed 003 §4: 0.85 / 0.6), recalibrated for the offline USE embedder,
# where a changed value scores as high as a paraphrase (0.6-0.93): see README "Calibration".
MEMORY_SURPRISE_REINFORCE = env.float("MEMORY_SURPRISE_REINFORCE", default=0.95)
MEMORY_SURPRISE_STORE = env.float("MEMORY_SURPRISE_STORE", default=0.85)
MEMORY_SURPRISE_BOOST_BELOW = env.float("MEMORY_SURPRISE_BOOST_BELOW", default=0.6)
# Pruning (seed 003 §6-3): live items kept per (user, character) scope by the pruning job.
MEMORY_PRUNE_SCOPE_CAP = env.int("MEMORY_PRUNE_SCOPE_CAP", default=1000)
# Session memory (seed 001): idle minutes before a conversation is ended and summarised.
CONVERSATION_IDLE_MINUTES = env.int("CONVERSATION_IDLE_MINUTES", default=30)
CONVERSATION_SUMMARY_EVERY = env.int("CONVERSATION_SUMMARY_EVERY", default=20)
# Read-your-writes: how long a prompt request waits for a worker that is processing the same scope.
FRESHNESS_WAIT_MS = env.int("FRESHNESS_WAIT_MS", default=2000)
