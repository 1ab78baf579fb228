"""Row evaluation: a 3- or 5-card row -> one int ("strength") that orders rows.

Strength layout: ``category << 20 | d0 << 16 | d1 << 12 | d2 << 8 | d3 << 4 | d4`` where the
digits are rank values 2..14 in order of significance (the trips of a full house, then its pair;
the high pair, low pair, kicker of two pair; ...).  A 3-card front uses the same layout with the
missing digits 0, so a front compares directly with a 5-card middle: category first, then rank by
rank, and a front whose every rank equals the middle's is the smaller (missing cards count lowest).
Suits never enter the strength.

Scalar look-ups use dicts keyed by a rank-multiset key (3 bits of count per rank); batch look-ups
use numpy tables keyed by the sorted ranks in base 13 (sorted by a 5-input sorting network).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Sequence

import numpy as np

from .errors import ScoringError

CATEGORIES = ("high-card", "pair", "two-pair", "trips", "straight", "flush",
              "full-house", "quads", "straight-flush")
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
FRONT_CATEGORIES = frozenset({HIGH_CARD, PAIR, TRIPS})
CATEGORY_SHIFT = 20
TOP_DIGIT_SHIFT = 16
ACE_INDEX = 12
# A wheel that ranks second sits above the king-high straight (13, 0) and below the ace-high one (14, 0).
_WHEEL_SECOND_DIGITS = (13, 1)
_WHEEL_INDICES = (0, 1, 2, 3, ACE_INDEX)

# Per-card contributions to the scalar look-up keys (card int = rank * 4 + suit).
RANK_KEY = tuple(1 << (3 * (card >> 2)) for card in range(52))
SUIT_BIT = tuple(1 << (card & 3) for card in range(52))
ONE_SUIT = frozenset({1, 2, 4, 8})


def pack(category: int, digits: Sequence[int]) -> int:
    """Strength int from a category and up to five rank digits (2..14, or 0 for none)."""
    value = category
    for position in range(5):
        value = (value << 4) | (digits[position] if position < len(digits) else 0)
    return value


def category_of(strength: int) -> int:
    """Category index (HIGH_CARD .. STRAIGHT_FLUSH) of a strength."""
    return strength >> CATEGORY_SHIFT


def top_digit(strength: int) -> int:
    """The most significant rank digit (the pair's rank for a pair, the high card for a straight)."""
    return (strength >> TOP_DIGIT_SHIFT) & 15


def digits_of(strength: int) -> tuple[int, int, int, int, int]:
    """The five rank digits of a strength, most significant first (0 = no card)."""
    return tuple((strength >> shift) & 15 for shift in (16, 12, 8, 4, 0))  # type: ignore[return-value]


def strength_of_ranks(rank_indices: Sequence[int], flush: bool = False, wheel_second: bool = False,
                      wheel_straight: bool = True) -> int:
    """Strength of a row given its rank indices (0..12 for 2..A), whether it is a flush, and the wheel rule.

    Three-card rows ignore ``flush`` and never make straights.  ``wheel_straight=False`` reads A-2-3-4-5 as
    ace high, not a straight (deuce-to-seven low, scoring.row_order).
    """
    size = len(rank_indices)
    if size not in (3, 5):
        raise ScoringError(f"a row has 3 or 5 cards, not {size}")
    counts: dict[int, int] = {}
    for rank in rank_indices:
        counts[rank] = counts.get(rank, 0) + 1
    # Significance order: bigger groups first, then higher ranks.
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    digits = [rank + 2 for rank, _ in groups]
    shape = tuple(count for _, count in groups)
    if size == 3:
        category = {(1, 1, 1): HIGH_CARD, (2, 1): PAIR, (3,): TRIPS}[shape]
        return pack(category, digits)
    if shape == (1, 1, 1, 1, 1):
        ordered = sorted(rank_indices)
        straight_digits = None
        if ordered[4] - ordered[0] == 4:
            straight_digits = (ordered[4] + 2,)
        elif wheel_straight and tuple(ordered) == _WHEEL_INDICES:
            straight_digits = _WHEEL_SECOND_DIGITS if wheel_second else (5,)
        if straight_digits is not None:
            return pack(STRAIGHT_FLUSH if flush else STRAIGHT, straight_digits)
        return pack(FLUSH if flush else HIGH_CARD, digits)
    if flush:
        raise ScoringError("a flush cannot hold two cards of one rank")
    category = {(2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS,
                (3, 2): FULL_HOUSE, (4, 1): QUADS}[shape]
    return pack(category, digits)


def _rank_multisets(size: int):
    """Every multiset of ``size`` rank indices with at most four of a rank (a real deck)."""
    for ranks in combinations_with_replacement(range(13), size):
        if all(ranks.count(rank) <= 4 for rank in set(ranks)):
            yield ranks


def _rank_key(ranks: Sequence[int]) -> int:
    return sum(1 << (3 * rank) for rank in ranks)


@lru_cache(maxsize=None)
def five_card_tables(wheel_second: bool = False, wheel_straight: bool = True) -> tuple[dict[int, int], dict[int, int]]:
    """(strength by rank key for non-flush rows, strength by rank key for flushes)."""
    plain: dict[int, int] = {}
    flushes: dict[int, int] = {}
    for ranks in _rank_multisets(5):
        key = _rank_key(ranks)
        plain[key] = strength_of_ranks(ranks, False, wheel_second, wheel_straight)
        if len(set(ranks)) == 5:
            flushes[key] = strength_of_ranks(ranks, True, wheel_second, wheel_straight)
    return plain, flushes


@lru_cache(maxsize=None)
def three_card_table() -> dict[int, int]:
    """Strength by rank key for 3-card fronts."""
    return {_rank_key(ranks): strength_of_ranks(ranks) for ranks in _rank_multisets(3)}


def evaluate_five(cards: Sequence[int], wheel_second: bool = False) -> int:
    """Strength of a 5-card row of card ints."""
    plain, flushes = five_card_tables(wheel_second)
    c0, c1, c2, c3, c4 = cards
    key = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4]
    if (SUIT_BIT[c0] | SUIT_BIT[c1] | SUIT_BIT[c2] | SUIT_BIT[c3] | SUIT_BIT[c4]) in ONE_SUIT:
        return flushes[key]
    return plain[key]


def evaluate_three(cards: Sequence[int]) -> int:
    """Strength of a 3-card front of card ints."""
    c0, c1, c2 = cards
    return three_card_table()[RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2]]


