"""What both games' presets share: loading the data files, refusing an unknown id, and the common part
of a preset's description (title, source, options with their effective defaults)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Callable, Iterable, Mapping

from .errors import ScoringError, shown


def load_preset_files(package: str, check: Callable[[str, Any], None]) -> dict[str, dict]:
    """Preset id -> data for every JSON file in ``package``, in file-name order; ``check(file_name, data)``
    fails loudly on a malformed file."""
    loaded = {}
    for entry in sorted(resources.files(package).iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text(encoding="utf-8"))
            check(entry.name, data)
            loaded[data["id"]] = data
    return loaded


def require_known(preset_id: Any, known: Iterable[str], what: str) -> str:
    """``preset_id`` when it is one of ``known``; otherwise ScoringError "unknown <what> ..." listing them."""
    known = list(known)
    if not isinstance(preset_id, str) or preset_id not in known:
        raise ScoringError(f"unknown {what} {shown(preset_id)}; presets: {', '.join(known)}")
    return preset_id


def options_key(checked: Mapping[str, Any]) -> str:
    """Checked options as the text that caches the rules built from them."""
    return json.dumps(checked, sort_keys=True)


def describe_common(preset_id: str, preset: Mapping[str, Any], effective: Mapping[str, Any],
                    specs: Mapping[str, Any]) -> dict:
    """title, title_zh, source, description and every option's effective default, help and choices."""
    return {
        "title": preset.get("title", preset_id),
        "title_zh": preset.get("title_zh", ""),
        "source": preset.get("source", ""),
        "description": preset.get("description", ""),
        "options": {name: {"default": effective[name], "help": spec.help,
                           **({"choices": list(spec.choices)} if spec.choices else {})}
                    for name, spec in specs.items()},
    }
