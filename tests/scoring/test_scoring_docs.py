"""The presets page documents every preset and every option the engine has."""

from pathlib import Path

import scoring
from scoring.options import OPTIONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring-presets.md"


def test_every_preset_and_option_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for preset in scoring.list_presets("chinese-poker"):
        assert f"### `{preset}`" in text or f"`{preset}`" in text.split("### `2-4` and ")[-1][:10], preset
    for option in OPTIONS:
        assert f"| `{option}` |" in text, option


def test_every_natural_is_in_the_page():
    text = DOC.read_text(encoding="utf-8")
    for preset in scoring.list_presets("chinese-poker").values():
        for natural in preset["naturals"]:
            assert natural["zh"] in text, natural
