"""Which of many 13-card hands might make a natural, in numpy: a gate before the exact detection.

Each test kind of scoring.naturals gets a vectorised *necessary* condition (most are the test itself,
written on rank and suit counts).  Hands that pass the gate are checked again one by one with the
exact tests (scoring.player_state.naturals_found), so the gate only has to never miss a natural; a
test kind it does not know lets every hand through.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .cards import RANKS, SUITS
from .naturals import _THREE_FLUSH_KEYS, _three_straight_keys
from .rules import NaturalRule, Rules, presets

_RANK_KEY_WEIGHTS = np.array([1 << (3 * rank) for rank in range(13)], dtype=np.int64)
_SUIT_KEY_WEIGHTS = np.array([1 << (4 * suit) for suit in range(4)], dtype=np.int64)
_THREE_FLUSH_KEY_ARRAY = np.array(sorted(_THREE_FLUSH_KEYS), dtype=np.int64)


@lru_cache(maxsize=None)
def _three_straight_key_array(front_rule: str) -> np.ndarray:
    return np.array(sorted(_three_straight_keys(front_rule)), dtype=np.int64)


class HandCounts:
    """Rank and suit counts of N hands, computed once and shared by every gate."""

    def __init__(self, cards: np.ndarray) -> None:
        hands = cards.shape[0]
        offsets = np.arange(hands, dtype=np.int64)[:, None]
        self.ranks = np.bincount((offsets * 13 + (cards >> 2)).ravel(), minlength=hands * 13).reshape(hands, 13)
        self.suits = np.bincount((offsets * 4 + (cards & 3)).ravel(), minlength=hands * 4).reshape(hands, 4)
        self.singles = (self.ranks == 1).sum(axis=1)
        self.pairs = (self.ranks == 2).sum(axis=1)
        self.trips = (self.ranks == 3).sum(axis=1)
        self.quads = (self.ranks == 4).sum(axis=1)

    @property
    def rank_key(self) -> np.ndarray:
        return self.ranks @ _RANK_KEY_WEIGHTS

    @property
    def suit_key(self) -> np.ndarray:
        return self.suits @ _SUIT_KEY_WEIGHTS


def _gate(kind: str, params: dict, counts: HandCounts) -> np.ndarray:
    """Hands that may pass the test ``kind`` with ``params`` (never fewer than the exact test)."""
    if kind in ("dragon", "same-suit-dragon"):
        return counts.singles == 13
    if kind == "pairs":
        return counts.pairs + counts.trips + 2 * counts.quads >= params["at_least"]
    if kind == "trips":
        return counts.trips + counts.quads >= params["at_least"]
    if kind == "quads":
        return counts.quads >= params["at_least"]
    if kind == "five-pairs-and-trips":
        return (counts.trips == 1) & (counts.singles == 0)
    if kind == "two-full-houses-and-pair":
        return counts.trips + counts.quads >= 2
    if kind == "cards-in-ranks":
        indices = [RANKS.index(rank) for rank in params["ranks"]]
        return counts.ranks[:, indices].sum(axis=1) >= params["at_least"]
    if kind == "one-color":
        inside = [[SUITS.index(suit) for suit in group] for group in params["colors"]]
        return (counts.suits[:, inside[0]].sum(axis=1) == 13) | (counts.suits[:, inside[1]].sum(axis=1) == 13)
    if kind == "three-flushes":
        return np.isin(counts.suit_key, _THREE_FLUSH_KEY_ARRAY)
    if kind in ("three-straights", "three-straight-flushes"):   # three straight flushes are three straights
        return np.isin(counts.rank_key, _three_straight_key_array(params["front_straights"]))
    return np.ones(len(counts.singles), dtype=bool)


def _test_kind(rules: Rules, natural: NaturalRule) -> str:
    for entry in presets()[rules.preset]["naturals"]:
        if entry["id"] == natural.id:
            return entry["test"]["kind"]
    return ""   # unknown: the gate lets every hand through


def maybe_natural(cards: np.ndarray, rules: Rules) -> np.ndarray:
    """Bool per hand of an (N, 13) array of card ints: True where the hand may make one of the rules' naturals."""
    flagged = np.zeros(cards.shape[0], dtype=bool)
    if not rules.naturals or not cards.shape[0]:
        return flagged
    counts = HandCounts(cards.astype(np.int64, copy=False))
    for natural in rules.naturals:
        flagged |= _gate(_test_kind(rules, natural), natural.params, counts)
    return flagged
