"""Criss cross (seed 004 line 106): each player is dealt two 13-card sets, each laid and compared on its own.

A criss-cross round holds two Hand rows per player (`hand_set` 0 and 1); every other game holds one (`hand_set` 0).
People and the API count sets from 1 ("set 2"), the database from 0. A hand is named on pages, in warnings and in
what a round lacks by its label: the player's name, or under criss cross scoring's own seat name "Ann (set 2)"
(scoring.criss_cross.seat_name), so the engine's messages and ours name a set alike and no two labels collide
(every label of a criss-cross game carries its set)."""
from __future__ import annotations

import json
from fractions import Fraction
from functools import lru_cache
from typing import Any

import scoring
from scoring.criss_cross import SETS, seat_name

from webapp.models import Game, Hand
from webapp.rounds.errors import RoundError


def is_criss_cross(game: Game) -> bool:
    """Whether the game deals two sets per player (the criss-cross preset, or option criss_cross on any)."""
    return not game.is_bigtwo and _criss_cross(game.preset, json.dumps(game.options or {}, sort_keys=True))


@lru_cache(maxsize=256)
def _criss_cross(preset: str, options: str) -> bool:
    try:
        effective = scoring.validate_settings(preset, json.loads(options) or None)["options"]
    except (scoring.ScoringError, ValueError):
        return False
    return effective.get("criss_cross", "off") != "off"


def set_count(game: Game) -> int:
    """How many hands each player lays in a round: 2 under criss cross, else 1."""
    return SETS if is_criss_cross(game) else 1


def hand_set_of(game: Game, number: Any) -> int:
    """The stored hand_set (0 or 1) of a set number a person or the API gave (1 or 2; None or "": 1);
    RoundError 404 for a set the game does not deal."""
    if number is None or number == "":
        return 0
    try:
        value = int(number)
    except (TypeError, ValueError):
        raise RoundError(f"'set' must be 1 or 2, not {str(number)[:20]!r}.", 400) from None
    count = set_count(game)
    if not 1 <= value <= count:
        if count == 1:
            raise RoundError(f"This game deals one hand per player: there is no set {value} (only criss cross "
                             f"deals two).", 404)
        raise RoundError(f"Criss cross deals each player sets 1 and 2: there is no set {value}.", 404)
    return value - 1


def set_number(hand: Hand) -> int | None:
    """The hand's set as people count it (1 or 2) in a criss-cross game, else None (url_for leaves it out)."""
    return hand.hand_set + 1 if is_criss_cross(hand.round.game) else None


def hand_label(hand: Hand) -> str:
    """The hand's name: the player, or "Ann (set 2)" under criss cross."""
    number = set_number(hand)
    return hand.player if number is None else seat_name(hand.player, number)


def set_detail(hand: Hand) -> dict[str, int]:
    """What a change's RoundEvent records of the set it touched ({"set": 2}); nothing outside criss cross."""
    number = set_number(hand)
    return {} if number is None else {"set": number}


def snapshot_key(player: str, hand_set: int) -> str:
    """A hand's key in an undo snapshot: the player (set 0, as snapshots always were) or "Ann/2" (names hold no
    '/': games.validate refuses it)."""
    return player if not hand_set else f"{player}/{hand_set + 1}"


def find_hand(hands: list[Hand], player: str, hand_set: int = 0) -> Hand | None:
    return next((h for h in hands if h.player == player and h.hand_set == hand_set), None)


def set_results(settlement: dict[str, Any] | None) -> dict[tuple[str, int], dict[str, Fraction]]:
    """Each set's share of a criss-cross settlement, {(player, set number): {"net", "money"}}: the sum of the
    comparisons that set took part in (scoring's `pairs`, each with "sets": [i, j]); a player's two sets add up to
    the player's net and money exactly."""
    out: dict[tuple[str, int], dict[str, Fraction]] = {}
    for pair in (settlement or {}).get("pairs") or []:
        for player, number in zip(pair.get("players") or [], pair.get("sets") or []):
            share = out.setdefault((player, number), {"net": Fraction(0), "money": Fraction(0)})
            for field in ("net", "money"):
                share[field] += Fraction(str((pair.get(field) or {}).get(player, 0)))
    return out


def set_share(rnd: Any, hand: Hand) -> str | None:
    """A settled criss-cross round's points for this set, signed ("+4", "-2", "0"); None otherwise."""
    if rnd.status != "settled" or not rnd.settlement or set_number(hand) is None:
        return None
    points = set_results(rnd.settlement).get((hand.player, hand.hand_set + 1), {"net": Fraction(0)})["net"]
    return f"+{points}" if points > 0 else str(points)
