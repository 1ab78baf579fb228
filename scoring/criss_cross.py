"""Criss cross (seed 004 line 106): each player lays two 13-card sets, each an independent hand.

Seed: 各競技者は13枚のカードを2組ずつ配られる。2組のカードそれぞれを相手と比較する。競技者のカード2組は
それぞれ独立した手とみなされ、2組の間でカードの交換をしてはならない。

* Input: each player's entry is ``{"sets": [first hand, second hand]}``, each hand in any form a round takes
  (rows, a natural's 13 cards, ``{"surrender": true}``).  One deck: two players (scoring.settle.check_table),
  the 52 cards all distinct.
* Each set is a seat of its own ("Ann (set 1)"): its foul, natural or surrender is its own, and no card may
  move between sets (the 52 cards are checked as dealt).  ``criss_cross = each-vs-each`` compares every set
  with each of the opponent's two (four comparisons: the cross of the name); ``set-vs-set`` compares first
  with first and second with second.  Each comparison settles as a pair under the preset (rows, bonuses,
  scoops, fouls); a home run needs a set to scoop every set it meets, at least home_run_min_opponents.
* Settlement: net and money per player (the sum over the set comparisons); ``players[name]`` holds
  ``"status": "sets"`` and ``"sets"``, the two sets' entries; each entry of ``pairs`` is one comparison,
  keyed by the players' names, with ``"sets": [set of the first, set of the second]`` (1 or 2).
"""

from __future__ import annotations

from typing import Any, Optional

from .errors import ScoringError
from .hand_input import parse_hand_input
from .player_state import player_state
from .rules import Rules
from .stakes import Stakes

SETS = 2


def seat_name(player: str, number: int) -> str:
    return f"{player} (set {number})"


def _sets_of(entry: Any, player: str) -> list:
    if not isinstance(entry, dict) or set(entry) != {"sets"} or not isinstance(entry["sets"], list) \
            or len(entry["sets"]) != SETS:
        raise ScoringError(f"{player}: criss cross needs the player's two hands as "
                           f"{{\"sets\": [first hand, second hand]}}")
    return entry["sets"]


def comparisons(rules: Rules, names: list[str], banker: Optional[str]) -> list[tuple[str, str, int]]:
    """The set-against-set comparisons of a round: (seat, seat, 1 when the first is the banker), first player's
    sets first; each-vs-each meets all four, set-vs-set only first with first and second with second."""
    first, second = names
    pairs = []
    for i in (1, 2):
        for j in (1, 2):
            if rules.criss_cross == "set-vs-set" and i != j:
                continue
            a, b = seat_name(first, i), seat_name(second, j)
            if banker == second:
                a, b = b, a
            pairs.append((a, b, 1 if banker is not None else 0))
    return pairs


def settle_criss_cross(rules: Rules, names: list[str], players: dict, banker: Optional[str], stakes: Stakes,
                       audit: bool) -> dict:
    """The settlement of a criss-cross round (names already checked: two players)."""
    from .settle import _check_cards_unique, settle_states   # this module is loaded by scoring.settle

    owner: dict[str, tuple[str, int]] = {}
    hands = {}
    for name in names:
        for number, hand in enumerate(_sets_of(players[name], name), 1):
            seat = seat_name(name, number)
            owner[seat] = (name, number)
            hands[seat] = parse_hand_input(hand, seat, check_repeats=False)
    _check_cards_unique(hands)
    if banker is not None and any(hands[seat_name(banker, n)].surrender for n in (1, 2)):
        raise ScoringError(f"{banker} is the banker and cannot surrender")
    seats = list(hands)
    states = {seat: player_state(seat, hands[seat], rules) for seat in seats}
    first, second = names
    pairs = comparisons(rules, names, banker)
    stake = stakes.for_pair(first, second)
    seat_stakes = Stakes(stake)
    result = settle_states(rules, seats, states, None if banker is None else seat_name(banker, 1),
                           seat_stakes, audit, seat_pairs=tuple(pairs))
    return _by_player(result, names, owner, stakes, banker, audit)


def _by_player(result: dict, names: list[str], owner: dict, stakes: Stakes, banker: Optional[str],
               audit: bool) -> dict:
    """The seat-level settlement regrouped by player."""
    def player(seat: str) -> str:
        return owner[seat][0]

    for field in ("net", "money"):
        totals: dict[str, Any] = dict.fromkeys(names, 0)
        for seat, value in result[field].items():
            totals[player(seat)] += _read(value)
        result[field] = {name: _write(value) for name, value in totals.items()}
    result["players"] = {name: {"status": "sets",
                                "home_run": any(result["players"][seat_name(name, n)]["home_run"] for n in (1, 2)),
                                "sets": [result["players"][seat_name(name, n)] for n in (1, 2)]}
                         for name in names}
    for entry in result["pairs"]:
        a, b = entry["players"]
        entry["sets"] = [owner[a][1], owner[b][1]]
        entry["players"] = [player(a), player(b)]
        if entry["winner"] is not None:
            entry["winner"] = player(entry["winner"])
        for field in ("net", "money"):
            entry[field] = {player(seat): value for seat, value in entry[field].items()}
        if audit:
            for row in entry.get("rows") or []:
                if row["winner"] is not None:
                    row["winner"] = player(row["winner"])
                row["hands"] = {player(seat): hand for seat, hand in row["hands"].items()}
            for step in entry["steps"]:
                step["points"] = {player(seat): value for seat, value in step["points"].items()}
    result["banker"] = banker
    if audit:
        result["stakes"] = stakes.to_json()
    return result


def _read(value: Any) -> Any:
    from fractions import Fraction
    return Fraction(value) if isinstance(value, str) else value


def _write(value: Any) -> Any:
    from .numbers import to_json
    return value if value.__class__ is int else to_json(value)
