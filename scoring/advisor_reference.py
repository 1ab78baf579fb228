"""Slow references the advisor is checked against (tests/scoring/test_advisor.py, benchmarks/bench_arrange.py).

monte_carlo_values: the expected points per opponent of every legal split of a hand, estimated by dealing
the unseen 39 cards to the opponents many times, letting them set their hands with the advisor, and
settling each deal exactly (scoring.hindsight's per-split settlement, which the hindsight tests hold to
scoring.settle).  No independence assumption and no table: only the opponents' setter is shared.
strongest_rows: the plain setter a beginner uses (strongest back, then middle, then front, legal).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from .advisor import best_arrangement, score_splits, strength_key
from .cards import CODES
from .hand_input import parse_hand_input
from .hindsight import Table, _split_nets
from .player_state import player_state
from .rules import resolve_rules
from .splits import FIVE_SUBSETS, FRONT_SUBSETS


def _rows_text(rows: dict) -> str:
    return " / ".join(" ".join(rows[row]) for row in ("front", "middle", "back"))


def strongest_rows(cards: list[str], preset: str, options: Optional[dict] = None) -> str:
    """'front / middle / back' with the strongest back, then middle, then front among the legal splits."""
    rules = resolve_rules(preset, options)
    laid = np.array(parse_hand_input(" ".join(cards)).cards, dtype=np.int64)
    front, middle, back, strengths, _ = score_splits(laid, rules, 1)
    best = int(strength_key(strengths, rules).argmax())
    rows = (FRONT_SUBSETS[front[best]], FIVE_SUBSETS[middle[best]], FIVE_SUBSETS[back[best]])
    return " / ".join(" ".join(CODES[card] for card in laid[row]) for row in rows)


def monte_carlo_values(cards: list[str], preset: str, deals: int, seed: int, players: int = 4,
                       options: Optional[dict] = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(split ids (3, n) as in scoring.hindsight.split_nets, mean points per opponent (n,), per-deal
    points per opponent (deals, n)) of every legal split of the 13 ``cards``."""
    rules = resolve_rules(preset, options)
    unseen = [code for code in CODES if code not in set(cards)]
    generator = np.random.default_rng(seed)
    names = [f"p{seat}" for seat in range(players)]
    per_deal = []
    ids = None
    for _ in range(deals):
        order = generator.permutation(len(unseen))
        hands = {names[0]: parse_hand_input(" ".join(cards))}
        for seat in range(1, players):
            dealt = [unseen[i] for i in order[13 * (seat - 1):13 * seat]]
            rows = best_arrangement(" ".join(dealt), preset, options, players)["best"]
            hands[names[seat]] = parse_hand_input(_rows_text(rows))
        states = {name: player_state(name, hand, rules) for name, hand in hands.items()
                  if name != names[0]}
        states[names[0]] = None
        banker = names[1] if rules.banker_mode else None
        if banker is not None:
            pairs = [(1, seat, 1) for seat in range(players) if seat != 1]
        else:
            pairs = [(i, j, 0) for i in range(players) for j in range(i + 1, players)]
        table = Table(rules, names, banker, hands, states, pairs)
        front, middle, back, _, net = _split_nets(table, names[0])
        ids = np.stack((front, middle, back))
        per_deal.append(net / (1 if rules.banker_mode else players - 1))
    values = np.array(per_deal)
    return ids, values.mean(axis=0), values
