"""Part "photocrops": classifier crops cut from photos of every kind (the photos part's renders: fans, scattered and
single cards, far layouts, views down to 30 degrees), so the classifier sees indices as the reader meets them in
whole photos (squeezed by steep views, small, blurred), not only in the framed scenes of part crops."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2

from vision.crops import CLASS_NAMES, NONE_CLASS, index_crop
from vision.synth import scene
from vision.synth.parts.crops import none_boxes
from vision.synth.parts.draws import jitter
from vision.synth.parts.photos import render_photo
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import SPLITS, config, deck, deck_for, item_rng

CROPS_PER_PHOTO, CROP_VARIANTS = 36, 2
PHOTO_YIELD = 27.5  # crops a photo yields on average (65,980 from 2,400 train photos of seed 8)
NOTES = ("48x48 PNG via vision.crops.index_crop cut from 2000x1500 photos of every kind (part photos' renders, "
         "JPEG 60-95), box jitter +-10% shift, +-15% size, two variants per visible index; "
         "none = covered indices, card art, pips, table (about 1 in 6)")


def photocrops_item(args: tuple[str, int]) -> dict[str, int]:
    """One photo -> up to CROPS_PER_PHOTO crops; returns counts per class."""
    split, item = args
    rng = item_rng("photocrops", split, item)
    faces = deck(deck_for(split, item))
    image, sc, _, _ = render_photo(rng, faces, split)
    image = scene.jpeg_roundtrip(rng, image, (60, 95))
    visible = sc.visible_labels()
    rng.shuffle(visible)
    n_none = max(1, round(CROPS_PER_PHOTO / 6))
    out = Path(config().out) / "photocrops" / split
    counts: dict[str, int] = {}
    written = 0

    def save(cls: str, crop: Any) -> None:
        nonlocal written
        cv2.imwrite(str(out / cls / f"{item:06d}_{written:02d}.png"), crop)
        counts[cls] = counts.get(cls, 0) + 1
        written += 1

    for lab in visible[:(CROPS_PER_PHOTO - n_none) // CROP_VARIANTS]:
        for _ in range(CROP_VARIANTS):
            save(lab.code, index_crop(image, jitter(rng, lab.box)))
    for box in none_boxes(rng, sc, n_none):
        save(NONE_CLASS, index_crop(image, box))
    return counts


def make_folders(out: Path) -> None:
    for split in SPLITS:
        for cls in CLASS_NAMES:
            (out / "photocrops" / split / cls).mkdir(parents=True, exist_ok=True)


def write(pool: Any, split: str, crops: float) -> dict:
    """About `crops` crops of one split; returns the manifest's counts (total, per class)."""
    n = int(math.ceil(crops / PHOTO_YIELD))
    results = run_items(pool, photocrops_item, [(split, i) for i in range(n)], f"photocrops/{split}")
    per_class: dict[str, int] = {}
    for r in results:
        for k, v in r.items():
            per_class[k] = per_class.get(k, 0) + v
    return {"total": sum(per_class.values()), "per_class": {c: per_class.get(c, 0) for c in CLASS_NAMES}}


def on_disk(out: Path, split: str) -> dict:
    per_class = {c: len(list((out / "photocrops" / split / c).glob("*.png"))) for c in CLASS_NAMES}
    return {"total": sum(per_class.values()), "per_class": per_class}
