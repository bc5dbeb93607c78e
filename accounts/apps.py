from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts, API tokens and plans"

    def ready(self):
        from . import schema  # noqa: F401  (registers the OpenAPI auth extension)
