"""怪物牌 among the cards left (seed 003 line 164): four of a kind (鐵支) or a straight flush (同花順).

Straights are the set the seed's Hong Kong list gives (lines 48-50; lines 61-76 order the same set
differently): A2345, 23456, 34567 ... TJQKA; JQKA2, QKA23 and KA234 are no straights.  (Some Taiwan tables
allow JQKA2, line 80; it is not counted here.)
"""

from __future__ import annotations

from collections import Counter

from ..cards import rank_of, suit_of

# Rank indices in scoring.cards: 0 = 2, 1 = 3, ..., 12 = A.  A straight's ranks, lowest first.
STRAIGHTS = tuple(frozenset({12, 0, 1, 2, 3}) if low == -1 else frozenset(range(low, low + 5))
                  for low in range(-1, 9))


def monster_hands(cards: tuple[int, ...]) -> list[str]:
    """Which monster hands the cards hold: 'four-of-a-kind', 'straight-flush' (each once at most)."""
    found = []
    if any(count == 4 for count in Counter(map(rank_of, cards)).values()):
        found.append("four-of-a-kind")
    by_suit: dict[int, set[int]] = {}
    for card in cards:
        by_suit.setdefault(suit_of(card), set()).add(rank_of(card))
    if any(straight <= ranks for ranks in by_suit.values() for straight in STRAIGHTS):
        found.append("straight-flush")
    return found
