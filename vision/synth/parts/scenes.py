"""Part "scenes": full-size validation photos of 3/5/5 layouts with their rows and index boxes."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import layouts, scene
from vision.synth.parts.framing import centre_layout, projected_card_corners, scale_about, text_sheet_args
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import config, item_deck, item_rng

NOTES = ("rows are canonical: front row (3 cards) at the top of the layout, codes left to right "
         "in that orientation; the photo may show the layout rotated by any angle")


def scene_item(args: tuple[str, int, int]) -> int:
    split, item, _ = args
    rng = item_rng("scenes", split, item)
    faces = item_deck("scenes", split, item)
    layout = layouts.rows_335(rng, faces.aspect)
    size = centre_layout(layout)
    w, h = (2000, 1500) if rng.random() < 0.5 else (1500, 2000)
    # Cycle the layout's turn: upright, upside down, sideways, any angle.
    mode = item % 4
    yaw = [rng.normal(0, 6), 180 + rng.normal(0, 6), rng.choice([90.0, 270.0]) + rng.normal(0, 6), rng.uniform(0, 360)][mode]
    cam = scene.make_camera(rng, size, 100.0, (w, h), elevation_range=(40, 90), yaw=float(yaw))
    # Fit the layout into 60..85 % of the picture.
    proj = projected_card_corners(layout, cam)
    extent = max((proj[:, 0].max() - proj[:, 0].min()) / w, (proj[:, 1].max() - proj[:, 1].min()) / h)
    fit = scale_about(proj, rng.uniform(0.6, 0.85) / extent, (w / 2, h / 2))
    sc = scene.render_layout(rng, layout, faces, fit @ cam, (w, h), **text_sheet_args(split))
    image = scene.photo_effects(rng, sc.image, strength=0.7)
    out = Path(config().out) / "scenes" / split
    cv2.imwrite(str(out / f"{item:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
    truth = scene_truth(layout, sc, image)
    truth["deck"] = faces.deck.name
    (out / f"{item:04d}.json").write_text(json.dumps(truth, indent=1))
    return 1


def scene_truth(layout: layouts.Layout, sc: scene.Scene, final: np.ndarray | None = None) -> dict:
    """Rows and, per card, its visible index boxes with how legible each is: `suit_visible` (the uncovered share of
    its suit band) and, given the picture after the photo effects, `contrast_kept` (scene.contrast_kept)."""
    cards = []
    for number, placed in enumerate(layout.cards):
        labels = [lab for lab in sc.visible_labels() if lab.card == number]
        card = {"code": placed.code, "indices": [[round(v, 1) for v in lab.box] for lab in labels],
                "suit_visible": [round(lab.suit_visible, 3) for lab in labels]}
        if final is not None:
            card["contrast_kept"] = [round(scene.contrast_kept(sc.image, final, lab, sc.owner), 3) for lab in labels]
        cards.append(card)
    return {"rows": layout.rows, "cards": cards}


def make_folders(out: Path) -> None:
    (out / "scenes" / "val").mkdir(parents=True, exist_ok=True)


def write(pool: Any, scenes: int) -> int:
    return sum(run_items(pool, scene_item, [("val", i, 0) for i in range(scenes)], "scenes/val"))


def on_disk(out: Path) -> int:
    return len(list((out / "scenes" / "val").glob("*.jpg")))
