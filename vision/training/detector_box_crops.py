"""Classifier crops cut where the detector puts its boxes, on synthetic photos of every kind (or the kinds asked for
with --photo-kinds, seen from the tilts asked for with --photo-elevation), a share of them blurred.

    PYTHONPATH=. python -m vision.training.detector_box_crops --out /work/data/detcrops-s17 --photos 1200 \
        --seed 17 --blur-share 0.6 [--models models] [--photo-kinds hand=3,rows=1] [--photo-elevation 30,55] \
        [--four-colour 0.5]

The generator's classifier crops (parts crops, photocrops) are cut at the labelled index boxes with a random jitter.
At run time the classifier is given the detector's boxes instead, and on blurred photos a newer detector finds
boxes the older classifier names wrongly (models/HISTORY.md@538d56c, session 16: extra boxes on blurred indices). Here each photo
(part photos' render of a train deck, or of a val deck for --split val) is blurred with `--blur-share` probability
as an unsteady phone blurs it (vision.degrade.unsteady_blur, by about as much of an index as the evaluation's blurred
dev photos), then the detector runs on the whole photo at each of the reader's sizes
(vision.reader: 640, 320, 192 and 1024; the closer look at a region is not repeated here). Every box becomes a
crop (vision.crops.index_crop, the reader's rule) labelled by the truth:
- the code of the visible index it covers (IoU >= MATCH_IOU with its box), or
- `none` when it touches no index at all, visible or covered (pips, art, table), at most NONE_PER_PHOTO a photo;
- anything between (a half-covered index, two indices in one box) is skipped: its right name is unclear;
- with --suit-hidden-none, `none` also for a box on an index whose suit band is covered (scene.SUIT_BAND, less than
  SUIT_HIDDEN of it uncovered), visible or not: the suit cannot be read there, so the classifier should not name one
  (session 21: a queen whose suit lay under the king was read 2H at 0.84).
Crops go to <out>/crops/<split>/<class>/ like the generator's, so train_classifier reads them with --crops.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.crops import CLASS_NAMES, NONE_CLASS, index_crop
from vision.degrade import unsteady_blur
from vision.detector import IndexDetector
from vision.evaluation.metrics import box_iou
from vision.looks import DETECTION_SIZES, LARGER_DETECTION_SIZE, MIN_BOX_SIDE
from vision.reader import DETECTOR_FILE, MODELS_DIR
from vision.synth.__main__ import parse_photo_kinds, train_and_val_decks
from vision.synth.decks import DECKS_BY_NAME, DEFAULT_VAL, installed_decks, render_all
from vision.synth.parts import worker
from vision.synth.parts.photos import ELEVATION, render_photo
from vision.synth.parts.worker import item_deck
from vision.synth.scene import VISIBLE_FRACTION, jpeg_roundtrip

MATCH_IOU = 0.4  # a box this close to a visible index is that index
SUIT_HIDDEN = 0.3  # an index whose suit band is less uncovered than this has no readable suit
NONE_MAX_IOU = 0.02  # a box overlapping no index more than this is not an index
NONE_PER_PHOTO = 8
# Blur as a share of the photo's median index size. The evaluation's blurred dev photos (vision.evaluation.views)
# blur by 0.004 (out of focus) and 0.015 (moved) of the long side, where their indices are about 0.05 of it: 0.08
# and 0.3 of an index. Blur scaled to the photo instead (part phototiles' ranges) wiped out the small indices of far
# layouts entirely (a look at the first crops: blobs without a glyph).
DEFOCUS_INDEX_SHARE = (0.03, 0.12)
MOTION_INDEX_SHARE = (0.1, 0.45)
SIZES = tuple(DETECTION_SIZES) + (LARGER_DETECTION_SIZE,)
RNG_KEY = 17  # this tool's key in an item's random stream, apart from the generator's parts (synth.parts.worker)


class IndexTruth(NamedTuple):
    code: str
    box: tuple[float, float, float, float]
    visible: bool  # uncovered enough to be labelled (scene.VISIBLE_FRACTION)
    suit_hidden: bool = False  # its suit band is covered (SUIT_HIDDEN)


def label_detections(boxes: np.ndarray, truth: list[IndexTruth], suit_hidden_none: bool = False
                     ) -> list[str | None]:
    """Per detector box: the code of the visible index it covers, `none` when it touches no index (visible or
    not) or, with suit_hidden_none, when it covers an index whose suit is hidden; else None (skip)."""
    if len(boxes) == 0:
        return []
    if not truth:
        return [NONE_CLASS] * len(boxes)
    iou = box_iou(boxes, np.array([t[1] for t in truth], np.float64))
    labels: list[str | None] = []
    for row in iou:
        best = int(np.argmax(row))
        if row[best] >= MATCH_IOU and suit_hidden_none and truth[best].suit_hidden:
            labels.append(NONE_CLASS)
        elif row[best] >= MATCH_IOU and truth[best].visible:
            labels.append(truth[best].code)
        elif row.max() <= NONE_MAX_IOU:
            labels.append(NONE_CLASS)
        else:
            labels.append(None)
    return labels


def photo_crops(image: np.ndarray, truth: list[IndexTruth], detector: IndexDetector, rng: np.random.Generator,
                suit_hidden_none: bool = False) -> list[tuple[str, np.ndarray]]:
    """(class, crop) of every box the detector finds at the reader's sizes, labelled by label_detections;
    `none` crops capped at NONE_PER_PHOTO, chosen at random."""
    named: list[tuple[str, np.ndarray]] = []
    none_boxes: list[np.ndarray] = []
    for size in SIZES:
        boxes, _ = detector.detect(image, size)
        for box, label in zip(boxes, label_detections(boxes, truth, suit_hidden_none)):
            if label is None or min(box[2] - box[0], box[3] - box[1]) < MIN_BOX_SIDE:
                continue
            if label == NONE_CLASS:
                none_boxes.append(box)
            else:
                named.append((label, index_crop(image, box)))
    chosen = rng.permutation(len(none_boxes))[:NONE_PER_PHOTO]
    return named + [(NONE_CLASS, index_crop(image, none_boxes[k])) for k in chosen]


def render(seed: int, split: str, item: int, blur_share: float
           ) -> tuple[np.ndarray, list[IndexTruth], np.random.Generator, str]:
    """A photo of part photos' kinds (or the run's --photo-kinds) of one of the split's decks (the deck of its block,
    as the generator picks it), maybe blurred, after a JPEG round trip; the truth of every index; the item's random
    stream; the photo's kind."""
    rng = np.random.default_rng([seed, RNG_KEY, 0 if split == "train" else 1, item])
    faces = item_deck("photos", split, item)
    image, sc, _, kind = render_photo(rng, faces, split)
    visible = sc.visible_labels()
    if rng.random() < blur_share and visible:
        index_px = float(np.median([max(lab.box[2] - lab.box[0], lab.box[3] - lab.box[1]) for lab in visible]))
        image = unsteady_blur(image, rng, (DEFOCUS_INDEX_SHARE[0] * index_px, DEFOCUS_INDEX_SHARE[1] * index_px),
                              (MOTION_INDEX_SHARE[0] * index_px, MOTION_INDEX_SHARE[1] * index_px))
    image = jpeg_roundtrip(rng, image, (60, 95))
    # an index the deck cannot teach (a number-card deck's court) counts as covered and suit-visible: a box on it is
    # skipped, neither named nor `none`
    truth = [IndexTruth(lab.code, tuple(lab.box), lab.visible >= VISIBLE_FRACTION and faces.deck.teaches(lab.code),
                        lab.suit_visible < SUIT_HIDDEN and faces.deck.teaches(lab.code))
             for lab in sc.labels if lab.box[2] > lab.box[0] and lab.box[3] > lab.box[1]]
    return image, truth, rng, kind


