"""Per-card figures of the reader's `sure` flag and calibrated chance (issue 66): each card read is a record
(its chance, whether sure, whether right); a set reports its wrong cards marked sure, the expected calibration error
and a reliability table. The dev photos are split in two halves by name (calibration_half): the calibration is fitted
on the "fit" half only (vision.training.fit_calibration), and the figures are given on the "held out" half too."""
from __future__ import annotations

import zlib
from dataclasses import dataclass

from vision.cards import Card

# Reliability bins over the chance: most cards are read at 0.95 or more, so the top is split finely.
BIN_EDGES = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 1.0)
FIT, HELD_OUT = "fit", "held out"


def calibration_half(name: str) -> str:
    """FIT or HELD_OUT, fixed by the photo's name (CRC-32, not Python's salted hash): the calibration never sees the
    held-out half."""
    return FIT if zlib.crc32(name.encode()) % 2 == 0 else HELD_OUT


@dataclass(frozen=True)
class CardRecord:
    photo: str  # the photo's name (and view), which fixes its calibration half
    confidence: float
    corners: int
    chance: float
    sure: bool
    right: bool
    doubted: bool  # a consistency check failed (vision.checks, the second classifier)

    def to_json(self) -> list:
        return [self.photo, round(self.confidence, 5), self.corners, round(self.chance, 5), self.sure, self.right,
                self.doubted]


def record(photo: str, card: Card, right: bool) -> CardRecord:
    chance = card.chance if card.chance is not None else card.confidence
    return CardRecord(photo, card.confidence, len(card.separate_corners()), chance, bool(card.sure), right,
                      bool(card.doubts))


def rights_by_code(cards: list[Card], truth: dict[str, int]) -> list[bool]:
    """Whether each card is right against a multiset of true codes: the surest cards of a code take it first."""
    left = dict(truth)
    right = [False] * len(cards)
    for i in sorted(range(len(cards)), key=lambda i: -cards[i].confidence):
        if left.get(cards[i].code, 0) > 0:
            left[cards[i].code] -= 1
            right[i] = True
    return right


def _bin(chance: float) -> int:
    for i in range(len(BIN_EDGES) - 1):
        if chance < BIN_EDGES[i + 1]:
            return i
    return len(BIN_EDGES) - 2


def reliability(records: list[CardRecord]) -> list[tuple[str, int, float, float]]:
    """(bin, cards, mean chance, share right) for each bin with cards."""
    rows = []
    for i in range(len(BIN_EDGES) - 1):
        inside = [r for r in records if _bin(r.chance) == i]
        if inside:
            rows.append((f"{BIN_EDGES[i]:g}–{BIN_EDGES[i + 1]:g}", len(inside),
                         sum(r.chance for r in inside) / len(inside), sum(r.right for r in inside) / len(inside)))
    return rows


def expected_calibration_error(records: list[CardRecord]) -> float:
    """The cards' mean gap between chance and share right, bin by bin (BIN_EDGES), weighted by the bins' cards."""
    if not records:
        return float("nan")
    return sum(n * abs(chance - right) for _, n, chance, right in reliability(records)) / len(records)


def figures(records: list[CardRecord]) -> dict[str, float]:
    """The set's sureness figures for its report."""
    wrong_sure = sum(r.sure and not r.right for r in records)
    held_out = [r for r in records if calibration_half(r.photo) == HELD_OUT]
    return {"cards read": len(records),
            "cards marked sure (share of cards read)": sum(r.sure for r in records) / max(len(records), 1),
            "right cards marked sure (share of right cards)": sum(r.sure and r.right for r in records)
            / max(sum(r.right for r in records), 1),
            "wrong cards marked sure": wrong_sure,
            "wrong cards marked sure per 2,000 cards read": 2000 * wrong_sure / max(len(records), 1),
            "calibration error (ECE)": expected_calibration_error(records),
            "calibration error (ECE), held-out half": expected_calibration_error(held_out)}
