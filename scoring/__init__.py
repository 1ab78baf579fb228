"""Scoring engine for Chinese poker (十三張 / 十三支 / 十三水) and Big Two (鋤大弟 / 大老二, scoring.bigtwo).

Public API (see docs/architecture.md and docs/scoring-presets.md):
    settle(round) -> dict                 the settlement ``python -m scoring settle`` prints
                                          ({"game": "bigtwo", ...} settles a Big Two hand)
    settle_many(rounds) -> list[dict]     [settle(round, audit=False) ...], the common rounds in numpy
    list_presets(game=None) -> dict       preset id -> game, description, options with defaults, ...
    validate_settings(rules, options, players, banker, stakes) -> dict   check a game's settings alone
                                          (Big Two presets are recognised by their id)
    parse_hand(value) -> dict             one player's entry in canonical card codes
    detect_naturals(cards, rules, options) -> list[dict]   (cards: 13 codes, or the hand laid in rows)
    foul_reason(rows, rules, options) -> str | None   why the engine treats a hand as fouled (擺烏龍/相公)
    legal_fix(rows, rules, options) -> dict   a legal arrangement of the same cards, fewest cards moved
    best_arrangement(cards, rules, options, players) -> dict   the split with the most expected points
    hindsight(round) -> dict              per player, the best split against the hands as laid
    ScoringError                          every invalid input (a ValueError with a one-line message)
                                          (every entry point first checks its input against scoring.limits
                                          and reads numbers through scoring.numbers: docs/scoring-presets.md,
                                          "Numbers and bad input")
    cards.parse_card(text) -> str         "10s" -> "TS"
"""

from __future__ import annotations

from typing import Any, Optional

from . import bigtwo, cards
from .errors import ScoringError, shown
from .advisor import best_arrangement
from .batch import settle_many
from .fouls import foul_reason, legal_fix
from .hindsight import hindsight
from .games import GAMES, DEFAULT_GAME, game_of
from .hand_input import hand_to_json, parse_hand_input
from .limits import check_document
from .naturals import hand_features
from .rules import describe_presets, resolve_rules
from .settle import check_banker, check_players, check_table
from .stakes import parse_stakes

__all__ = ["settle", "settle_many", "list_presets", "validate_settings", "parse_hand", "detect_naturals",
           "foul_reason", "legal_fix", "best_arrangement", "hindsight", "ScoringError", "cards"]


def settle(round: dict, *, audit: bool = True) -> dict:  # noqa: A002 - the documented parameter name
    """Settle one round (the JSON object of ``python -m scoring settle``); returns the settlement JSON.

    ``audit=False`` returns the numbers only (no per-row hand names or per-rule explanation).
    """
    return GAMES[game_of(round)](round, audit=audit)


def list_presets(game: Optional[str] = None) -> dict:
    """Preset id -> game, title, source, description, options (default, help, choices), choices made
    (Chinese poker presets also list naturals and row-value tables).  ``game`` keeps one game's presets."""
    if game is not None and (not isinstance(game, str) or game not in GAMES):
        raise ScoringError(f"unknown game {shown(game)}; games: {', '.join(GAMES)}")
    listed: dict = {}
    if game in (None, DEFAULT_GAME):
        listed.update({preset_id: {"game": DEFAULT_GAME, **described}
                       for preset_id, described in describe_presets().items()})
    if game in (None, bigtwo.GAME):
        listed.update(bigtwo.describe_presets())
    return listed


def validate_settings(rules: Any, options: Any = None, players: Any = None, banker: Any = None,
                      stakes: Any = None) -> dict:
    """Check a game's settings without hands; returns them normalised, or raises ScoringError.

    ``players`` is a list of names (or an object whose keys are the names); left out, only the
    rules and options are checked.  A Big Two preset id (bigtwo-*) checks a Big Two game (no banker).
    """
    check_document([rules, options, players, banker, stakes], "the settings")
    if bigtwo.is_bigtwo_preset(rules):
        return bigtwo.validate_settings(rules, options, players, banker, stakes)
    resolved = resolve_rules(rules, options)
    names = check_players(players) if players is not None else None
    result: dict[str, Any] = {"game": DEFAULT_GAME, "rules": resolved.preset, "options": resolved.options,
                              "mode": "banker" if resolved.banker_mode else "all-pairs"}
    if names is not None:
        check_table(resolved, names)
        result["players"] = names
        result["banker"] = check_banker(resolved, banker, names)
        result["stakes"] = parse_stakes(stakes, names, result["banker"]).to_json()
    elif banker is not None or stakes is not None:
        raise ScoringError("checking the banker or stakes needs the players")
    return result


def parse_hand(value: Any, player: str = "hand") -> dict:
    """One player's entry (any accepted form) in canonical form: rows and cards as codes like "TS"."""
    check_document(value, "the hand")
    return hand_to_json(parse_hand_input(value, player))


def detect_naturals(hand_cards: Any, rules: Any, options: Optional[dict] = None) -> list[dict]:
    """Naturals a 13-card hand makes under a preset, best first, each with an arrangement when it needs one."""
    check_document([rules, options, hand_cards], "the hand and rules")
    resolved = resolve_rules(rules, options)
    hand = parse_hand_input(hand_cards, "hand")
    if hand.cards is None or len(hand.cards) != 13:
        raise ScoringError("detecting naturals needs the hand's 13 cards")
    features = hand_features(hand.cards)
    found = []
    for natural in resolved.naturals:
        result = natural.check(features)
        if result is not None:
            entry: dict[str, Any] = {"id": natural.id, "en": natural.en, "zh": natural.zh,
                                     "points": natural.points}
            if result.rows is not None:
                entry["rows"] = {row: [cards.CODES[card] for card in row_cards]
                                 for row, row_cards in zip(("front", "middle", "back"), result.rows)}
            found.append(entry)
    return found
