from django.apps import AppConfig


class ContextLayersConfig(AppConfig):
    name = "context_layers"
    verbose_name = "Context layers"
