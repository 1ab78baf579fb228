"""``python -m scoring arrange``: the advisor's document -> its JSON (scoring.__main__ reads and prints).

The document: ``{"rules": preset, "options": {...}, "players": 4, "cards": "13 codes"}`` for the best
split, or ``"rows": "front / middle / back"`` instead of cards for the best split and the foul fix of
those rows (``fix``: the nearest legal arrangement, the cards it moves and why the rows foul, or the
rows themselves with ``moved`` 0 when they are in order).  Criss cross: ``cards`` or ``rows`` may be
``{"sets": [first, second]}``; the output is then ``{"sets": [advice, advice]}``, each with its ``fix``
when rows were given.
"""

from __future__ import annotations

from typing import Any

from .advisor import best_arrangement
from .cards import CODES
from .errors import ScoringError, shown
from .fouls import foul_reason, legal_fix
from .hand_input import parse_hand_input
from .options import ROWS

ARRANGE_KEYS = ("rules", "options", "players", "cards", "rows")


def _moved(laid: dict, fixed: dict) -> int:
    """Cards the fix puts in another row than the one they were laid in."""
    return sum(len(set(laid[row]) - set(fixed[row])) for row in ROWS)


def arrange_document(document: Any) -> dict:
    """The JSON ``python -m scoring arrange`` prints for one document; ScoringError for a bad one."""
    if not isinstance(document, dict):
        raise ScoringError("arrange reads a JSON object with rules and cards (or rows)")
    unknown = [key for key in document if key not in ARRANGE_KEYS]
    if unknown:
        raise ScoringError(f"unknown key {shown(unknown[0])}; valid keys: {', '.join(ARRANGE_KEYS)}")
    if "rules" not in document:
        raise ScoringError("the document names no rules (\"rules\": one of the presets)")
    if ("cards" in document) == ("rows" in document):
        raise ScoringError("give the hand as \"cards\" (13 cards) or as \"rows\" (front / middle / back), "
                           "one of the two")
    rules, options, players = document["rules"], document.get("options"), document.get("players", 4)
    if "cards" in document:
        return _advice(best_arrangement(document["cards"], rules, options, players))
    rows = document["rows"]
    if isinstance(rows, dict) and "sets" in rows:   # criss cross: both sets, each advised and fixed
        advice = _advice(best_arrangement(rows, rules, options, players))
        fixed = legal_fix(rows, rules, options)
        for number, (entry, fix) in enumerate(zip(advice["sets"], fixed["sets"])):
            entry["fix"] = _fix_entry(rows["sets"][number], fix, rules, options)
        return advice
    hand = parse_hand_input(rows, "rows")
    if hand.rows is None:
        raise ScoringError("rows: write the hand as 'front / middle / back'")
    advice = _advice(best_arrangement(rows, rules, options, players))
    advice["fix"] = _fix_entry(rows, legal_fix(rows, rules, options), rules, options)
    return advice


def _fix_entry(rows: Any, fixed: dict, rules: Any, options: Any) -> dict:
    hand = parse_hand_input(rows, "rows")
    if hand.rows is None:
        raise ScoringError("rows: write the hand as 'front / middle / back'")
    laid = {row: [CODES[card] for card in part] for row, part in zip(ROWS, hand.rows)}
    return {**fixed, "moved": _moved(laid, fixed), "foul": foul_reason(rows, rules, options)}


def _advice(found: dict) -> dict:
    if "sets" in found:
        return {"sets": [_advice(entry) for entry in found["sets"]]}
    result = {"best": found["best"], "runner_up": found["runner_up"]}
    if found["natural"] is not None:
        result["natural"] = found["natural"]
    return result
