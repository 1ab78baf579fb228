"""Fusing card indices found at several detector input sizes (a close-up, or cards at mixed distances).

At a size where an index is bigger than the detector was trained for, it fires on parts of the card
(pips, glyphs, face-card art) that the classifier sometimes names with fair confidence; at a smaller size
the same card's real indices are found and named surely. Fusion keeps the most probable readings first and
drops a reading that repeats a kept one (the same index found at another size) or that is much smaller and
lies on the face of a card whose kept index is bigger (a part of that card).
"""
from __future__ import annotations

import numpy as np

from vision.cards import IndexReading

SAME_INDEX_SHARE = 0.5  # share of the smaller box inside the other: the same index at another size
PART_SIZE_RATIO = 0.6  # a reading this much smaller than a kept one near it ...
CARD_REACH = 5.0  # ... within this many of the kept index's sizes (about a card) is a part of that card


def _inside_share(a: IndexReading, b: IndexReading) -> float:
    """Share of the smaller of the two boxes that lies inside the other."""
    w = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    h = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    if w <= 0 or h <= 0:
        return 0.0
    area = min((a.box[2] - a.box[0]) * (a.box[3] - a.box[1]), (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]))
    return w * h / max(area, 1e-9)


def _part_of(small: IndexReading, big: IndexReading) -> bool:
    if small.size > PART_SIZE_RATIO * big.size:
        return False
    distance = float(np.hypot(small.centre[0] - big.centre[0], small.centre[1] - big.centre[1]))
    return distance <= CARD_REACH * big.size


def fuse_sizes(readings_by_size: list[list[IndexReading]]) -> list[IndexReading]:
    """One list of readings out of the readings found at each size (see the module docstring)."""
    kept: list[IndexReading] = []
    for reading in sorted((r for readings in readings_by_size for r in readings), key=lambda r: -r.probability):
        if any(_inside_share(reading, k) > SAME_INDEX_SHARE or _part_of(reading, k) for k in kept):
            continue
        kept.append(reading)
    return kept
