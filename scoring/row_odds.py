"""How often a row beats a random row of its size: the strength measure legal_fix breaks ties with.

For every row strength, the share of all C(52,5) = 2,598,960 five-card rows (or C(52,3) = 22,100
fronts) it beats, ties counting half, as an int in units of 1 / ODDS_SCALE so that sums compare
exactly.  Counted from rank multisets (each has prod C(4, count) suit choices, 4 of them flushes when
the ranks differ), so building a table takes milliseconds.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod

import numpy as np

from .evaluate import strength_of_ranks

ODDS_SCALE = 1 << 32
FIVE_ROWS, THREE_ROWS = comb(52, 5), comb(52, 3)


def _counts_by_strength(size: int, wheel_second: bool, wheel_straight: bool = True) -> dict[int, int]:
    """Strength -> how many of the C(52, size) rows have it (wheel_straight=False: deuce-to-seven's reading)."""
    counts: dict[int, int] = {}
    for strength, (ranks, flush) in rank_shapes(size, wheel_second, wheel_straight).items():
        per_rank = [ranks.count(rank) for rank in set(ranks)]
        if flush:
            counts[strength] = 4
        else:
            counts[strength] = prod(comb(4, count) for count in per_rank) - (4 if size == 5 and len(per_rank) == 5
                                                                              else 0)
    return counts


@lru_cache(maxsize=None)
def rank_shapes(size: int, wheel_second: bool = False, wheel_straight: bool = True) -> dict[int, tuple]:
    """Strength -> (its rank multiset as a sorted tuple of indices 0..12, whether it is a flush): which
    cards a row of that strength holds, up to suits (the advisor's card removal reads it)."""
    shapes: dict[int, tuple] = {}
    for ranks in combinations_with_replacement(range(13), size):
        per_rank = [ranks.count(rank) for rank in set(ranks)]
        if max(per_rank) > 4:
            continue
        shapes[strength_of_ranks(ranks, False, wheel_second, wheel_straight)] = (ranks, False)
        if size == 5 and len(per_rank) == 5:
            shapes[strength_of_ranks(ranks, True, wheel_second, wheel_straight)] = (ranks, True)
    return shapes


@lru_cache(maxsize=None)
def odds_table(size: int, wheel_second: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(every strength a row of ``size`` cards can have, ascending; its odds of beating a random row)."""
    counts = _counts_by_strength(size, wheel_second and size == 5)
    strengths = np.array(sorted(counts), dtype=np.int64)
    equal = np.array([counts[s] for s in strengths.tolist()], dtype=np.int64)
    below = np.cumsum(equal) - equal
    total = FIVE_ROWS if size == 5 else THREE_ROWS
    assert int(equal.sum()) == total
    return strengths, (2 * below + equal) * ODDS_SCALE // (2 * total)


def win_odds(strengths: np.ndarray, size: int, wheel_second: bool = False) -> np.ndarray:
    """Odds (in 1 / ODDS_SCALE) that rows of these strengths beat a random row of ``size`` cards."""
    known, odds = odds_table(size, wheel_second)
    return odds[np.searchsorted(known, strengths)]
