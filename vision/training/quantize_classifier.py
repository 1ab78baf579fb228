"""Static int8 quantisation of a corner-index classifier: the second opinion shipped beside the pair (session 53).

    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.quantize_classifier \
        --model /work/cand/cls-s51kd-last/cards_cls.onnx --out models/cards_cls_second.onnx \
        --crops /work/data/detcrops-s50-4ca/crops/train --crops /work/data/detcrops-s50-4cb/crops/train \
        --crops /work/data/detcrops-s50new/crops/train --crops /work/data/detcrops-s50old/crops/train \
        --per-folder 200 --seed 53

Per-channel int8 weights and int8 activations (QDQ), calibrated on crops of train decks (the val decks stay unseen);
the float model's metadata (its class order, which vision.classifier checks) is kept by ONNX Runtime's pre-processing
(a test checks it). Session 51's width-40
classifier: 3.26 MB float, 0.85 MB int8, naming 3,000 val-deck crops as the float model does 98.8 % of the time.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import crops_to_input
from vision.training.int8 import quantize_qdq

BATCH = 32


def sample_crops(folders: list[Path], per_folder: int, seed: int) -> list[Path]:
    """Up to `per_folder` crop images (png) from each folder and its subfolders, drawn by one generator."""
    rng = random.Random(seed)
    chosen: list[Path] = []
    for folder in folders:
        files = sorted(folder.rglob("*.png"))
        chosen += rng.sample(files, min(per_folder, len(files)))
    return chosen


def calibration_batches(paths: list[Path], batch: int = BATCH) -> list[np.ndarray]:
    """The crops as the classifier's input, `batch` at a time; files that do not decode are skipped."""
    crops = [image for image in (cv2.imread(str(p), cv2.IMREAD_COLOR) for p in paths) if image is not None]
    return [crops_to_input(crops[i:i + batch]) for i in range(0, len(crops), batch)]


def quantize(model: Path, out: Path, batches: list[np.ndarray]) -> None:
    """Write the int8 model (the float model's metadata comes through ONNX Runtime's pre-processing)."""
    quantize_qdq(model, out, batches, activations_signed=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.quantize_classifier",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--crops", type=Path, action="append", required=True,
                        help="folder of train-deck crops (png, any depth); repeat for several")
    parser.add_argument("--per-folder", type=int, default=200)
    parser.add_argument("--seed", type=int, default=53)
    args = parser.parse_args(argv)
    batches = calibration_batches(sample_crops(args.crops, args.per_folder, args.seed))
    if not batches:
        print("no calibration crops found", file=sys.stderr)
        return 2
    quantize(args.model, args.out, batches)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) from {sum(len(b) for b in batches)} crops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
