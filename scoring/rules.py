"""Presets (data files under scoring/presets/) + a round's options -> one resolved Rules object."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

from .errors import ScoringError, shown
from .evaluate import CATEGORIES, five_card_tables, three_card_table
from .hand_names import CATEGORY_NAMES_ZH
from .naturals import TEST_PARAMETERS, TESTS, Check
from .numbers import Exact, parse_positive
from .options import DEFAULTS, OPTIONS, ROWS, check_options
from .row_order import low_tables
from .preset_data import describe_common, load_preset_files, options_key, require_known

ONE_COLOR_GROUPS = {"red-black": (("S", "C"), ("H", "D")), "dc-sh": (("D", "C"), ("S", "H"))}
PRESET_KEYS = {"id", "title", "title_zh", "source", "description", "terms", "category_names_zh",
               "row_value_tables", "options", "naturals_order", "naturals", "choices"}
TERM_KEYS = {"scoop", "home_run", "foul", "natural", "surrender", "no_loss_scoop", "tie_top_card"}


@dataclass(frozen=True, slots=True)
class NaturalRule:
    id: str
    en: str
    zh: str
    points: int
    rank: int            # higher beats lower
    check: Check         # HandFeatures -> Found or None
    params: dict


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything the engine needs to settle a round, resolved once per (preset, options)."""

    preset: str
    options: dict                       # effective options, JSON-able
    row_value_table: dict               # resolved {row: {hand: points}} (only entries above 1)
    banker_mode: bool
    strict_order: bool
    foul_rejected: bool
    banker_top_card_ties: bool
    wheel_second: bool
    suit_rank: Optional[tuple[int, ...]]   # suit index -> strength (higher wins), None: suits never count
    row_values: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # [row][category] -> points
    royalties_always: bool
    majority_bonus: int
    scoop_bonus: int
    scoop_multiplier: int
    scoop_includes_no_loss: bool
    multiply_royalties: bool
    foul_counts_as_scoop: bool
    home_run_multiplier: int
    home_run_min_opponents: int
    home_run_split: bool
    naturals: tuple[NaturalRule, ...]   # highest first; empty when naturals are off
    natural_vs_natural: str
    natural_home_run: bool
    surrender_allowed: bool
    surrender_cost: Exact
    names_zh: dict
    names_cache: dict                   # strength >> 12 -> (category id, English, Chinese), filled lazily
    terms: dict
    five_plain: dict
    five_flush: dict
    three: dict
    # Seed 004's 変種 (scoring.row_order, scoring.variants).
    low_middle: bool                    # the middle plays deuce-to-seven low
    low_middle_high_order: bool         # ... and must still lie between front and back as a high hand
    middle_plain: dict                  # the middle's strength tables (deuce-to-seven's with low_middle)
    middle_flush: dict
    criss_cross: str                    # off, each-vs-each, set-vs-set
    fourth_point: str                   # none, per-scoop, home-run
    fourth_point_min_players: int
    overall_bonus: int
    overall_payment_each: bool
    overall_ties_share: bool
    variant: bool                       # any of the above: settled by the one-round engine only


def _check_preset_data(file_name: str, data: dict) -> None:
    """Preset files are code in disguise: fail loudly at load time when one is malformed."""
    def fail(message: str) -> None:
        raise RuntimeError(f"scoring/presets/{file_name}: {message}")

    if not isinstance(data, dict) or set(data) - PRESET_KEYS or {"id", "options", "naturals"} - set(data):
        fail(f"keys must be among {sorted(PRESET_KEYS)}")
    if file_name != f"{data['id']}.json":
        fail("the file name must be the preset id")
    if set(data.get("terms", {})) != TERM_KEYS:
        fail(f"terms must name exactly {sorted(TERM_KEYS)}")
    try:
        check_options(data["options"])
        for table in data.get("row_value_tables", {}).values():
            OPTIONS["row_values"].check(table, "row_values")
    except ScoringError as err:
        fail(str(err))
    if not isinstance(data["options"].get("row_values", DEFAULTS["row_values"]), str) \
            or data["options"].get("row_values", DEFAULTS["row_values"]) not in data.get("row_value_tables", {}):
        fail("options.row_values must name one of row_value_tables")
    if set(data.get("category_names_zh", CATEGORY_NAMES_ZH)) != set(CATEGORIES):
        fail("category_names_zh must name every hand category")
    seen = set()
    for natural in data["naturals"]:
        test = natural.get("test", {})
        kind = test.get("kind")
        if kind not in TESTS:
            fail(f"natural {natural.get('id')!r}: unknown test {shown(kind)}")
        if set(test) - {"kind"} != TEST_PARAMETERS[kind]:
            fail(f"natural {natural['id']!r}: test {kind} takes {sorted(TEST_PARAMETERS[kind])}")
        if natural["id"] in seen or not isinstance(natural.get("points"), int):
            fail(f"natural {natural['id']!r}: duplicate id or points not a whole number")
        seen.add(natural["id"])


