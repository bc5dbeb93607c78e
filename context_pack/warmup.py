"""Load the offline models once per server process, before the first request needs them.

kiwipiepy (~1 s) and the sentence encoder (~1.2 s) would otherwise make some user's first
prompt take seconds. With gunicorn --preload this runs once in the master; workers share it.
"""
import logging

logger = logging.getLogger(__name__)


def warm_up_models() -> None:
    from memories.embeddings import get_embedder
    from memories.extraction.morphology import warm_up

    warm_up()
    get_embedder().embed(["warm up"])
    logger.info("offline models loaded")
