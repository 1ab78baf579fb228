"""Every way to split 13 laid cards into front / middle / back, as positions, ordered by cards moved.

Positions 0-2 are the laid front, 3-7 the laid middle, 8-12 the laid back.  A split is a row of
subset ids (into FRONT_SUBSETS / FIVE_SUBSETS) plus how many cards it moves: a card is moved when it
ends in another row than the one it was laid in.  Built once (numpy, ~50 ms) and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from .evaluate import evaluate_five_batch, evaluate_three_batch

LAID_ROW = (0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2)   # laid row of each position
ROW_POSITIONS = ((0, 1, 2), (3, 4, 5, 6, 7), (8, 9, 10, 11, 12))
FRONT_SUBSETS = np.array(list(combinations(range(13), 3)), dtype=np.int64)   # 286 x 3
FIVE_SUBSETS = np.array(list(combinations(range(13), 5)), dtype=np.int64)    # 1287 x 5


def _subset_ids(subsets: np.ndarray) -> dict[int, int]:
    """Bit mask of a subset's positions -> its row in ``subsets``."""
    masks = (np.int64(1) << subsets).sum(axis=1)
    return {int(mask): index for index, mask in enumerate(masks)}


@dataclass(frozen=True)
class SplitTable:
    front: np.ndarray      # (72072,) subset id into FRONT_SUBSETS
    middle: np.ndarray     # (72072,) subset id into FIVE_SUBSETS
    back: np.ndarray       # (72072,) subset id into FIVE_SUBSETS
    moves: np.ndarray      # (72072,) cards moved, ascending
    group_ends: dict       # moves -> end (exclusive) of the splits moving that many cards or fewer


@lru_cache(maxsize=1)
def split_table() -> SplitTable:
    """All 72,072 splits of positions 0..12, sorted (stably) by the number of cards they move."""
    front_ids, five_ids = _subset_ids(FRONT_SUBSETS), _subset_ids(FIVE_SUBSETS)
    laid_masks = [sum(1 << p for p in row) for row in ROW_POSITIONS]
    full = (1 << 13) - 1
    fronts, middles, backs, moves = [], [], [], []
    for front in FRONT_SUBSETS.tolist():
        front_mask = sum(1 << p for p in front)
        rest = [p for p in range(13) if not front_mask >> p & 1]
        kept_front = bin(front_mask & laid_masks[0]).count("1")
        for middle in combinations(rest, 5):
            middle_mask = sum(1 << p for p in middle)
            back_mask = full ^ front_mask ^ middle_mask
            fronts.append(front_ids[front_mask])
            middles.append(five_ids[middle_mask])
            backs.append(five_ids[back_mask])
            moves.append(13 - kept_front - bin(middle_mask & laid_masks[1]).count("1")
                         - bin(back_mask & laid_masks[2]).count("1"))
    order = np.argsort(np.array(moves), kind="stable")
    sorted_moves = np.array(moves, dtype=np.int64)[order]
    group_ends = {int(k): int(np.searchsorted(sorted_moves, k, side="right")) for k in np.unique(sorted_moves)}
    return SplitTable(np.array(fronts)[order], np.array(middles)[order], np.array(backs)[order],
                      sorted_moves, group_ends)


def subset_strengths(laid_cards: np.ndarray, wheel_second: bool) -> tuple[np.ndarray, np.ndarray]:
    """(strength of every 3-card subset, of every 5-card subset) of the 13 laid card ints, as int64."""
    return (evaluate_three_batch(laid_cards[FRONT_SUBSETS]).astype(np.int64),
            evaluate_five_batch(laid_cards[FIVE_SUBSETS], wheel_second).astype(np.int64))
