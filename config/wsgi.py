"""WSGI entry point for gunicorn (run with --preload so models load once, before workers fork)."""
import os

from django.core.wsgi import get_wsgi_application

from core.middleware import ChunkedBodyMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# gunicorn passes chunked bodies without a length; the wrapper hands them to Django (see its docstring).
application = ChunkedBodyMiddleware(get_wsgi_application())

if os.environ.get("GIEOK_WARM_UP", "1") == "1":
    from memories.warmup import warm_up_models

    warm_up_models()
