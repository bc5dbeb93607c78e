"""Render a scope's five layers as Markdown documents (seed 000 §4.4)."""
from __future__ import annotations


def _bullets(items) -> list[str]:
    return [f"- {item}" for item in items] or ["- (none)"]


def _key_values(doc: dict) -> list[str]:
    lines = []
    for key, value in doc.items():
        if isinstance(value, list):
            rendered = ", ".join(
                " / ".join(f"{k}: {v}" for k, v in entry.items()) if isinstance(entry, dict) else str(entry)
                for entry in value
            )
        else:
            rendered = str(value)
        lines.append(f"- **{key}**: {rendered}")
    return lines or ["- (empty)"]


def render_markdown(*, character_name: str, overview: dict, memories: list) -> dict[str, str]:
    """Return {"memory.md": ..., "heartbeat.md": ..., ...} for one scope."""
    memory_lines = [
        f"[{item.category}] {item.content} (importance {item.importance}, {item.created_at:%Y-%m-%d})"
        for item in memories
    ]
    documents = {
        "memory.md": [f"# memory — {character_name}", "", *_bullets(memory_lines)],
        "heartbeat.md": [f"# heartbeat — {character_name}", "", *_key_values(overview["heartbeat"])],
        "identity.md": [f"# identity — {character_name}", "", *_key_values(overview["identity"])],
        "soul.md": [f"# soul — {character_name}", "",
                    *(_key_values(overview["soul"]) if overview["soul"] is not None else ["- (not in this plan)"])],
        "tools.md": [f"# tools — {character_name}", "", *_key_values(overview["tools"])],
    }
    return {name: "\n".join(lines) + "\n" for name, lines in documents.items()}
