"""How the reader's classifier names a folder of labelled crops (<folder>/<class>/*.png, as the generator and
vision.training.detector_box_crops write them): per kind (cards, `none`) the share named right and the share named
wrongly yet surely (top probability >= the reader's MIN_CARD_CONFIDENCE), the reads a player would not be warned of.

    PYTHONPATH=. python -m vision.training.crop_naming --models models --crops /work/data/detcrops-s17/crops/val

The crops are named as the reader names its crops (vision.classifier, with its rotation vote for unsure ones).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import IndexClassifier
from vision.crops import CLASS_NAMES, CROP_SCALE, CROP_SIZE, NONE_CLASS
from vision.reader import CLASSIFIER_FILE, MODELS_DIR
from vision.results import MIN_CARD_CONFIDENCE

_HALF = CROP_SIZE / 2 / CROP_SCALE
WHOLE_CROP_BOX = np.array([[CROP_SIZE / 2 - _HALF, CROP_SIZE / 2 - _HALF, CROP_SIZE / 2 + _HALF,
                            CROP_SIZE / 2 + _HALF]])  # index_crop of this box is the crop itself


def crop_naming(classifier: IndexClassifier, folder: Path, sure: float = MIN_CARD_CONFIDENCE) -> dict[str, dict]:
    """{"cards": {...}, "none": {...}}, each with crops, right, wrong_and_sure (shares of its crops)."""
    tally = {kind: {"crops": 0, "right": 0, "wrong_and_sure": 0} for kind in ("cards", NONE_CLASS)}
    for label, name in enumerate(CLASS_NAMES):
        files = sorted((folder / name).glob("*.png"))
        kind = tally[NONE_CLASS if name == NONE_CLASS else "cards"]
        for path in files:
            crop = cv2.imread(str(path))
            if crop is None or crop.shape != (CROP_SIZE, CROP_SIZE, 3):
                raise ValueError(f"{path}: not a {CROP_SIZE}x{CROP_SIZE} colour crop")
            prob = classifier.probabilities(crop, WHOLE_CROP_BOX)[0]
            top = int(np.argmax(prob))
            kind["crops"] += 1
            kind["right"] += top == label
            kind["wrong_and_sure"] += top != label and prob[top] >= sure
    return {kind: {"crops": t["crops"], "right": t["right"] / max(t["crops"], 1),
                   "wrong_and_sure": t["wrong_and_sure"] / max(t["crops"], 1)} for kind, t in tally.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", type=Path, default=MODELS_DIR, help=f"folder with the classifier ({CLASSIFIER_FILE})")
    p.add_argument("--crops", type=Path, required=True, help="folder with one subfolder of PNG crops per class")
    p.add_argument("--sure", type=float, default=MIN_CARD_CONFIDENCE, help="a top probability this high is sure")
    args = p.parse_args(argv)
    if not args.crops.is_dir():
        p.error(f"no crops folder {args.crops}")
    figures = crop_naming(IndexClassifier(args.models / CLASSIFIER_FILE), args.crops, args.sure)
    for kind, f in figures.items():
        print(f"{kind}: {f['crops']} crops, named right {f['right']:.3f}, "
              f"named wrongly with >= {args.sure} {f['wrong_and_sure']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
