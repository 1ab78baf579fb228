"""Where two corner-index classifiers fail on the same crops: the measure for a second classifier (session 54).

    PYTHONPATH=. python -m vision.training.classifier_agreement /work/data/detcrops-s50val/crops/val \
        models/cards_cls.onnx /work/cand/cls-s54scratch-last/cards_cls.onnx models/cards_cls_second.onnx

Every classifier after the first is compared with the first on the same crops (a folder of <class>/*.png, as the
crop tools write them): its top-1, the crops both name wrongly, the crops only one of them names wrongly, and the
top-1 of the two's mean probabilities. A second opinion or an ensemble helps only where the failures differ: session
51's classifiers, fine-tuned or distilled from the shipped one, share most of its failures; a classifier trained from
its own start shares far fewer (model card, Next 12). Each crop is named once, as cut, in batches (no quarter turns):
for how the reader itself names a crop folder, turns included, see vision.training.crop_naming.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import IndexClassifier, crops_to_input
from vision.crops import CLASS_NAMES, CROP_SIZE
from vision.errors import ModelError

BATCH = 512


@dataclass(frozen=True)
class Agreement:
    """Two classifiers on the same crops: each one's top-1 and where their failures meet."""
    first_top1: float
    other_top1: float
    both_wrong: int
    only_first_wrong: int
    only_other_wrong: int
    mean_top1: float


def load_crop_folder(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """The crops under folder/<class>/*.png as the classifier's input (N, 3, 48, 48) and their class indices (N,);
    folders not named after a class are skipped, and so are files that do not decode."""
    crops, truth = [], []
    for class_folder in sorted(p for p in folder.iterdir() if p.is_dir() and p.name in CLASS_NAMES):
        for file in sorted(class_folder.glob("*.png")):
            image = cv2.imread(str(file), cv2.IMREAD_COLOR)
            if image is not None:
                if image.shape != (CROP_SIZE, CROP_SIZE, 3):
                    raise ValueError(f"{file}: not a {CROP_SIZE}x{CROP_SIZE} colour crop")
                crops.append(image)
                truth.append(CLASS_NAMES.index(class_folder.name))
    if not crops:
        raise ValueError(f"no crops under {folder}/<class>/*.png")
    return crops_to_input(crops), np.array(truth)


def probabilities_as_cut(model: Path, batch: np.ndarray) -> np.ndarray:
    """The model's class probabilities for the input, in slices of BATCH crops (no quarter turns: the crops as cut).
    The model is loaded as the reader loads it, so a file with another class order is refused (ModelError)."""
    classifier = IndexClassifier(model)
    return np.concatenate([classifier.probabilities_as_cut(batch[i:i + BATCH]) for i in range(0, len(batch), BATCH)])


def agreement(truth: np.ndarray, first: np.ndarray, other: np.ndarray) -> Agreement:
    """How two classifiers' probabilities (N, classes) on the same crops fail against the truth (N,)."""
    first_wrong, other_wrong = first.argmax(axis=1) != truth, other.argmax(axis=1) != truth
    return Agreement(
        first_top1=float(np.mean(~first_wrong)), other_top1=float(np.mean(~other_wrong)),
        both_wrong=int(np.sum(first_wrong & other_wrong)), only_first_wrong=int(np.sum(first_wrong & ~other_wrong)),
        only_other_wrong=int(np.sum(~first_wrong & other_wrong)),
        mean_top1=float(np.mean((first + other).argmax(axis=1) == truth)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.classifier_agreement",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("crops", type=Path, help="folder of <class>/*.png crops (e.g. a crop set's val/)")
    parser.add_argument("first", type=Path, help="classifier ONNX the others are compared with")
    parser.add_argument("others", type=Path, nargs="+", help="classifier ONNX files")
    args = parser.parse_args(argv)
    try:
        batch, truth = load_crop_folder(args.crops)
        first = probabilities_as_cut(args.first, batch)
        print(f"{args.first}: top-1 {np.mean(first.argmax(axis=1) == truth):.4f} on {len(truth)} crops")
        for model in args.others:
            result = agreement(truth, first, probabilities_as_cut(model, batch))
            print(f"{model}: top-1 {result.other_top1:.4f}; both wrong {result.both_wrong}, only the first "
                  f"{result.only_first_wrong}, only this {result.only_other_wrong}; the two's mean "
                  f"{result.mean_top1:.4f}")
    except (OSError, ValueError, ModelError) as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
