"""Part "photocrops": classifier crops cut from photos of every kind (the photos part's renders: fans, scattered and
single cards, far layouts, views down to 30 degrees), so the classifier sees indices as the reader meets them in
whole photos (squeezed by steep views, small, blurred), not only in the framed scenes of part crops."""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import scene
from vision.synth.parts.crops import class_totals, class_totals_on_disk, make_class_folders, save_index_crops
from vision.synth.parts.draws import log_uniform
from vision.synth.parts.framing import scaled_labels
from vision.synth.parts.photos import render_photo
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import config, item_deck, item_rng

CROPS_PER_PHOTO, CROP_VARIANTS = 36, 2
PHOTO_YIELD = 27.5  # crops a photo yields on average (65,980 from 2,400 train photos of seed 8)
NOTES = ("48x48 PNG via vision.crops.index_crop cut from 2000x1500 photos of every kind (part photos' renders, "
         "JPEG 60-95), box jitter +-10% shift, +-15% size, two variants per visible index; "
         "none = covered indices, card art, pips, table (about 1 in 6)")
# --photo-lowres: a share of the photos is first shrunk so that its median index is LOWRES_INDEX_PX tall and blurred
# by up to LOWRES_BLUR_SHARE of that (a webcam or a small photo seen steeply by an unsteady hand: real photos read
# right top-down were read unsurely squeezed and blurred, docs/synth.md@538d56c).
LOWRES_INDEX_PX = (12.0, 28.0)
LOWRES_BLUR_SHARE = 0.05


def low_resolution(rng: np.random.Generator, image: np.ndarray, sc: scene.Scene) -> tuple[np.ndarray, scene.Scene]:
    """The photo shrunk so its median visible index is LOWRES_INDEX_PX tall, then blurred, with its scene scaled to
    match; unchanged when its indices are that small already (or none shows)."""
    visible = sc.visible_labels()
    if not visible:
        return image, sc
    median_px = float(np.median([max(lab.box[2] - lab.box[0], lab.box[3] - lab.box[1]) for lab in visible]))
    target_px = log_uniform(rng, *LOWRES_INDEX_PX)
    sigma = rng.uniform(0.2, LOWRES_BLUR_SHARE * target_px)
    scale = target_px / median_px
    if scale >= 1:
        return image, sc
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    small = cv2.GaussianBlur(cv2.resize(image, size, interpolation=cv2.INTER_AREA), (0, 0), sigma)
    return small, dataclasses.replace(sc, image=small, labels=scaled_labels(sc.labels, scale),
                                      card_polygons=[p * scale for p in sc.card_polygons],
                                      owner=cv2.resize(sc.owner, size, interpolation=cv2.INTER_NEAREST))


def photocrops_item(args: tuple[str, int]) -> dict[str, int]:
    """One photo -> up to CROPS_PER_PHOTO crops; returns counts per class."""
    split, item = args
    rng = item_rng("photocrops", split, item)
    faces = item_deck("photocrops", split, item)
    image, sc, _, _ = render_photo(rng, faces, split)
    lowres = config().photo_lowres
    if lowres and rng.random() < lowres:  # draws nothing when 0: older seeds' crops stay as they were
        image, sc = low_resolution(rng, image, sc)
    image = scene.jpeg_roundtrip(rng, image, (60, 95))
    return save_index_crops(rng, image, sc, Path(config().out) / "photocrops" / split, item, CROPS_PER_PHOTO,
                            CROP_VARIANTS, faces.deck.teaches)


def make_folders(out: Path) -> None:
    make_class_folders(out / "photocrops")


def write(pool: Any, split: str, crops: float) -> dict:
    """About `crops` crops of one split; returns the manifest's counts (total, per class)."""
    n = int(math.ceil(crops / PHOTO_YIELD))
    return class_totals(run_items(pool, photocrops_item, [(split, i) for i in range(n)], f"photocrops/{split}"))


def on_disk(out: Path, split: str) -> dict:
    return class_totals_on_disk(out / "photocrops" / split)