@lru_cache(maxsize=None)
def presets() -> dict[str, dict]:
    """Preset id -> its data, loaded once."""
    return load_preset_files("scoring.presets", _check_preset_data)


def _row_value_table(preset: dict, chosen: Any) -> dict:
    tables = preset["row_value_tables"]
    if isinstance(chosen, str):
        if chosen not in tables:
            raise ScoringError(f"option row_values: preset {preset['id']} has no table {shown(chosen)}; "
                               f"tables: {', '.join(tables)}")
        return {row: dict(values) for row, values in tables[chosen].items()}
    table = {row: dict(values) for row, values in tables[preset["options"]["row_values"]].items()}
    for row, overrides in chosen.items():
        table.setdefault(row, {}).update(overrides)
    return table


def _row_value_matrix(table: dict, royalties: bool, low_middle: bool = False) -> tuple:
    """[row][category] -> points; a low middle collects no royalty (a strong middle loses there)."""
    matrix = []
    for row in ROWS:
        values = [1] * len(CATEGORIES)
        if royalties and not (low_middle and row == "middle"):
            for category, points in table.get(row, {}).items():
                values[CATEGORIES.index(category)] = points
        matrix.append(tuple(values))
    return tuple(matrix)


def _natural_rules(preset: dict, effective: dict) -> tuple[NaturalRule, ...]:
    overrides = effective["natural_points"]
    known = [natural["id"] for natural in preset["naturals"]]
    for natural_id in overrides:
        if natural_id not in known:
            raise ScoringError(f"option natural_points: preset {preset['id']} has no natural {shown(natural_id)}; "
                               f"naturals: {', '.join(known)}")
    if not effective["naturals"]:
        return ()
    rules = []
    count = len(preset["naturals"])
    for position, natural in enumerate(preset["naturals"]):
        points = overrides.get(natural["id"], natural["points"])
        if points is None:
            continue
        params = {}
        for key, value in natural["test"].items():
            if key == "kind":
                continue
            if isinstance(value, str) and value.startswith("$"):
                value = effective[value[1:]]
            params[key] = ONE_COLOR_GROUPS[value] if key == "colors" else value
        rules.append(NaturalRule(natural["id"], natural["en"], natural["zh"], points, count - position,
                                 TESTS[natural["test"]["kind"]](params), params))
    return tuple(rules)


def _effective_options(preset: dict, options: dict) -> dict:
    effective = dict(DEFAULTS)
    effective.update(preset["options"])
    effective.update(options)
    if effective["ties"] == "banker-top-card" and effective["mode"] != "banker":
        raise ScoringError("option ties = banker-top-card (食夾棍) needs mode = banker")
    if (effective["fourth_point"] != "none" or effective["overall_bonus"]) and effective["mode"] != "all-pairs":
        raise ScoringError("options fourth_point and overall_bonus (the 11-point game) need mode = all-pairs")
    if effective["criss_cross"] != "off" and (effective["fourth_point"] != "none" or effective["overall_bonus"]):
        raise ScoringError("options fourth_point and overall_bonus count a player's one hand against the table; "
                           "they cannot be combined with criss_cross (two hands per player)")
    return effective


