"""Part "crops": 48x48 classifier crops of visible indices (with box jitter) and `none` crops."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from vision.crops import CLASS_NAMES, NONE_CLASS, index_crop
from vision.synth import layouts, scene
from vision.synth.parts.draws import Box, choose, jitter, log_uniform
from vision.synth.parts.framing import framed_scene
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import SPLITS, config, item_deck, item_rng

CROP_INDEX_PX = (12.0, 90.0)
CROP_KINDS = [("rows", 0.4), ("hand", 0.15), ("scattered", 0.3), ("single", 0.15)]
CROPS_PER_SCENE, CROP_VARIANTS = 36, 2
SCENE_YIELD = 22  # a scene yields ~22.5 crops on average (measured on synth-v1)
NOTES = ("48x48 PNG via vision.crops.index_crop, index 12-90 px tall before resizing, box jitter "
         "+-10% shift, +-15% size; none = covered indices, card art, pips, table")


def _overlaps(box: Box, others: list[Box], limit: float = 0.15) -> bool:
    x1, y1, x2, y2 = box
    for o in others:
        ix = max(0.0, min(x2, o[2]) - max(x1, o[0]))
        iy = max(0.0, min(y2, o[3]) - max(y1, o[1]))
        inter = ix * iy
        if inter > limit * min((x2 - x1) * (y2 - y1), (o[2] - o[0]) * (o[3] - o[1])):
            return True
    return False


def _index_sized_box(rng: np.random.Generator, sc: scene.Scene, ref: list[Box], w: int, h: int) -> Box:
    """A box the size of one of the scene's indices, mostly somewhere on a card, else on the table."""
    rb = ref[rng.integers(len(ref))]
    bw, bh = (rb[2] - rb[0]) * rng.uniform(0.7, 1.6), (rb[3] - rb[1]) * rng.uniform(0.7, 1.6)
    if rng.random() < 0.7 and sc.card_polygons:
        poly = sc.card_polygons[rng.integers(len(sc.card_polygons))]
        t = rng.random(2)
        p = poly[0] * (1 - t[0]) * (1 - t[1]) + poly[1] * t[0] * (1 - t[1]) + poly[2] * t[0] * t[1] + poly[3] * (1 - t[0]) * t[1]
        cx, cy = float(p[0]), float(p[1])
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    return (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)


def none_boxes(rng: np.random.Generator, sc: scene.Scene, n_none: int) -> list[Box]:
    """Up to n_none boxes for `none` crops: heavily covered indices first (about half), then boxes of index size on
    card art, pips or the table that overlap no visible index."""
    h, w = sc.image.shape[:2]
    all_boxes = [lab.box for lab in sc.labels if lab.visible >= 0.3]
    covered = [lab for lab in sc.labels if lab.visible < 0.3 and 0 <= lab.box[0] and lab.box[2] <= w
               and 0 <= lab.box[1] and lab.box[3] <= h]
    rng.shuffle(covered)
    boxes = [jitter(rng, lab.box) for lab in covered[:n_none // 2]]
    ref = [lab.box for lab in sc.labels] or [(0, 0, 40, 60)]
    tries = 0
    while len(boxes) < n_none and tries < 50:
        tries += 1
        box = _index_sized_box(rng, sc, ref, w, h)
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h or _overlaps(box, all_boxes):
            continue
        boxes.append(box)
    return boxes


def crops_item(args: tuple[str, int, int, int]) -> dict[str, int]:
    """One scene -> up to `per_scene` crops (about 1 in 6 of them `none`); returns counts per class."""
    split, item, per_scene, variants = args
    rng = item_rng("crops", split, item)
    faces = item_deck("crops", split, item)
    layout = layouts.KINDS[choose(rng, CROP_KINDS)](rng, faces.aspect)
    index_px = log_uniform(rng, *CROP_INDEX_PX)
    sc = framed_scene(rng, layout, faces, index_px, 640, 200, split)
    # Small indices get milder blur/noise: at 12-20 px full-strength effects make many unreadable,
    # which would teach the classifier label noise rather than robustness.
    strength = float(np.clip(index_px / 25.0, 0.5, 1.0))
    image = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, sc.image, strength), (30, 96))
    return save_index_crops(rng, image, sc, Path(config().out) / "crops" / split, item, per_scene, variants,
                            faces.deck.teaches)


def save_index_crops(rng: np.random.Generator, image: np.ndarray, sc: scene.Scene, out: Path, item: int,
                     per_scene: int, variants: int, teaches: Callable[[str], bool] | None = None) -> dict[str, int]:
    """Write a picture's crops into out/<class>/: `variants` crops with different box jitter of each visible index
    (cheap extra samples; shuffled, up to per_scene less the `none` share), then about 1 in 6 `none` crops.
    Indices whose code `teaches` refuses (a number-card deck's courts) give no crop, neither named nor `none`.
    Returns counts per class."""
    visible = sc.visible_labels()
    rng.shuffle(visible)
    if teaches is not None:  # after the shuffle, so that a full deck's crops stay as they were
        visible = [lab for lab in visible if teaches(lab.code)]
    n_none = max(1, int(round(per_scene / 6)))
    counts: dict[str, int] = {}
    written = 0

    def save(cls: str, crop: np.ndarray) -> None:
        nonlocal written
        cv2.imwrite(str(out / cls / f"{item:06d}_{written:02d}.png"), crop)
        counts[cls] = counts.get(cls, 0) + 1
        written += 1

    for lab in visible[:(per_scene - n_none) // variants]:
        for _ in range(variants):
            save(lab.code, index_crop(image, jitter(rng, lab.box)))
    for box in none_boxes(rng, sc, n_none):
        save(NONE_CLASS, index_crop(image, box))
    return counts


def class_totals(results: list[dict[str, int]]) -> dict:
    """The manifest's counts (total, per class) of items' counts per class."""
    per_class: dict[str, int] = {}
    for r in results:
        for k, v in r.items():
            per_class[k] = per_class.get(k, 0) + v
    return {"total": sum(per_class.values()), "per_class": {c: per_class.get(c, 0) for c in CLASS_NAMES}}


def class_totals_on_disk(folder: Path) -> dict:
    """The manifest's counts of the PNG crops in folder/<class>/."""
    per_class = {c: len(list((folder / c).glob("*.png"))) for c in CLASS_NAMES}
    return {"total": sum(per_class.values()), "per_class": per_class}


def make_class_folders(root: Path) -> None:
    """root/<split>/<class>/ for every split and class."""
    for split in SPLITS:
        for cls in CLASS_NAMES:
            (root / split / cls).mkdir(parents=True, exist_ok=True)


def make_folders(out: Path) -> None:
    make_class_folders(out / "crops")


def write(pool: Any, split: str, crops: float) -> dict:
    """About `crops` crops of one split; returns the manifest's counts (total, per class)."""
    n = int(math.ceil(crops / SCENE_YIELD))
    return class_totals(run_items(pool, crops_item, [(split, i, CROPS_PER_SCENE, CROP_VARIANTS) for i in range(n)],
                                  f"crops/{split}"))


def on_disk(out: Path, split: str) -> dict:
    """Counts of crops left by an earlier run (the part is not regenerated); text crops included."""
    return class_totals_on_disk(out / "crops" / split)
