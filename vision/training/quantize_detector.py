"""Static int8 quantisation of the detector's backbone and neck, the detection head kept in float.

    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.quantize_detector \
        --model models/cards.onnx --out /work/runs/cards-int8.onnx \
        --calibration /work/data/synth-v2/detect/images/val --images 96 [--photos /work/data/synth-v4/photos/val]

Quantising the whole graph destroyed the detector (session 1: mAP50 0.37 -> 0.00): the head concatenates box
coordinates in input pixels with 0-1 scores, which one int8 scale cannot hold. So every node of the head (the
ultralytics Detect module, named /model.<last>/...) stays float; convolutions before it get per-channel int8
weights and int8 activations (QDQ), calibrated on detector tiles and photos letterboxed as the reader does.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.detector import letterbox, to_network_input
from vision.training.int8 import quantize_qdq


def head_prefix(node_names: list[str]) -> str:
    """Name prefix of the detection head: the highest-numbered /model.N/ module."""
    numbers = [int(m.group(1)) for name in node_names if (m := re.match(r"/model\.(\d+)/", name))]
    if not numbers:
        raise ValueError("no /model.N/ nodes: not an ultralytics YOLO export")
    return f"/model.{max(numbers)}/"


def calibration_inputs(tiles: list[Path], photos: list[Path], photo_side: int) -> list[np.ndarray]:
    """Network inputs: tiles as they are (the training size), photos letterboxed to `photo_side`."""
    inputs = []
    for path in tiles:
        image = cv2.imread(str(path))
        if image is not None:
            inputs.append(to_network_input(letterbox(image, max(image.shape[:2]))[0]))
    for path in photos:
        image = cv2.imread(str(path))
        if image is not None:
            inputs.append(to_network_input(letterbox(image, photo_side)[0]))
    return inputs


def quantize(model: Path, out: Path, inputs: list[np.ndarray]) -> list[str]:
    """Write the int8 model; returns the names of the nodes kept in float."""
    def head_nodes(names: list[str]) -> list[str]:
        prefix = head_prefix(names)
        return [name for name in names if name.startswith(prefix)]

    return quantize_qdq(model, out, inputs, activations_signed=False, skip_symbolic_shape=True, kept_float=head_nodes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.quantize_detector", description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--calibration", type=Path, required=True, help="folder of detector tiles (jpg/png)")
    parser.add_argument("--images", type=int, default=96, help="tiles used (evenly spaced)")
    parser.add_argument("--photos", type=Path, help="folder of photos, letterboxed to --photo-side")
    parser.add_argument("--photo-count", type=int, default=16)
    parser.add_argument("--photo-side", type=int, default=640)
    args = parser.parse_args(argv)
    tiles = sorted(p for p in args.calibration.iterdir() if p.suffix.lower() in (".jpg", ".png"))
    tiles = tiles[::max(1, len(tiles) // args.images)][:args.images]
    photos = sorted(args.photos.glob("*.jpg"))[:args.photo_count] if args.photos else []
    inputs = calibration_inputs(tiles, photos, args.photo_side)
    if not inputs:
        print("no calibration images found", file=sys.stderr)
        return 2
    kept = quantize(args.model, args.out, inputs)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) from {len(inputs)} calibration inputs; "
          f"{len(kept)} head nodes kept in float")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
