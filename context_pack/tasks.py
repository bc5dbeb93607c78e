"""Off-request-path bookkeeping for the context pack."""
from memories.services import memory_mark_used


def mark_used_task(memory_ids: list[int]) -> int:
    return memory_mark_used(memory_ids=memory_ids)
