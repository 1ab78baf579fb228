"""Mine classifier crops from labelled real single-card photos (hard examples the generator cannot make).

    PYTHONPATH=. python -m vision.training.real_crops --photos ../shared/dev-photos --subfolder webcam-singles \
        --out /work/data/real-v1

For each photo (one known card): the shipped detector runs at several sizes and the shipped classifier
names every box. A box becomes a crop of the photo's card when the classifier already half-agrees (the
right rank or the right suit on top, the right card in its top five): real blur, glare and print that the
synthetic decks lack. Other boxes are skipped. (Mining them as `none` was tried: a look at the crops found
real indices among them, misread too badly to qualify, and rank glyphs cut from their suit, so `none`
comes from the generator only.)
Photos are split by their number (`<code>_<nn>.jpg`, vision.evaluation.datasets.is_heldout_webcam: every
4th goes to val), so val photos are unseen photos of the same deck, and the evaluation reads only those. Crops go to <out>/crops/{train,val}/<class>/ (outside the repository:
the dev photos must not be copied into the project).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CLASS_NAMES, NONE_CLASS, index_crop
from vision.decode import decode_photo
from vision.evaluation.datasets import WEBCAM_HELDOUT_EVERY, is_heldout_webcam
from vision.reader import CardReader
from vision.reader_config import CROP_SOURCE_LONG_SIDE

SIZES = (640, 320, 192)
TOP_K = 5
MIN_TRUTH_PROBABILITY = 0.05


def label_boxes(probs: np.ndarray, truth: str) -> list[str | None]:
    """Per box: the photo's card when the classifier half-agrees with it (module docstring), else None."""
    t = CLASS_NAMES.index(truth)
    labels: list[str | None] = []
    for prob in probs:
        name = CLASS_NAMES[int(np.argmax(prob))]
        half_agrees = name != NONE_CLASS and (name[0] == truth[0] or name[1] == truth[1])
        top = np.argsort(-prob)[:TOP_K]
        labels.append(truth if half_agrees and t in top and prob[t] >= MIN_TRUTH_PROBABILITY else None)
    return labels


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--photos", type=Path, required=True,
                   help="dev-photos folder with labels.json: 'subfolder/file' -> [code]")
    p.add_argument("--subfolder", default="webcam-singles", help="only photos of this subfolder")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    labels = json.loads((args.photos / "labels.json").read_text())
    reader = CardReader()
    counts: dict[str, dict[str, int]] = {"train": {}, "val": {}}
    for name, codes in sorted(labels.items()):
        if not name.startswith(args.subfolder + "/"):
            continue
        if len(codes) != 1:
            continue
        split = "val" if is_heldout_webcam(name) else "train"
        photo = decode_photo((args.photos / name).read_bytes(), min_long_side=CROP_SOURCE_LONG_SIDE)
        for size in SIZES:
            boxes, _ = reader.detector.detect(photo.image, size)
            if not len(boxes):
                continue
            probs = reader.classifier.probabilities(photo.image, boxes)
            for i, label in enumerate(label_boxes(probs, codes[0])):
                if label is None:
                    continue
                folder = args.out / "crops" / split / label
                folder.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(folder / f"{Path(name).stem}_{size}_{i}.png"), index_crop(photo.image, boxes[i]))
                counts[split][label] = counts[split].get(label, 0) + 1
    summary = {split: sum(c.values()) for split, c in counts.items()}
    (args.out / "manifest.json").write_text(json.dumps(
        {"photos": str(args.photos), "val_every": WEBCAM_HELDOUT_EVERY, "counts": counts, "summary": summary}, indent=1))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
