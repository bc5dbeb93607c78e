"""`manage.py migrate` as the owner role, then the app role's grants.

Django's migrate, with two differences. When DATABASE_OWNER_URL is set (the `owner` alias of
config/settings/base.py) and --database is the default, the whole command connects as the owner:
the default connection takes the owner's credentials for its duration, so data migrations (which
write through the default connection) run as the owner too. After applying migrations it grants
the app role (the user of DATABASE_URL) what the service needs (core.db_roles).
"""
from contextlib import contextmanager

from django.core.management.commands.migrate import Command as DjangoMigrateCommand
from django.db import DEFAULT_DB_ALIAS, connections

from core.db_roles import app_role_grant

OWNER_ALIAS = "owner"
_CREDENTIALS = ("NAME", "USER", "PASSWORD", "HOST", "PORT", "OPTIONS")


@contextmanager
def default_connection_as_owner():
    """Point the default connection at DATABASE_OWNER_URL while the block runs (no-op when unset)."""
    if OWNER_ALIAS not in connections.settings:
        yield
        return
    default = connections[DEFAULT_DB_ALIAS]
    saved = {key: default.settings_dict.get(key) for key in _CREDENTIALS}
    default.close()
    default.settings_dict.update({key: connections.settings[OWNER_ALIAS].get(key) for key in _CREDENTIALS})
    try:
        yield
    finally:
        default.close()
        default.settings_dict.update(saved)


class Command(DjangoMigrateCommand):
    help = DjangoMigrateCommand.help + " Runs as DATABASE_OWNER_URL when set, then grants DATABASE_URL's role."

    def handle(self, *args, **options):
        if options["database"] != DEFAULT_DB_ALIAS:
            return self._migrate_and_grant(*args, **options)
        with default_connection_as_owner():
            return self._migrate_and_grant(*args, **options)

    def _migrate_and_grant(self, *args, **options):
        super().handle(*args, **options)
        if options.get("plan") or options.get("check_unapplied"):
            return
        role = app_role_grant(using=options["database"])
        if role and options["verbosity"] >= 1:
            self.stdout.write(f"Granted row access to the app role {role!r}.")
