"""Replay a recall dataset through the HTTP API and print pass rates per probe kind.

    python manage.py bench_recall ../shared/bench/ko_open.json                    # in-process server
    python manage.py bench_recall FILE --base-url http://127.0.0.1:8000 --token <system token>
    python manage.py bench_recall bench/corpus/heldout/FILE --no-failures          # numbers only
"""
import json
from datetime import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from context_pack.recall_replay import ApiClient, format_report, replay


class Command(BaseCommand):
    help = "Replay a recall dataset through the public API and score the context blocks."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--base-url")
        parser.add_argument("--token")
        parser.add_argument("--user", help="External user id to replay as (default: dataset user + run stamp).")
        parser.add_argument("--budget", type=int, default=1100)
        parser.add_argument("--no-failures", action="store_true",
                            help="numbers only, no FAIL lines (for held-out data nobody may tune on)")
        parser.add_argument("--show-blocks", action="store_true",
                            help="print each failed probe's question and block (tuning data only)")

    def handle(self, *args, file, base_url=None, token=None, user=None, budget=1100, no_failures=False,
               show_blocks=False, **options):
        path = Path(file)
        if not path.exists():
            raise CommandError(f"No such dataset: {file}")
        data = json.loads(path.read_text(encoding="utf-8"))
        user = user or f"{data.get('user', 'bench-user')}-{datetime.now():%m%d%H%M%S}"
        if base_url and not token:
            raise CommandError("--token is required with --base-url")
        with tqdm(total=len(data["turns"]), unit="turn", desc=data.get("name", path.stem), disable=None) as bar:
            if base_url:
                report = replay(data, ApiClient(base_url, token), user=user, budget=budget, progress=bar.update)
            else:
                from context_pack.local_server import local_server

                with local_server() as (url, service_token):
                    report = replay(data, ApiClient(url, service_token), user=user, budget=budget,
                                    progress=bar.update)
        self.stdout.write(f"dataset {data.get('name', path.stem)}: {len(data['turns'])} turns, "
                          f"{len(data['probes'])} probes, user {user}, budget {budget}")
        for line in format_report(report, budget=budget, failures=not no_failures,
                                  blocks=show_blocks and not no_failures):
            self.stdout.write(line)
