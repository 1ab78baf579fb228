"""Big Two presets (data files under scoring/bigtwo/presets/) + a round's options -> BigTwoRules."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

from ..cards import CARD_BY_CODE, CODES, rank_of
from ..errors import ScoringError
from ..preset_data import describe_common, load_preset_files, options_key, require_known
from .options import DEFAULTS, OPTIONS, RANK_KEYS, check_options

GAME = "bigtwo"
PRESET_KEYS = {"id", "title", "title_zh", "source", "description", "terms", "options", "choices"}
TERM_KEYS = {"count", "two", "even", "monster", "block", "instant_win", "winner_bonus", "rank"}


@dataclass(frozen=True)
class BigTwoRules:
    """Everything a Big Two settlement needs, resolved once per (preset, options)."""

    preset: str
    options: dict                        # effective options, JSON-able
    card_points: tuple[int, ...]         # card int (0..51) -> points it costs when left in hand
    count_tiers: tuple[tuple[int, int], ...]   # (minimum count, multiplier), highest first
    terms: dict

    @property
    def scheme(self) -> str:
        return self.options["scheme"]

    @property
    def settlement(self) -> str:
        return self.options["settlement"]

    def count_multiplier(self, count: int) -> tuple[Optional[int], int]:
        """(tier reached or None, its multiplier) for a number of cards left."""
        for minimum, factor in self.count_tiers:
            if count >= minimum:
                return minimum, factor
        return None, 1


def _check_preset_data(file_name: str, data: Any) -> None:
    """Preset files are code in disguise: fail loudly at load time when one is malformed."""
    def fail(message: str) -> None:
        raise RuntimeError(f"scoring/bigtwo/presets/{file_name}: {message}")

    if not isinstance(data, dict) or set(data) - PRESET_KEYS or {"id", "options", "source"} - set(data):
        fail(f"keys must be among {sorted(PRESET_KEYS)} and include id, options, source")
    if file_name != f"{data['id']}.json" or not data["id"].startswith("bigtwo-"):
        fail("the file name must be the preset id, which starts with bigtwo-")
    if set(data.get("terms", {})) != TERM_KEYS:
        fail(f"terms must name exactly {sorted(TERM_KEYS)}")
    try:
        check_options(data["options"])
    except ScoringError as err:
        fail(str(err))


@lru_cache(maxsize=None)
def presets() -> dict[str, dict]:
    """Big Two preset id -> its data, loaded once."""
    return load_preset_files("scoring.bigtwo.presets", _check_preset_data)


def is_bigtwo_preset(preset_id: Any) -> bool:
    return isinstance(preset_id, str) and preset_id in presets()


def _card_points(effective: dict) -> tuple[int, ...]:
    by_rank = effective["card_values"]
    points = [by_rank[RANK_KEYS[rank_of(card)]] for card in range(len(CODES))]
    for code, value in effective["card_overrides"].items():
        points[CARD_BY_CODE[code]] = value
    return tuple(points)


@lru_cache(maxsize=128)
def _build_rules(preset_id: str, options_json: str) -> BigTwoRules:
    preset = presets()[preset_id]
    effective = dict(DEFAULTS)
    preset_options = check_options(preset["options"])
    round_options = json.loads(options_json)
    effective.update(preset_options)
    effective.update(round_options)
    # instant_wins merges hand by hand, so that turning on four-twos keeps the dragons
    effective["instant_wins"] = {**DEFAULTS["instant_wins"], **preset_options.get("instant_wins", {}),
                                 **round_options.get("instant_wins", {})}
    if effective["winner_bonus"] and effective["settlement"] == "winner-collects":
        raise ScoringError("option winner_bonus is a running-tally bonus that nobody pays under settlement "
                           "winner-collects; use settlement scores or pairwise, or winner_bonus 0")
    if effective["winner_bonus"] and effective["scheme"] == "rank":
        raise ScoringError("option winner_bonus is for scheme cards; under scheme rank set rank_points")
    tiers = tuple(sorted(((int(count), factor) for count, factor in effective["count_multipliers"].items()),
                         reverse=True))
    return BigTwoRules(preset_id, effective, _card_points(effective), tiers, preset["terms"])


def resolve_rules(preset_id: Any, options: Any = None) -> BigTwoRules:
    """The rules for a Big Two preset id and a round's options; ScoringError for anything invalid."""
    require_known(preset_id, presets(), "Big Two rules")
    return _build_rules(preset_id, options_key(check_options(options)))


def describe_presets() -> dict:
    """Preset id -> game, title, source, description, options (default, help, choices), choices made."""
    described = {}
    for preset_id, preset in presets().items():
        described[preset_id] = {
            "game": GAME,
            **describe_common(preset_id, preset, resolve_rules(preset_id).options, OPTIONS),
            "terms": preset["terms"],
            "choices": preset.get("choices", []),
        }
    return described
