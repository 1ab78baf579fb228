"""Part "photos": full-size validation photos of every kind (3/5/5 rows, a fan in a hand, scattered cards,
one to three single cards), framed from near to far and seen from top-down to steep, with every
card's code and visible index boxes. The whole reader is judged on them (vision evaluate, set photos)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import layouts, scene
from vision.synth.bank import DeckFaces
from vision.synth.parts.draws import choose
from vision.synth.parts.framing import centre_layout, projected_card_corners, scale_about, text_sheet_args
from vision.synth.parts.pool import run_items
from vision.synth.parts.scenes import scene_truth
from vision.synth.parts.worker import config, item_deck, item_rng, photo_elevation_range, photo_kind_weights

PHOTO_KINDS = [("rows", 0.4), ("hand", 0.2), ("scattered", 0.2), ("single", 0.2)]
# Share of the picture's long side the cards span: 0.3 is a layout far from the camera (indices ~8 px
# at the reader's 640 px look, so it must look closer), 0.85 a close-up.
FILL = (0.3, 0.85)
ELEVATION = (30, 90)
NOTES = (f"{dict(PHOTO_KINDS)} of 2000x1500 or 1500x2000 photos, cards spanning {FILL[0]:.0%}-{FILL[1]:.0%} "
         f"of the picture, camera elevation {ELEVATION[0]}-{ELEVATION[1]} degrees; rows only for kind rows "
         "(canonical: front row at the top), cards with their visible index boxes for every kind")


def render_photo(rng: np.random.Generator, faces: DeckFaces, split: str) -> tuple[np.ndarray, scene.Scene, layouts.Layout, str]:
    """A photo of a layout of a random kind (before JPEG): the picture, its scene, the layout and the kind.
    The kinds are drawn from the run's --photo-kinds when given (for crops or tiles of the kinds read worst), the
    camera's tilt evenly from the run's photo_elevation when given (steep views only)."""
    kind = choose(rng, list(photo_kind_weights()) or PHOTO_KINDS)
    layout = layouts.KINDS[kind](rng, faces.aspect)
    size = centre_layout(layout)
    w, h = (2000, 1500) if rng.random() < 0.5 else (1500, 2000)
    steep = photo_elevation_range()
    elevation = float(rng.uniform(*steep)) if steep else None  # no draw by default: default photos stay as they were
    cam = scene.make_camera(rng, size, 100.0, (w, h), elevation_range=ELEVATION, elevation=elevation)
    proj = projected_card_corners(layout, cam)
    extent = proj.max(axis=0) - proj.min(axis=0)
    # the cards span FILL of the long side, at most 95 % of either side
    s = min(rng.uniform(*FILL) * max(w, h) / extent.max(), 0.95 * min(w / extent[0], h / extent[1]))
    # anywhere the cards fit, not always in the middle
    target = np.array([w / 2, h / 2]) + rng.uniform(-0.4, 0.4, 2) * (np.array([w, h]) - s * extent)
    fit = scale_about(proj, s, target)
    sc = scene.render_layout(rng, layout, faces, fit @ cam, (w, h), **text_sheet_args(split))
    return scene.photo_effects(rng, sc.image), sc, layout, kind


def photo_item(args: tuple[str, int, int]) -> int:
    split, item, _ = args
    rng = item_rng("photos", split, item)
    faces = item_deck("photos", split, item)
    image, sc, layout, kind = render_photo(rng, faces, split)
    out = Path(config().out) / "photos" / split
    cv2.imwrite(str(out / f"{item:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
    truth = scene_truth(layout, sc, image)
    if kind != "rows":
        truth["rows"] = None
    truth.update(kind=kind, deck=faces.deck.name)
    if faces.four_colour:
        truth["four_colour"] = True
    (out / f"{item:04d}.json").write_text(json.dumps(truth, indent=1))
    return 1


def make_folders(out: Path) -> None:
    (out / "photos" / "val").mkdir(parents=True, exist_ok=True)


def write(pool: Any, photos: int) -> int:
    return sum(run_items(pool, photo_item, [("val", i, 0) for i in range(photos)], "photos/val"))


def on_disk(out: Path) -> int:
    return len(list((out / "photos" / "val").glob("*.jpg")))
