"""A deliberately naive poker-row ranker, written from the rules text, used as an oracle in tests."""

from __future__ import annotations

from collections import Counter

RANKS = "23456789TJQKA"


def reference_rank(cards: list[str], wheel_second: bool = False) -> tuple:
    """(category, [ranks in significance order]) for a 3- or 5-card row of canonical codes.

    Categories: 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
    7 quads, 8 straight flush.  A 3-card front only makes 0, 1 or 3, and its shorter rank list
    compares lower when it is a prefix of a middle's (Python list order does exactly that).
    """
    values = sorted((RANKS.index(card[0]) + 2 for card in cards), reverse=True)
    counts = Counter(values)
    ordered = [rank for rank, _ in sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)]
    shape = sorted(counts.values(), reverse=True)
    if len(cards) == 3:
        return ({(1, 1, 1): 0, (2, 1): 1, (3,): 3}[tuple(shape)], ordered)
    flush = len({card[1] for card in cards}) == 1
    wheel = values == [14, 5, 4, 3, 2]
    straight = len(counts) == 5 and (values[0] - values[4] == 4 or wheel)
    if straight:
        high = [5] if wheel else [values[0]]
        if wheel and wheel_second:
            high = [13.5]
        return (8 if flush else 4, high)
    if flush:
        return (5, ordered)
    category = {(2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6, (4, 1): 7, (1, 1, 1, 1, 1): 0}[tuple(shape)]
    return (category, ordered)


def reference_fouled(front: list[str], middle: list[str], back: list[str], strict: bool) -> bool:
    """Whether a hand breaks front < middle < back (or front < middle <= back when not strict)."""
    f, m, b = reference_rank(front), reference_rank(middle), reference_rank(back)
    return not (f < m and (m < b if strict else m <= b))
