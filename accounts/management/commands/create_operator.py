"""Create an operator for the admin console: `python manage.py create_operator NAME [--superuser]`.

The operator is staff in the context-admin group (the only staff who see user data). A new password is
printed on the last line of output; running the command again for the same name resets it.
"""
from django.core.management.base import BaseCommand, CommandError

from accounts.services import operator_create
from audit.services import AuditContext
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Create or reset an operator (staff in the context-admin group); prints the password on the last line."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--superuser", action="store_true",
                            help="also a superuser (django-q2 monitor, groups and permissions)")

    def handle(self, *args, username, superuser, **options):
        try:
            user, password = operator_create(username=username, superuser=superuser,
                                             context=AuditContext(actor_label="system:create_operator", trigger="command"))
        except ApplicationError as error:
            raise CommandError(error.message) from None
        self.stderr.write(f"Operator {user.get_username()!r} can sign in at /admin/. Store the password now; it is not kept.")
        self.stdout.write(password)
