"""Create a system (service) token: `python manage.py create_service_token NAME [--return-origin URL ...]`.

`--return-origin https://chat.example.com` (repeatable) lets the token's portal sessions send users back there.

The token is printed on the last line of output; it cannot be shown again.
"""
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import TokenKind
from accounts.services import api_token_create, api_token_return_origins_set
from audit.services import AuditContext
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Create a system token for a chat backend; prints it on the last line."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--return-origin", action="append", default=[], dest="origins",
                            help="An origin (https://host[:port]) portal sessions may return users to; repeatable.")

    def handle(self, *args, name, origins, **options):
        try:
            with transaction.atomic():  # a bad origin creates no token
                token, plain = api_token_create(name=name, kind=TokenKind.SERVICE)
                if origins:
                    api_token_return_origins_set(token=token, origins=origins,
                                                 context=AuditContext(actor_label="command", trigger="command"))
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"Created service token {token.name!r} ({token.key_prefix}…). Store it now; it is not kept.")
        self.stdout.write(plain)
