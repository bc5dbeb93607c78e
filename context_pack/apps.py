from django.apps import AppConfig


class ContextPackConfig(AppConfig):
    name = "context_pack"
    verbose_name = "Context pack (the per-turn prompt block)"
