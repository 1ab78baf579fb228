"""A table hand short of 13 cards filled from the marks the loose read left out as unsure, as the single-hand reading
fills a short hand (vision.results): the surest that lie with the hand, flagged `low confidence` in its warnings."""
from __future__ import annotations

import numpy as np

from vision.cards import (EXPECTED_CARDS, SEPARATE_CORNER_OVERLAP, Card, merge_indices, overlap_share, same_card,
                          same_index)
from vision.results import FILL_MIN_CONFIDENCE, ReadResult


def unsure_cards(result: ReadResult) -> list[Card]:
    """The cards of the read's left-out named readings (none on an index a kept card shows, none of a code kept),
    surest first, down to FILL_MIN_CONFIDENCE."""
    kept = [index for card in result.cards for index in card.indices]
    held = {card.code for card in result.cards}
    left_out = [r for r in result.readings if not r.unnamed and r.code not in held
                and not any(same_index(r, other) for other in kept)]
    cards, _ = merge_indices(left_out)
    return sorted((c for c in cards if c.confidence >= FILL_MIN_CONFIDENCE), key=lambda c: -c.confidence)


def other_marks(result: ReadResult, spares: list[Card]) -> list[Card]:
    """The read's other left-out marks, none on an index a kept card or a spare shows: boxes the classifier left
    unnamed (none of a code named within a card's reach: that card's other corner, as vision.results), names under
    FILL_MIN_CONFIDENCE, codes a kept card holds elsewhere. They fill nothing; the Big Two seat they lie with is warned
    of them (a box seen there that none of its cards accounts for: a card hidden under the others)."""
    shown = [index for card in result.cards + spares for index in card.indices]
    named = [r for r in result.readings if not r.unnamed]
    left_out = [r for r in result.readings if not any(same_index(r, other) for other in shown)
                and not (r.unnamed and any(other.code == r.code and same_card(r, other) for other in named))]
    marks: list[Card] = []
    for code in sorted({r.code for r in left_out}):  # by code, as merge_indices, but the unnamed apart from the named
        for unnamed in (False, True):
            marks += merge_indices([r for r in left_out if r.code == code and r.unnamed == unnamed])[0]
    return sorted(marks, key=lambda c: -c.confidence)


def filled(groups: list[list[int]], cards: list[Card], centres: np.ndarray, sizes: np.ndarray, reach: list[float],
           spares: list[int]) -> list[list[int]]:
    """Each group (card positions) short of 13 with the spares (positions, surest first) that lie nearer to it than
    to any other group and within its `reach` (index sizes from its nearest card), repeating no code or index."""
    groups = [list(g) for g in groups]
    for spare in spares:
        nearest = nearest_group(groups, centres, sizes, reach, spare)
        if nearest is None or len(groups[nearest]) >= EXPECTED_CARDS:
            continue
        group = groups[nearest]
        taken = [cards[i] for g in groups for i in g]
        if any(cards[spare].code == other.code for other in taken):
            continue
        if any(overlap_share(a.box, b.box) > SEPARATE_CORNER_OVERLAP
               for other in taken for a in cards[spare].indices for b in other.indices):
            continue  # another name for an index already read
        group.append(spare)
    return groups


def nearest_group(groups: list[list[int]], centres: np.ndarray, sizes: np.ndarray, reach: list[float], card: int
                  ) -> int | None:
    """The group a card lies with: the nearest (by its nearest card, in the card's index sizes), if within its
    reach."""
    if not groups:
        return None
    distances = [float(np.min(np.linalg.norm(centres[g] - centres[card], axis=1)) / sizes[card]) for g in groups]
    nearest = int(np.argmin(distances))
    return nearest if distances[nearest] <= reach[nearest] else None
