"""Settings shared by every environment. Values come from the environment via django-environ."""
from datetime import timedelta
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
    "drf_spectacular_sidecar",  # Swagger UI assets served from our static files, not a CDN
    "django_q",
    "core",
    "audit",
    "accounts",
    "characters",
    "memories",
    "context_layers",
    "conversations",
    "context_pack",
    "portal",
    "console",
    "axes",
    "health",
]

MIDDLEWARE = [
    "core.middleware.RequestTimingMiddleware",  # first: its Server-Timing covers everything below
    "core.middleware.RequestIdMiddleware",
    "config.exception_handler.JsonErrorsMiddleware",  # errors stay JSON, a lost database is 503
    "core.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # serves STATIC_ROOT (collectstatic) under gunicorn
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a sign-in lockout into accounts.lockout's 429 page
    "core.middleware.NoStoreApiMiddleware",
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
# DATABASE_URL is the role the service runs as: it owns nothing and may only read and write rows
# (audit rows: INSERT and SELECT only). DATABASE_OWNER_URL is the role that owns the tables: give it to
# the migration step only. `manage.py migrate` runs as the owner when it is set and then grants the
# app role what it needs (core/management/commands/migrate.py, core/db_roles.py).
DATABASE_APP_ROLE = DATABASES["default"]["USER"]
if env("DATABASE_OWNER_URL", default=""):
    DATABASES["owner"] = {**env.db("DATABASE_OWNER_URL"), "ATOMIC_REQUESTS": False, "CONN_MAX_AGE": 0}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=BASE_DIR / ".data" / "static")

# Request bodies above this are refused with 413 (core.middleware.BodySizeLimitMiddleware).
MAX_REQUEST_BODY_BYTES = 256 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BODY_BYTES

# Staff in this group see and act on end users' data in the operator console; other staff see none of it.
CONTEXT_ADMIN_GROUP = "context-admin"

# The end users' memory pages (portal/): a chat backend's one-time link is valid this long; a signed-in
# session ends after this long without a request.
PORTAL_LINK_SECONDS = env.int("PORTAL_LINK_SECONDS", default=600)
PORTAL_IDLE_SECONDS = env.int("PORTAL_IDLE_SECONDS", default=1800)

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
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No validator badge: Swagger UI would fetch it from validator.swagger.io (offline: a broken image).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # One name for the memory categories wherever a field takes them (memory create, list filter, settings).
    "ENUM_NAME_OVERRIDES": {"MemoryCategoryEnum": "memories.categories.MemoryCategory"},
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
# The legacy User.bio store (seed 000 §9): the character a JSONL line without characterId is imported to, and
# whether GET /api/v1/legacy/bio serves the legacy-format mirror (dual-write period).
LEGACY_BIO_DEFAULT_CHARACTER = env("LEGACY_BIO_DEFAULT_CHARACTER", default="")
LEGACY_BIO_MIRROR = env.bool("LEGACY_BIO_MIRROR", default=False)
# Where `make backup` / backup_database write (import_legacy_bio looks here for a recent one).
BACKUP_DIR = Path(env("BACKUP_DIR", default="") or BASE_DIR / "backups")

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

# Sign-in lockout (django-axes, database handler: shared by every worker and host). LOGIN_FAILURE_LIMIT
# failed sign-ins for one username from one client address lock that pair out for LOGIN_LOCKOUT_MINUTES
# (429 page with Retry-After, accounts.lockout); a success resets the count. By the pair, not the address
# alone (anyone behind the same NAT or proxy could lock operators out) nor the username alone (anyone
# could lock a named operator out from anywhere).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.access.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.login_lockout_response"
# Bearer-token throttle (accounts.authentication): TOKEN_AUTH_FAILURE_LIMIT failed tokens from one client
# address within TOKEN_AUTH_FAILURE_WINDOW_SECONDS (counted from the first) → 429 THROTTLED with
# Retry-After for every token from that address until the window ends. Counted in the database.
TOKEN_AUTH_FAILURE_LIMIT = env.int("TOKEN_AUTH_FAILURE_LIMIT", default=20)
TOKEN_AUTH_FAILURE_WINDOW_SECONDS = env.int("TOKEN_AUTH_FAILURE_WINDOW_SECONDS", default=300)
# Reverse proxies in front of the app that append to X-Forwarded-For; 0: the peer address is the client.
# Audit rows, the token throttle and the sign-in lockout key on the client address (accounts.access.client_ip).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
# Periodic jobs (core.jobs): after this many consecutive failing runs an item (a scope, a
# conversation) is skipped until JOB_QUARANTINE_RETRY_HOURS after its last failure; a chat message
# that fails this many processing runs is quarantined for good (Message.quarantined_at).
JOB_MAX_ATTEMPTS = env.int("JOB_MAX_ATTEMPTS", default=5)
JOB_QUARANTINE_RETRY_HOURS = env.int("JOB_QUARANTINE_RETRY_HOURS", default=24)
# Gemini mode: the prompt's inline read-your-writes work (extraction of pending messages, embeddings,
# waiting for a worker that holds the scope) waits at most this long on remote models in all; past it
# the block is built from what is stored plus the pending messages' masked text, with fresh: false.
PROMPT_REMOTE_DEADLINE_MS = env.int("PROMPT_REMOTE_DEADLINE_MS", default=300)
# Gemini mode: how long a write inside an API request (POST memory) waits for its embedding before the
# item is stored without one (the backfill job embeds it later).
WRITE_EMBEDDING_DEADLINE_MS = env.int("WRITE_EMBEDDING_DEADLINE_MS", default=2000)
