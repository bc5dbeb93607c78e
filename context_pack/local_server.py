"""An in-process HTTP server on a free port, for `bench_recall` without --base-url."""
from __future__ import annotations

from contextlib import contextmanager

from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application

from accounts.models import TokenKind
from accounts.services import api_token_create
from context_layers.demo import load_characters
from memories.warmup import warm_up_models


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature from the standard library
        pass


@contextmanager
def local_server():
    """Yield (base_url, service token) of a server running this process's Django on 127.0.0.1."""
    import threading

    load_characters()
    warm_up_models()
    token, plain = api_token_create(name="bench-recall", kind=TokenKind.SERVICE)
    server = ThreadedWSGIServer(("127.0.0.1", 0), _QuietHandler, allow_reuse_address=False)
    server.set_app(get_wsgi_application())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", plain
    finally:
        server.shutdown()
        server.server_close()
        token.delete()
