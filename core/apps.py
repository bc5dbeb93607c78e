from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Core (encryption, errors, request plumbing)"

    def ready(self):
        from . import schema  # noqa: F401  (registers the OpenAPI extension for StrictSerializer)
