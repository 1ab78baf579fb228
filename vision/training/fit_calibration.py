"""Fit the reader's confidence calibration (vision.sureness) on the cards of `vision evaluate` runs and choose the
sure threshold (issue 66).

    .venv/bin/python -m vision.training.fit_calibration EVAL_DIR [EVAL_DIR …] [--out models/cards_calibration.json]

Each EVAL_DIR holds a cards.json written by `vision evaluate` (every card read: confidence, corners, right, doubted).
Only the cards of photos in the "fit" half (vision.evaluation.sureness_figures.calibration_half) are fitted on; the
held-out half is reported. The fit is Platt's scaling: logit(chance) = a · logit(confidence) + b(corners), one slope
and an offset for cards read from one corner and from two, by logistic regression with Platt's targets (a right card
counts (N₊ + 1) / (N₊ + 2) right, a wrong one 1 / (N₋ + 2)), so that few wrong cards seen never means none possible.
Three numbers, not a step function: the dev photos hold a handful of wrong cards, and isotonic regression on them
jumped from 0.86 to 0.999 at one confidence. The curve is shipped sampled as tables (vision.sureness.Calibration).
The threshold
printed is the lowest chance at which no fit-half card of a real set as taken and at most 1 in 2,000 of a rendered set
or a made view would be wrong and sure; set it as vision.sureness.SURE_CHANCE."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from vision.evaluation.sureness_figures import FIT, HELD_OUT, CardRecord, calibration_half
from vision.sureness import Calibration

RENDERED_WRONG_SURE_PER_CARD = 1 / 2000  # the most wrong-and-sure a rendered set may have (real sets: none)


TABLE_CONFIDENCES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995,
                     0.998, 0.999, 0.9995, 0.9999, 1.0)
LOGIT_LIMIT = 1e-5  # confidences are clipped this far from 0 and 1 before their logit is taken


def logit(values: np.ndarray) -> np.ndarray:
    clipped = np.clip(values, LOGIT_LIMIT, 1 - LOGIT_LIMIT)
    return np.log(clipped / (1 - clipped))


def platt(records: list[CardRecord], steps: int = 50) -> tuple[float, float, float]:
    """(slope, offset for one corner, offset for two) fitted by Newton's method on the records (a tiny ridge keeps
    a group without wrong cards finite)."""
    x = logit(np.array([r.confidence for r in records]))
    two = np.array([r.corners >= 2 for r in records], np.float64)
    features = np.stack([x, 1 - two, two], axis=1)
    right = np.array([r.right for r in records], bool)
    positives, negatives = right.sum(), (~right).sum()
    target = np.where(right, (positives + 1) / (positives + 2), 1 / (negatives + 2))
    weights = np.array([1.0, 0.0, 0.0])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-features @ weights))
        gradient = features.T @ (p - target) + 1e-3 * weights
        hessian = (features * (p * (1 - p))[:, None]).T @ features + 1e-3 * np.eye(3)
        weights -= np.linalg.solve(hessian, gradient)
    return float(weights[0]), float(weights[1]), float(weights[2])


def fit(records: list[CardRecord]) -> Calibration:
    """The Platt curve of the records sampled at TABLE_CONFIDENCES, per corner count."""
    slope, one, two = platt(records)
    confidences = np.array(TABLE_CONFIDENCES)
    return Calibration({corners: (TABLE_CONFIDENCES, tuple(round(float(v), 6) for v in
                                                           1 / (1 + np.exp(-(slope * logit(confidences) + offset)))))
                        for corners, offset in ((1, one), (2, two))})


def wrong_sure(records: list[CardRecord], calibration: Calibration, threshold: float, min_confidence: float) -> int:
    """The wrong cards the threshold would mark sure, the consistency checks left aside (they only ever take sureness
    away, and a threshold that needs them would trust checks tuned on these very photos)."""
    return sum(not r.right and r.confidence >= min_confidence
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
    """Rendered sets and the made views of real photos (steep, blurred, ...) may have 1 in 2,000 wrong and sure; the
    real dev photos as taken none."""
    return not set_name.startswith("real") or " in " in set_name


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
            sets.setdefault(name, []).extend(r for r in records if r not in sets.get(name, []))  # runs may overlap
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
