"""Create a system (service) token: `python manage.py create_service_token NAME`.

The token is printed on the last line of output; it cannot be shown again.
"""
from django.core.management.base import BaseCommand

from accounts.models import TokenKind
from accounts.services import api_token_create


class Command(BaseCommand):
    help = "Create a system token for a chat backend; prints it on the last line."

    def add_arguments(self, parser):
        parser.add_argument("name")

    def handle(self, *args, name, **options):
        token, plain = api_token_create(name=name, kind=TokenKind.SERVICE)
        self.stderr.write(f"Created service token {token.name!r} ({token.key_prefix}…). Store it now; it is not kept.")
        self.stdout.write(plain)