def evaluate_row(cards: Sequence[int], wheel_second: bool = False) -> int:
    """Strength of a row of 3 or 5 card ints."""
    if len(cards) == 5:
        return evaluate_five(cards, wheel_second)
    if len(cards) == 3:
        return evaluate_three(cards)
    raise ScoringError(f"a row has 3 or 5 cards, not {len(cards)}")


# ---- batch (numpy) -------------------------------------------------------------------------

_BASE13_5 = 13 ** 5
# Optimal 9-comparator sorting network for 5 inputs.
_SORT5 = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))


@lru_cache(maxsize=None)
def five_card_array(wheel_second: bool = False, wheel_straight: bool = True) -> np.ndarray:
    """Strength table indexed by ``flush * 13**5 + base-13 number of the ascending rank indices``."""
    table = np.zeros(2 * _BASE13_5, dtype=np.int32)
    for ranks in _rank_multisets(5):
        index = 0
        for rank in ranks:
            index = index * 13 + rank
        table[index] = strength_of_ranks(ranks, False, wheel_second, wheel_straight)
        if len(set(ranks)) == 5:
            table[_BASE13_5 + index] = strength_of_ranks(ranks, True, wheel_second, wheel_straight)
    return table


@lru_cache(maxsize=None)
def three_card_array() -> np.ndarray:
    """Strength table for fronts indexed by the base-13 number of the ascending rank indices."""
    table = np.zeros(13 ** 3, dtype=np.int32)
    for ranks in _rank_multisets(3):
        table[(ranks[0] * 13 + ranks[1]) * 13 + ranks[2]] = strength_of_ranks(ranks)
    return table


def _as_card_matrix(cards: np.ndarray, width: int) -> np.ndarray:
    matrix = np.asarray(cards)
    if matrix.ndim != 2 or matrix.shape[1] != width:
        raise ScoringError(f"expected an (N, {width}) array of card ints, got shape {matrix.shape}")
    if matrix.size and (matrix.min() < 0 or matrix.max() > 51):
        raise ScoringError("card ints must be 0..51")
    return matrix


def evaluate_five_batch(cards: np.ndarray, wheel_second: bool = False, wheel_straight: bool = True) -> np.ndarray:
    """Strengths (int32) of N 5-card rows given as an (N, 5) array of card ints (``wheel_straight`` as in
    strength_of_ranks)."""
    matrix = _as_card_matrix(cards, 5).astype(np.int32, copy=False)
    ranks = [matrix[:, i] >> 2 for i in range(5)]
    suits = [matrix[:, i] & 3 for i in range(5)]
    for low, high in _SORT5:
        a, b = ranks[low], ranks[high]
        ranks[low], ranks[high] = np.minimum(a, b), np.maximum(a, b)
    index = ranks[0]
    for rank in ranks[1:]:
        index = index * 13 + rank
    flush = (suits[0] == suits[1]) & (suits[0] == suits[2]) & (suits[0] == suits[3]) & (suits[0] == suits[4])
    index = index + flush * _BASE13_5
    return five_card_array(wheel_second, wheel_straight)[index]


def evaluate_three_batch(cards: np.ndarray) -> np.ndarray:
    """Strengths (int32) of N 3-card fronts given as an (N, 3) array of card ints."""
    matrix = _as_card_matrix(cards, 3).astype(np.int32, copy=False)
    r0, r1, r2 = (matrix[:, i] >> 2 for i in range(3))
    low, high = np.minimum(r0, r1), np.maximum(r0, r1)
    low, r2 = np.minimum(low, r2), np.maximum(low, r2)
    mid, high = np.minimum(high, r2), np.maximum(high, r2)
    return three_card_array()[(low * 13 + mid) * 13 + high]
