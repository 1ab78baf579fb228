"""A Chinese-poker hand's arrangement as scoring judges it: fouled or not (擺烏龍/相公), the reason in words, the
legal fix scoring computes (the same 13 cards, fewest moved), and the natural (報到) the 13 cards make.

Scoring owns all of it (scoring.foul_reason, scoring.legal_fix, scoring.detect_naturals); they are looked up at
call time so the page works, without fouls, on a scoring package that lacks them. Results are cached per
(rows, rules): a polled round page asks again for the same hands every second."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import scoring

from webapp.models import Game, Hand
from webapp.rounds.shape import ROW_SIZES, ROWS

Rows = dict[str, list[str]]


def complete_rows(hand: Hand) -> Rows | None:
    """The hand's rows when they are 13 distinct valid cards in 3/5/5 (anything less is the review's to report)."""
    if hand.state != "cards":
        return None
    rows = hand.rows()
    codes = [code for row in ROWS for code in rows[row]]
    if any(len(rows[row]) != size for row, size in ROW_SIZES.items()) or len(set(codes)) != len(codes):
        return None
    try:
        if any(scoring.cards.parse_card(code) != code for code in codes):
            return None
    except (scoring.ScoringError, ValueError):
        return None
    return rows


def foul_of(game: Game, hand: Hand) -> dict[str, Any] | None:
    """None, or {"reason": "middle Pair of Aces beats back Queen high", "fix": {front, middle, back}} ("fix" None
    when scoring offers none). Judged as settling will judge it: a declared natural is not played in rows."""
    rows = complete_rows(hand) if not game.is_bigtwo else None
    if rows is None:
        return None
    found = _foul(_key(rows), bool(hand.declared_natural), game.preset, _options_key(game.options))
    return None if found is None else {"reason": found[0], "fix": found[1]}


def natural_of(game: Game, hand: Hand) -> str | None:
    """The name of the best natural the hand's 13 cards make under the game's rules, or None."""
    rows = complete_rows(hand) if not game.is_bigtwo else None
    if rows is None:
        return None
    return _natural(tuple(sorted(code for row in ROWS for code in rows[row])), game.preset,
                    _options_key(game.options))


def fouls_refused(game: Game) -> bool:
    """Whether the game's rules refuse to settle a fouled hand (foul rule 'reject', e.g. fujian's 相公)."""
    if game.is_bigtwo:
        return False
    return _foul_rule(game.preset, _options_key(game.options)) == "reject"


def _key(rows: Rows) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(rows[row]) for row in ROWS)


def _options_key(options: dict[str, Any] | None) -> str:
    return json.dumps(options or {}, sort_keys=True)


@lru_cache(maxsize=4096)
def _foul(rows: tuple[tuple[str, ...], ...], declared_natural: bool, preset: str,
          options: str) -> tuple[str, Rows | None] | None:
    foul_reason = getattr(scoring, "foul_reason", None)
    if foul_reason is None:
        return None
    hand: dict[str, Any] = dict(zip(ROWS, map(list, rows)))
    opts = json.loads(options) or None
    try:
        reason = foul_reason({**hand, "natural": declared_natural}, preset, opts)
    except (scoring.ScoringError, ValueError):
        return None
    if not reason:
        return None
    legal_fix = getattr(scoring, "legal_fix", None)
    fix = None
    if legal_fix is not None:
        try:
            fix = _as_rows(legal_fix(hand, preset, opts))
        except (scoring.ScoringError, ValueError):
            fix = None
    return str(reason), fix


def _as_rows(value: Any) -> Rows | None:
    """scoring's arrangement as {front, middle, back} (it may answer with a mapping or three lists)."""
    if isinstance(value, dict) and all(row in value for row in ROWS):
        return {row: [str(code) for code in value[row]] for row in ROWS}
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return {row: [str(code) for code in cards] for row, cards in zip(ROWS, value)}
    return None


@lru_cache(maxsize=4096)
def _natural(codes: tuple[str, ...], preset: str, options: str) -> str | None:
    try:
        found = scoring.detect_naturals(list(codes), preset, json.loads(options) or None)
    except (scoring.ScoringError, ValueError):
        return None
    return str(found[0]["en"]) if found else None


@lru_cache(maxsize=256)
def _foul_rule(preset: str, options: str) -> str | None:
    try:
        return scoring.validate_settings(preset, json.loads(options) or None)["options"].get("foul")
    except (scoring.ScoringError, ValueError):
        return None