def parse_elevation(parser: argparse.ArgumentParser, text: str) -> tuple[float, float] | tuple[()]:
    """--photo-elevation "30,55" -> (30.0, 55.0); "" -> (); parser.error unless 30 <= LOW <= HIGH <= 90."""
    if not text:
        return ()
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        low = high = -1.0
    if not (ELEVATION[0] <= low <= high <= ELEVATION[1]):
        parser.error(f"--photo-elevation: {text!r} is not LOW,HIGH in degrees with "
                     f"{ELEVATION[0]} <= LOW <= HIGH <= {ELEVATION[1]}")
    return low, high


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--photos", type=int, default=1200)
    p.add_argument("--split", choices=("train", "val"), default="train", help="decks to render (vision.synth)")
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--blur-share", type=float, default=0.6, help="share of photos blurred before detection")
    p.add_argument("--models", type=Path, default=MODELS_DIR, help=f"folder with the detector ({DETECTOR_FILE})")
    p.add_argument("--restyled", action="store_true", help="also the restyled decks (vision.synth --restyled)")
    p.add_argument("--decks", default="", help="decks to use, comma-separated (default: all installed)")
    p.add_argument("--val-decks", default=",".join(DEFAULT_VAL), help="of those, the val decks (default: the generator's)")
    p.add_argument("--cache", type=Path, default=Path("/work/data/deck-cache"), help="rendered card faces")
    p.add_argument("--photo-kinds", default="", help="kinds of photos with weights, e.g. hand=3,rows=1 "
                                                     "(default: every kind, as in the generator's part photos)")
    p.add_argument("--photo-elevation", default="", metavar="LOW,HIGH",
                   help="camera tilt in degrees (90 = top-down, 30 = steepest), drawn evenly between LOW and HIGH "
                        "(default: the generator's, mostly near top-down)")
    p.add_argument("--four-colour", type=float, default=0.0,
                   help="chance that a photo's deck is printed in four colours, diamonds blue and clubs green "
                        "(vision.synth.four_colour; 0 = never, as before)")
    p.add_argument("--suit-hidden-none", action="store_true",
                   help="label a box on an index whose suit is covered `none` (default: skip it, or name it when "
                        "the index is visible enough)")
    args = p.parse_args(argv)
    if not 0.0 <= args.blur_share <= 1.0:
        p.error("--blur-share must be between 0 and 1")
    if not 0.0 <= args.four_colour <= 1.0:
        p.error("--four-colour must be between 0 and 1")
    elevation = parse_elevation(p, args.photo_elevation)
    photo_kinds = parse_photo_kinds(p, args.photo_kinds)
    train, val = train_and_val_decks(p, args.decks, args.val_decks, restyled=args.restyled)
    val = [d.name for d in installed_decks() if d.name in val]  # in installed order, as detcrops-s17 was made
    decks = train if args.split == "train" else val
    render_all(args.cache, [DECKS_BY_NAME[d] for d in decks], workers=1)
    worker.init(worker.Config(out=str(args.out), cache=str(args.cache), seed=args.seed, train_decks=tuple(train),
                              val_decks=tuple(val), photo_kinds=photo_kinds,
                              photo_elevation=elevation, four_colour=args.four_colour))
    detector = IndexDetector(args.models / DETECTOR_FILE)
    folder = args.out / "crops" / args.split
    for name in CLASS_NAMES:
        (folder / name).mkdir(parents=True, exist_ok=True)
    counts = {name: 0 for name in CLASS_NAMES}
    kinds: Counter[str] = Counter()
    start = time.perf_counter()
    for item in range(args.photos):
        image, truth, rng, kind = render(args.seed, args.split, item, args.blur_share)
        kinds[kind] += 1
        for k, (label, crop) in enumerate(photo_crops(image, truth, detector, rng, args.suit_hidden_none)):
            cv2.imwrite(str(folder / label / f"{item:06d}_{k:03d}.png"), crop)
            counts[label] += 1
        if (item + 1) % 50 == 0:
            print(f"{item + 1} photos, {sum(counts.values())} crops, {time.perf_counter() - start:.0f} s", flush=True)
    (args.out / f"manifest-{args.split}.json").write_text(json.dumps({
        "command": "python -m vision.training.detector_box_crops " + " ".join(sys.argv[1:] if argv is None else argv),
        "seed": args.seed, "photos": args.photos, "blur_share": args.blur_share,
        "detector": str(args.models / DETECTOR_FILE), "decks": decks, "kinds": dict(sorted(kinds.items())),
        "elevation": list(elevation) or "default", "suit_hidden_none": args.suit_hidden_none,
        "total": sum(counts.values()), "per_class": counts}, indent=1))
    print(f"{sum(counts.values())} crops ({counts[NONE_CLASS]} none) from {args.photos} photos in "
          f"{time.perf_counter() - start:.0f} s -> {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
