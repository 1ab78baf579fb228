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
from vision.synth.parts.draws import choose
from vision.synth.parts.framing import centre_layout, text_sheet_args
from vision.synth.parts.pool import run_items
from vision.synth.parts.scenes import scene_truth
from vision.synth.parts.worker import config, deck, deck_for, item_rng

PHOTO_KINDS = [("rows", 0.4), ("hand", 0.2), ("scattered", 0.2), ("single", 0.2)]
# Share of the picture's long side the cards span: 0.3 is a layout far from the camera (indices ~8 px
# at the reader's 640 px look, so it must look closer), 0.85 a close-up.
FILL = (0.3, 0.85)
ELEVATION = (30, 90)
NOTES = (f"{dict(PHOTO_KINDS)} of 2000x1500 or 1500x2000 photos, cards spanning {FILL[0]:.0%}-{FILL[1]:.0%} "
         f"of the picture, camera elevation {ELEVATION[0]}-{ELEVATION[1]} degrees; rows only for kind rows "
         "(canonical: front row at the top), cards with their visible index boxes for every kind")


def photo_item(args: tuple[str, int, int]) -> int:
    split, item, _ = args
    rng = item_rng("photos", split, item)
    faces = deck(deck_for(split, item))
    kind = choose(rng, PHOTO_KINDS)
    layout = layouts.KINDS[kind](rng, faces.aspect)
    size = centre_layout(layout)
    w, h = (2000, 1500) if rng.random() < 0.5 else (1500, 2000)
    cam = scene.make_camera(rng, size, 100.0, (w, h), elevation_range=ELEVATION)
    corners = np.array([[[c.x + dx, c.y + dy] for c in layout.cards for dx in (-0.5, 0.5) for dy in (-0.6, 0.6)]],
                       np.float64)
    proj = cv2.perspectiveTransform(corners, cam)[0]
    span = max(proj[:, 0].max() - proj[:, 0].min(), proj[:, 1].max() - proj[:, 1].min())
    s = rng.uniform(*FILL) * max(w, h) / span
    s = min(s, 0.95 * min(w / (proj[:, 0].max() - proj[:, 0].min()), h / (proj[:, 1].max() - proj[:, 1].min())))
    centre = proj.mean(axis=0)
    # anywhere the cards fit, not always in the middle
    room = np.array([w, h]) - s * (proj.max(axis=0) - proj.min(axis=0))
    target = np.array([w / 2, h / 2]) + rng.uniform(-0.4, 0.4, 2) * room
    fit = np.array([[s, 0, target[0] - s * centre[0]], [0, s, target[1] - s * centre[1]], [0, 0, 1.0]])
    sc = scene.render_layout(rng, layout, faces, fit @ cam, (w, h), **text_sheet_args(split))
    image = scene.photo_effects(rng, sc.image)
    out = Path(config().out) / "photos" / split
    cv2.imwrite(str(out / f"{item:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 95))])
    truth = scene_truth(layout, sc)
    if kind != "rows":
        truth["rows"] = None
    truth.update(kind=kind, deck=faces.deck.name)
    (out / f"{item:04d}.json").write_text(json.dumps(truth, indent=1))
    return 1


def make_folders(out: Path) -> None:
    (out / "photos" / "val").mkdir(parents=True, exist_ok=True)


def write(pool: Any, photos: int) -> int:
    return sum(run_items(pool, photo_item, [("val", i, 0) for i in range(photos)], "photos/val"))


def on_disk(out: Path) -> int:
    return len(list((out / "photos" / "val").glob("*.jpg")))
