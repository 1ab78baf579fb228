"""Stakes: money per point, for the whole table and for particular pairs of players."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from .errors import ScoringError, shown
from .numbers import Exact, parse_positive, to_json

STAKE_KEYS = ("per_point", "pairs", "bets")


@dataclass(frozen=True)
class Stakes:
    per_point: Exact = 1
    by_pair: dict = field(default_factory=dict)   # frozenset({a, b}) -> money per point

    def for_pair(self, first: str, second: str) -> Exact:
        return self.by_pair.get(frozenset((first, second)), self.per_point) if self.by_pair else self.per_point

    def to_json(self) -> dict:
        return {"per_point": to_json(self.per_point),
                "pairs": [{"players": sorted(pair), "per_point": to_json(stake)}
                          for pair, stake in self.by_pair.items()]}


DEFAULT_STAKES = Stakes()


def parse_stakes(value: Any, players: Sequence[str], banker: Optional[str]) -> Stakes:
    """Stakes from the round's "stakes" object:
    {"per_point": 1, "pairs": [{"players": ["Ann", "Bob"], "per_point": 5}], "bets": {"Bob": 2}}
    ("bets", banker mode only: each player's stake with the banker, 各閒家向莊家下注)."""
    if value is None:
        return DEFAULT_STAKES
    if not isinstance(value, dict):
        raise ScoringError("stakes must be an object like {\"per_point\": 1}")
    unknown = [key for key in value if key not in STAKE_KEYS]
    if unknown:
        raise ScoringError(f"unknown key {shown(unknown[0])} in stakes; valid keys: {', '.join(STAKE_KEYS)}")
    per_point = parse_positive(value.get("per_point", 1), "stakes.per_point")
    by_pair: dict = {}

    def add(first: Any, second: Any, stake: Any, where: str) -> None:
        for name in (first, second):
            if name not in players:
                raise ScoringError(f"{where}: {shown(name)} is not a player; players: {', '.join(players)}")
        if first == second:
            raise ScoringError(f"{where}: a pair needs two different players")
        pair = frozenset((first, second))
        if pair in by_pair:
            raise ScoringError(f"{where}: the stake for {first} and {second} is given twice")
        by_pair[pair] = parse_positive(stake, where)

    pairs = value.get("pairs", [])
    if not isinstance(pairs, list):
        raise ScoringError("stakes.pairs must be a list of {\"players\": [a, b], \"per_point\": x}")
    for number, entry in enumerate(pairs, 1):
        where = f"stakes.pairs[{number}]"
        if not isinstance(entry, dict) or set(entry) != {"players", "per_point"} \
                or not isinstance(entry["players"], list) or len(entry["players"]) != 2:
            raise ScoringError(f"{where} must be {{\"players\": [a, b], \"per_point\": x}}")
        add(entry["players"][0], entry["players"][1], entry["per_point"], where)
    bets = value.get("bets", {})
    if bets:
        if banker is None:
            raise ScoringError("stakes.bets are each player's stake with the banker; these rules have no banker")
        if not isinstance(bets, dict):
            raise ScoringError("stakes.bets must be an object of player -> stake")
        for player, stake in bets.items():
            if player == banker:
                raise ScoringError(f"stakes.bets: {player} is the banker and bets with no one")
            add(banker, player, stake, f"stakes.bets.{player}")
    return Stakes(per_point, by_pair)
