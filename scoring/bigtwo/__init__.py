"""Big Two (鋤大弟 / 大老二) end-of-hand settlement from the cards left in each loser's hand.

Reached through ``scoring.settle({"game": "bigtwo", "rules": "bigtwo-hk", "players": {...}})``; the
presets are data files under scoring/bigtwo/presets/ (docs/bigtwo-presets.md has each one's table).
"""

from __future__ import annotations

from typing import Any

from ..errors import ScoringError
from ..limits import check_document
from ..settle import check_players
from ..stakes import parse_stakes
from .hands import parse_left_hand
from .instant import instant_json
from .round_input import check_instant_claim
from .rules import GAME, describe_presets, is_bigtwo_preset, presets, resolve_rules
from .settle import settle_round

__all__ = ["GAME", "settle_round", "describe_presets", "validate_settings", "is_bigtwo_preset", "presets",
           "parse_left_hand", "check_instant_win"]


def validate_settings(rules: Any, options: Any = None, players: Any = None, banker: Any = None,
                      stakes: Any = None) -> dict:
    """Check a Big Two game's settings without cards; returns them normalised, or raises ScoringError."""
    resolved = resolve_rules(rules, options)
    if banker not in (None, ""):
        raise ScoringError(f"rules {resolved.preset} (Big Two) have no banker; leave banker out")
    result: dict[str, Any] = {"game": GAME, "rules": resolved.preset, "options": resolved.options,
                              "mode": resolved.settlement}
    if players is not None:
        names = check_players(players)
        if resolved.options["rank_points"] is not None and len(resolved.options["rank_points"]) != len(names):
            raise ScoringError(f"option rank_points gives {len(resolved.options['rank_points'])} places for "
                               f"{len(names)} players")
        parsed = parse_stakes(stakes, names, None)
        if resolved.settlement == "scores" and parsed.by_pair:
            raise ScoringError("stakes.pairs needs a settlement between players (winner-collects or pairwise)")
        result.update({"players": names, "banker": None, "stakes": parsed.to_json()})
    elif stakes is not None:
        raise ScoringError("checking the stakes needs the players")
    return result


def check_instant_win(rules: Any, options: Any, player: str, cards: Any) -> dict:
    """Check one player's instant-win claim as settling does: ``cards`` are the 13 dealt (text or list).

    Returns the settlement's "instant_win" object ({"player", "hand", "en", "zh", "multiplier"}); raises
    ScoringError with settling's own message (not a card, a card twice, no instant win these rules pay)."""
    check_document([rules, options, player, cards], "the claim")
    resolved = resolve_rules(rules, options)
    kind, factor = check_instant_claim(resolved, player, parse_left_hand(cards, player).cards)
    return instant_json(player, kind, factor)
