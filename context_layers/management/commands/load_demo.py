"""Load demo characters, a demo user with context, and print fresh credentials."""
import os

from django.core.management.base import BaseCommand

from context_layers.demo import load_characters, load_demo


class Command(BaseCommand):
    help = "Load demo characters (and, unless --characters-only, a demo user, operator and tokens)."

    def add_arguments(self, parser):
        parser.add_argument("--characters-only", action="store_true")

    def handle(self, *args, characters_only=False, **options):
        if characters_only:
            load_characters()
            self.stdout.write("Demo characters loaded.")
            return
        creds = load_demo()
        base = f"http://{os.environ.get('GIEOK_BIND', '127.0.0.1:8000')}"  # where `make run` serves
        self.stdout.write(
            "\n".join([
                "Demo data loaded (credentials are new on every run):",
                f"  end user     : {creds['username']} / {creds['password']}  (session login at /admin/login/ is for staff;"
                " API: Bearer token below)",
                f"  user token   : {creds['user_token']}",
                f"  memory pages : {base}/me/enter/{creds['portal_key']}  (the user's pages; works once, 10 min)",
                f"  system token : {creds['system_token']}",
                f"  operator     : {creds['operator']} / {creds['operator_password']}  ({base}/admin/)",
                f"Try: curl -H 'Authorization: Bearer {creds['system_token']}' "
                f"'{base}/api/context/chunsim?user=demo-user'",
            ])
        )
