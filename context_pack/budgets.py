"""Per-layer token budgets (seed 000 §12.1), scaled to the request and shifted by situation (§12.2)."""
from __future__ import annotations

from .situations import DAILY, DEEP_TALK, FIRST_IN_A_WHILE, SPECIAL_DAY

LAYER_PRIORITY = ("memory", "heartbeat", "identity", "soul", "tools")
BASE_BUDGETS = {"memory": 500, "heartbeat": 100, "identity": 100, "soul": 300, "tools": 100}
BASE_TOTAL = sum(BASE_BUDGETS.values())  # 1,100
SITUATION_WEIGHTS = {
    FIRST_IN_A_WHILE: {"heartbeat": 2.0},
    DEEP_TALK: {"soul": 1.5},
    DAILY: {"memory": 1.3},
    SPECIAL_DAY: {"tools": 2.0},
}


def allocate(total: int, situation: str, *, soul_enabled: bool) -> dict[str, int]:
    """Split `total` tokens over the layers; a plan without soul gives its share to memory."""
    weights = {layer: BASE_BUDGETS[layer] * SITUATION_WEIGHTS.get(situation, {}).get(layer, 1.0)
               for layer in LAYER_PRIORITY}
    if not soul_enabled:
        weights["memory"] += weights.pop("soul")
        weights["soul"] = 0.0
    scale = total / sum(weights.values())
    budgets = {layer: int(weights[layer] * scale) for layer in LAYER_PRIORITY}
    budgets["memory"] += total - sum(budgets.values())  # rounding remainder
    return budgets
