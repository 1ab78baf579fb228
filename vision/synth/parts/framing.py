"""Fitting a picture around a layout: centring, index size to camera scale, the framed canvas, labels of a
resized picture."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.synth import fonts, layouts, scene
from vision.synth.bank import DeckFaces
from vision.synth.parts.worker import text_sheet_rate


def centre_layout(layout: layouts.Layout) -> float:
    """Move the layout's centre to the table origin; return its size in table units."""
    if not layout.cards:
        return 3.0
    xs = np.array([c.x for c in layout.cards])
    ys = np.array([c.y for c in layout.cards])
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    for c in layout.cards:
        c.x -= cx
        c.y -= cy
    for p in layout.props:
        p.polygon = p.polygon - [cx, cy]
    return float(max(xs.max() - xs.min(), ys.max() - ys.min()) + 1.5)


def projected_card_corners(layout: layouts.Layout, cam: np.ndarray) -> np.ndarray:
    """(4N, 2) picture points of the cards' corners (a little beyond them: ±0.5 wide, ±0.6 tall)."""
    corners = np.array([[[c.x + dx, c.y + dy] for c in layout.cards for dx in (-0.5, 0.5) for dy in (-0.6, 0.6)]],
                       np.float64)
    return cv2.perspectiveTransform(corners, cam)[0]


def scale_about(points: np.ndarray, scale: float, target: tuple[float, float] | np.ndarray) -> np.ndarray:
    """Homography that scales the picture by `scale` and moves the mean of `points` to `target`."""
    centre = points.mean(axis=0)
    return np.array([[scale, 0, target[0] - scale * centre[0]], [0, scale, target[1] - scale * centre[1]], [0, 0, 1.0]])


def index_ratio(deck: DeckFaces) -> float:
    """Index height as a fraction of card height for this deck."""
    heights = [f.boxes[0][3] - f.boxes[0][1] for f in deck.faces.values()]
    return float(np.median(heights)) / next(iter(deck.faces.values())).size[1]


def text_sheet_args(split: str) -> dict:
    """Paper-with-text clutter for scenes (--text-sheets); fonts of the split, as for text crops."""
    rate = text_sheet_rate()
    return {"text_sheets": rate, "text_fonts": fonts.fonts_for(split) if rate > 0 else ()}


def framed_scene(rng: np.random.Generator, layout: layouts.Layout, deck: DeckFaces, index_px: float,
                 max_side: int, min_side: int, split: str = "train") -> scene.Scene:
    """Render a layout with a canvas fitted around the projected cards (capped at max_side)."""
    size = centre_layout(layout)
    card_px = index_px / index_ratio(deck)
    cam = scene.make_camera(rng, size, card_px, (0, 0), centre=(0.0, 0.0))
    if layout.cards:
        pts = []
        for c in layout.cards:
            r = 0.75
            pts += [[c.x - r, c.y - r], [c.x + r, c.y - r], [c.x + r, c.y + r], [c.x - r, c.y + r]]
        proj = cv2.perspectiveTransform(np.array([pts], np.float64), cam)[0]
        x0, y0 = proj.min(axis=0)
        x1, y1 = proj.max(axis=0)
    else:
        x0 = y0 = -min_side / 2
        x1 = y1 = min_side / 2
    margin = rng.uniform(0.1, 1.0) * card_px
    w = int(np.clip(x1 - x0 + 2 * margin, min_side, max_side))
    h = int(np.clip(y1 - y0 + 2 * margin, min_side, max_side))
    # Place the projected content in the canvas (randomly where it does not fit).
    ox = -x0 + margin if x1 - x0 + 2 * margin <= w else -x0 - rng.uniform(0, x1 - x0 + 2 * margin - w) + margin
    oy = -y0 + margin if y1 - y0 + 2 * margin <= h else -y0 - rng.uniform(0, y1 - y0 + 2 * margin - h) + margin
    if x1 - x0 + 2 * margin < w:
        ox += rng.uniform(0, w - (x1 - x0 + 2 * margin))
    if y1 - y0 + 2 * margin < h:
        oy += rng.uniform(0, h - (y1 - y0 + 2 * margin))
    cam = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1.0]]) @ cam
    return scene.render_layout(rng, layout, deck, cam, (w, h), **text_sheet_args(split))


def scaled_labels(labels: list[scene.IndexLabel], scale: float, offset: tuple[int, int] = (0, 0)
                  ) -> list[scene.IndexLabel]:
    """The labels with boxes in the shrunk (and padded by `offset`) picture's pixels."""
    ox, oy = offset
    return [dataclasses.replace(lab, box=(lab.box[0] * scale + ox, lab.box[1] * scale + oy,
                                          lab.box[2] * scale + ox, lab.box[3] * scale + oy)) for lab in labels]
