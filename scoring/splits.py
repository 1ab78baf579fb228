"""Every way to split 13 laid cards into front / middle / back, as positions, ordered by cards moved.

Positions 0-2 are the laid front, 3-7 the laid middle, 8-12 the laid back.  A split is a row of
subset ids (into FRONT_SUBSETS / FIVE_SUBSETS) plus how many cards it moves: a card is moved when it
ends in another row than the one it was laid in.  Built once (numpy, a few ms) and shared.
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
_FIVE_OF_TEN = np.array(list(combinations(range(10), 5)), dtype=np.int64)    # 252 x 5: middles of the rest


def _subset_ids(subsets: np.ndarray) -> np.ndarray:
    """Bit mask of a subset's positions -> its row in ``subsets`` (-1 for masks of other sizes)."""
    ids = np.full(1 << 13, -1, dtype=np.int64)
    ids[(np.int64(1) << subsets).sum(axis=1)] = np.arange(len(subsets))
    return ids


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
    bits = np.int64(1) << np.arange(13, dtype=np.int64)
    laid_masks = [int(bits[list(row)].sum()) for row in ROW_POSITIONS]
    front_masks = bits[FRONT_SUBSETS].sum(axis=1)                                  # (286,)
    rest = np.array([[p for p in range(13) if not mask >> p & 1] for mask in front_masks.tolist()])
    middle_masks = bits[rest[:, _FIVE_OF_TEN]].sum(axis=2)                         # (286, 252)
    back_masks = ((1 << 13) - 1) ^ front_masks[:, None] ^ middle_masks
    front_masks = np.broadcast_to(front_masks[:, None], middle_masks.shape)
    moves = 13 - sum(_popcount(masks & laid) for masks, laid in
                     zip((front_masks, middle_masks, back_masks), laid_masks))
    order = np.argsort(moves.ravel(), kind="stable")
    sorted_moves = moves.ravel()[order]
    group_ends = {int(k): int(np.searchsorted(sorted_moves, k, side="right")) for k in np.unique(sorted_moves)}
    front_ids, five_ids = _subset_ids(FRONT_SUBSETS), _subset_ids(FIVE_SUBSETS)
    return SplitTable(front_ids[front_masks.ravel()[order]], five_ids[middle_masks.ravel()[order]],
                      five_ids[back_masks.ravel()[order]], sorted_moves, group_ends)


def _popcount(masks: np.ndarray) -> np.ndarray:
    return ((masks[..., None] >> np.arange(13)) & 1).sum(axis=-1)


def subset_strengths(laid_cards: np.ndarray, wheel_second: bool) -> tuple[np.ndarray, np.ndarray]:
    """(strength of every 3-card subset, of every 5-card subset) of the 13 laid card ints, as int64."""
    return (evaluate_three_batch(laid_cards[FRONT_SUBSETS]).astype(np.int64),
            evaluate_five_batch(laid_cards[FIVE_SUBSETS], wheel_second).astype(np.int64))