@lru_cache(maxsize=256)
def _build_rules(preset_id: str, options_json: str) -> Rules:
    preset = presets()[preset_id]
    effective = _effective_options(preset, json.loads(options_json))
    table = _row_value_table(preset, effective["row_values"])
    suit_order = effective["suit_order"]
    plain, flush = five_card_tables(effective["wheel"] == "second")
    low_middle = effective["low_middle"]
    middle_plain, middle_flush = low_tables() if low_middle else (plain, flush)
    return Rules(
        preset=preset_id,
        options=effective,
        row_value_table={row: values for row, values in table.items() if values and effective["royalties"]
                         and not (row == "middle" and low_middle and not effective["low_middle_royalties"])},
        banker_mode=effective["mode"] == "banker",
        strict_order=effective["row_order"] == "strict",
        foul_rejected=effective["foul"] == "reject",
        banker_top_card_ties=effective["ties"] == "banker-top-card",
        wheel_second=effective["wheel"] == "second",
        suit_rank=None if suit_order is None else tuple(3 - suit_order.index(s) for s in "SHDC"),
        row_values=_row_value_matrix(table, effective["royalties"],
                                     low_middle and not effective["low_middle_royalties"]),
        royalties_always=effective["royalties_paid"] == "always",
        majority_bonus=effective["majority_bonus"],
        scoop_bonus=effective["scoop_bonus"],
        scoop_multiplier=effective["scoop_multiplier"],
        scoop_includes_no_loss=effective["scoop_includes_no_loss"],
        multiply_royalties=effective["multiply_royalties"],
        foul_counts_as_scoop=effective["foul_counts_as_scoop"],
        home_run_multiplier=effective["home_run_multiplier"],
        home_run_min_opponents=effective["home_run_min_opponents"],
        home_run_split=effective["home_run_payment"] == "split-evenly",
        naturals=_natural_rules(preset, effective),
        natural_vs_natural=effective["natural_vs_natural"],
        natural_home_run=effective["natural_home_run"],
        surrender_allowed=effective["surrender"],
        surrender_cost=parse_positive(effective["surrender_cost"], "option surrender_cost"),
        names_zh=preset.get("category_names_zh", CATEGORY_NAMES_ZH),
        names_cache={},
        terms=preset["terms"],
        five_plain=plain,
        five_flush=flush,
        three=three_card_table(),
        low_middle=low_middle,
        low_middle_high_order=effective["low_middle_order"] == "high-order",
        middle_plain=middle_plain,
        middle_flush=middle_flush,
        criss_cross=effective["criss_cross"],
        fourth_point=effective["fourth_point"],
        fourth_point_min_players=effective["fourth_point_min_players"],
        overall_bonus=effective["overall_bonus"],
        overall_payment_each=effective["overall_payment"] == "each",
        overall_ties_share=effective["overall_ties"] == "share",
        variant=bool(low_middle or effective["criss_cross"] != "off" or effective["fourth_point"] != "none"
                     or effective["overall_bonus"]),
    )


_DEFAULT_RULES: dict[str, Rules] = {}


def resolve_rules(preset_id: Any, options: Any = None) -> Rules:
    """The Rules for a preset id and a round's options object; ScoringError for anything invalid."""
    if not options and preset_id.__class__ is str:
        rules = _DEFAULT_RULES.get(preset_id)
        if rules is not None:
            return rules
    require_known(preset_id, presets(), "rules")
    if not options:
        _DEFAULT_RULES[preset_id] = _build_rules(preset_id, "{}")
        return _DEFAULT_RULES[preset_id]
    return _build_rules(preset_id, options_key(check_options(options)))


def describe_presets() -> dict:
    """Preset id -> title, source, description, options with their defaults, naturals and choices."""
    described = {}
    for preset_id, preset in presets().items():
        described[preset_id] = {
            **describe_common(preset_id, preset, resolve_rules(preset_id).options, OPTIONS),
            "row_value_tables": preset["row_value_tables"],
            "naturals": [{"id": n["id"], "en": n["en"], "zh": n["zh"], "points": n["points"]}
                         for n in preset["naturals"]],
            "naturals_order": preset.get("naturals_order", "highest first"),
            "choices": preset.get("choices", []),
        }
    return described
