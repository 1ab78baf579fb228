"""Fit the reader's confidence calibration (vision.sureness) on the cards of `vision evaluate` runs and choose the
sure threshold (issue 66).

    .venv/bin/python -m vision.training.fit_calibration EVAL_DIR [EVAL_DIR …] [--out models/cards_calibration.json]

Each EVAL_DIR holds a cards.json written by `vision evaluate` (every card read: confidence, corners, right, doubted).
Only the cards of photos in the "fit" half (vision.evaluation.sureness_figures.calibration_half) are fitted on; the
held-out half is reported. Per number of corners read (1, or 2 and more) the share right is fitted to the confidence
by isotonic regression (pool adjacent violators), each block's share shrunk towards wrong by one card (a block of
500 right cards gives 500/501, never 1), so that few wrong cards seen never means none possible. The threshold
printed is the lowest chance at which no fit-half card of a real set and at most 1 in 2,000 of a rendered set would
be wrong and sure; set it as vision.sureness.SURE_CHANCE."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from vision.evaluation.sureness_figures import FIT, HELD_OUT, CardRecord, calibration_half
from vision.sureness import Calibration

RENDERED_WRONG_SURE_PER_CARD = 1 / 2000  # the most wrong-and-sure a rendered set may have (real sets: none)
SHRINK_CARDS = 1.0  # each block of the fit counts this many more cards, all wrong


def isotonic(values: np.ndarray, weights: np.ndarray) -> list[tuple[int, int, float, float]]:
    """Pool adjacent violators over values in their order: blocks (start, end, weighted mean, weight), means
    non-decreasing. (Thirty lines of NumPy rather than scikit-learn or SciPy for an offline fit of a few thousand
    points: neither is a dependency of the project.)"""
    blocks: list[list[float]] = []  # [start, end, sum, weight]
    for i, (value, weight) in enumerate(zip(values, weights)):
        blocks.append([i, i + 1, value * weight, weight])
        while len(blocks) > 1 and blocks[-2][2] / blocks[-2][3] >= blocks[-1][2] / blocks[-1][3]:
            last = blocks.pop()
            blocks[-1][1], blocks[-1][2], blocks[-1][3] = last[1], blocks[-1][2] + last[2], blocks[-1][3] + last[3]
    return [(int(a), int(b), total / weight, weight) for a, b, total, weight in blocks]


def fit_table(records: list[CardRecord]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(confidences, chances) of one corner count's records: each isotonic block's confidence range mapped to its
    share right (shrunk), points at both ends of a block so that a block is flat."""
    if not records:
        return (0.0, 1.0), (0.0, 1.0)
    ordered = sorted(records, key=lambda r: r.confidence)
    confidence = np.array([r.confidence for r in ordered])
    right = np.array([float(r.right) for r in ordered])
    xs: list[float] = [0.0]
    ys: list[float] = [0.0]
    for start, end, _, _ in isotonic(right, np.ones(len(right))):
        share = right[start:end].sum() / (end - start + SHRINK_CARDS)
        share = max(share, ys[-1])  # shrinking a small block may break the order: kept non-decreasing
        low, high = float(confidence[start]), float(confidence[end - 1])
        for x in (low, high):
            if x > xs[-1]:
                xs.append(x)
                ys.append(share)
            else:
                ys[-1] = max(ys[-1], share)
    if xs[-1] < 1.0:
        xs.append(1.0)
        ys.append(ys[-1])
    return tuple(round(x, 5) for x in xs), tuple(round(y, 5) for y in ys)


def fit(records: list[CardRecord]) -> Calibration:
    return Calibration({1: fit_table([r for r in records if r.corners <= 1]),
                        2: fit_table([r for r in records if r.corners >= 2])})


def wrong_sure(records: list[CardRecord], calibration: Calibration, threshold: float, min_confidence: float) -> int:
    return sum(not r.right and not r.doubted and r.confidence >= min_confidence
               and calibration.chance(r.confidence, r.corners) >= threshold for r in records)


def sure_threshold(sets: dict[str, list[CardRecord]], calibration: Calibration, min_confidence: float) -> float:
    """The lowest chance (0.5 to 0.999, steps of 0.001) that keeps wrong-and-sure within bounds on every set."""
    for threshold in (k / 1000 for k in range(500, 1000)):
        if all(wrong_sure(records, calibration, threshold, min_confidence)
               <= (RENDERED_WRONG_SURE_PER_CARD * len(records) if is_rendered(name) else 0)
               for name, records in sets.items()):
            return round(float(threshold), 3)
    return 1.0


def is_rendered(set_name: str) -> bool:
    return not set_name.startswith("real")


def load_records(folder: Path) -> dict[str, list[CardRecord]]:
    data = json.loads((folder / "cards.json").read_text())
    return {name: [CardRecord(*row) for row in rows] for name, rows in data.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("evaluations", nargs="+", type=Path, help="vision evaluate --out folders (cards.json)")
    parser.add_argument("--out", type=Path, default=Path("models/cards_calibration.json"))
    parser.add_argument("--min-card-confidence", type=float, default=0.7)
    args = parser.parse_args(argv)
    sets: dict[str, list[CardRecord]] = {}
    for folder in args.evaluations:
        for name, records in load_records(folder).items():
            sets.setdefault(name, []).extend(records)
    halves = {half: {name: [r for r in records if calibration_half(r.photo) == half] for name, records in sets.items()}
              for half in (FIT, HELD_OUT)}
    calibration = fit([r for records in halves[FIT].values() for r in records])
    threshold = sure_threshold(halves[FIT], calibration, args.min_card_confidence)
    args.out.write_text(json.dumps({
        "about": "vision.sureness: per corners read, the chance a card is right at each confidence (piecewise linear); "
                 "fitted by vision.training.fit_calibration on the fit half of: " + "; ".join(sorted(sets)),
        "sure_chance": threshold,
        "tables": {str(corners): {"confidence": list(xs), "chance": list(ys)}
                   for corners, (xs, ys) in calibration.tables.items()}}, indent=1) + "\n")
    print(f"calibration: {args.out}; sure threshold {threshold}")
    for half, by_set in halves.items():
        for name, records in by_set.items():
            print(f"{half:8} {name}: {len(records)} cards, {sum(not r.right for r in records)} wrong, "
                  f"{wrong_sure(records, calibration, threshold, args.min_card_confidence)} wrong and sure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
