"""Part "phototiles": detector tiles cut from photos of every kind (the photos part's renders: fans, scattered and
single cards, far layouts, views down to 30 degrees), each photo shrunk as the reader shrinks it for one of its
looks (vision.reader: the first look at 640, a closer look enlarging a far layout, the look at 1024), so the
detector trains on indices as the reader meets them in whole photos (squeezed by steep views, small, blurred),
not only in the framed scenes of part detect."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.degrade import unsteady_blur
from vision.synth import scene
from vision.synth.parts.detect import (TILE, make_tile_folders, save_tile, tile_labels, tile_origin, tiles_on_disk,
                                       write_tiles_yaml)
from vision.synth.parts.draws import choose, log_uniform
from vision.synth.parts.framing import scaled_labels
from vision.synth.parts.photos import render_photo
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import config, item_deck, item_rng

PAD_VALUE = 114  # the reader's letterbox grey (vision.detector)
# The reader's looks: whole photo at the first size, a far layout's region enlarged so that the median index is
# 14-36 px (vision.zoom aims at 24), the whole photo at the larger size.
LOOKS = [("first", 0.45), ("closer", 0.3), ("larger", 0.25)]
FIRST_LONG_SIDE, LARGER_LONG_SIDE = 640, 1024
CLOSER_INDEX_PX = (14.0, 36.0)
MAX_ENLARGE = 2.5
LOOKS_PER_PHOTO, TILES_PER_LOOK = 2, 3
# --tile-blur: a blurred look is out of focus (Gaussian sigma) or moved (a motion line at any angle), in look pixels;
# session 14's trial of these ranges gave the detector back its recall on real blurred photos
DEFOCUS_SIGMA_PX = (0.8, 2.5)
MOTION_LENGTH_PX = (3.0, 9.0)
BLUR_NOTES = (f"half out of focus (Gaussian sigma {DEFOCUS_SIGMA_PX[0]}-{DEFOCUS_SIGMA_PX[1]} look px), half moved "
              f"(a {MOTION_LENGTH_PX[0]:.0f}-{MOTION_LENGTH_PX[1]:.0f} px motion line at any angle)")
NOTES = (f"{TILE}x{TILE} JPEG tiles, YOLO labels class 0 = index, cut from 2000x1500 photos of every kind (part "
         f"photos' renders) shrunk as the reader's looks shrink them ({dict(LOOKS)}: long side {FIRST_LONG_SIDE}, "
         f"median index {CLOSER_INDEX_PX[0]:.0f}-{CLOSER_INDEX_PX[1]:.0f} px, long side {LARGER_LONG_SIDE}); "
         f"{LOOKS_PER_PHOTO} looks x {TILES_PER_LOOK} tiles per photo; labelled where >= 60% of the index is "
         "uncovered and inside the tile")


def look_scale(rng: np.random.Generator, look: str, long_side: int, median_index_px: float) -> float:
    """Working-image pixels per photo pixel for one of the reader's looks."""
    if look == "first":
        return FIRST_LONG_SIDE / long_side
    if look == "larger":
        return LARGER_LONG_SIDE / long_side
    return min(log_uniform(rng, *CLOSER_INDEX_PX) / max(median_index_px, 1.0), MAX_ENLARGE)


def padded_to_tile(image: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """The picture padded with grey to at least one tile each way (centred, as the reader letterboxes), and the
    offset of its top-left corner."""
    h, w = image.shape[:2]
    px, py = max(0, TILE - w), max(0, TILE - h)
    if not px and not py:
        return image, (0, 0)
    ox, oy = px // 2, py // 2
    return cv2.copyMakeBorder(image, oy, py - oy, ox, px - ox, cv2.BORDER_CONSTANT,
                              value=(PAD_VALUE,) * 3), (ox, oy)


def phototiles_item(args: tuple[str, int]) -> int:
    """One photo -> LOOKS_PER_PHOTO x TILES_PER_LOOK tiles; returns the number written."""
    split, item = args
    rng = item_rng("phototiles", split, item)
    blur_rng = item_rng("phototiles", split, item, stream=1)  # --tile-blur's draws leave the tiles' places as they were
    faces = item_deck("phototiles", split, item)
    photo, sc, _, _ = render_photo(rng, faces, split)
    photo = scene.jpeg_roundtrip(rng, photo, (60, 95))
    visible = sc.visible_labels()
    median_px = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in (lab.box for lab in visible)])) if visible else 20.0
    out = Path(config().out) / "phototiles"
    written = 0
    for look_number in range(LOOKS_PER_PHOTO):
        scale = look_scale(rng, choose(rng, LOOKS), max(photo.shape[:2]), median_px)
        size = (max(1, round(photo.shape[1] * scale)), max(1, round(photo.shape[0] * scale)))
        picture = cv2.resize(photo, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        blur = config().tile_blur
        if blur and blur_rng.random() < blur:
            picture = unsteady_blur(picture, blur_rng, DEFOCUS_SIGMA_PX, MOTION_LENGTH_PX)
        picture, offset = padded_to_tile(picture)
        labels = scaled_labels(visible, scale, offset)
        # all of a look's origins are drawn before its tiles (the stream phototiles-v1 was written with)
        origins = [tile_origin(rng, labels, picture.shape) for _ in range(TILES_PER_LOOK)]
        for t, (x0, y0) in enumerate(origins):
            name = f"{(item * LOOKS_PER_PHOTO + look_number) * TILES_PER_LOOK + t:06d}"
            tile = picture[y0:y0 + TILE, x0:x0 + TILE]
            quality = int(rng.integers(50, 96))
            save_tile(out, split, name, tile, tile_labels(labels, x0, y0), quality)
            written += 1
    return written


def make_folders(out: Path) -> None:
    make_tile_folders(out / "phototiles")


def write(pool: Any, split: str, tiles: float) -> int:
    """About `tiles` tiles of one split; returns the number written."""
    n = int(math.ceil(tiles / (LOOKS_PER_PHOTO * TILES_PER_LOOK)))
    return sum(run_items(pool, phototiles_item, [(split, i) for i in range(n)], f"phototiles/{split}"))


def on_disk(out: Path, split: str) -> int:
    return tiles_on_disk(out / "phototiles", split)


def write_data_yaml(out: Path) -> None:
    write_tiles_yaml(out / "phototiles")
