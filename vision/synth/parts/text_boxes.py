"""Where text crops are cut: the sheet's warp onto the picture and index-sized boxes on its text."""
from __future__ import annotations

import cv2
import numpy as np

from vision.synth import paper
from vision.synth.parts.draws import Box, choose, jitter

TRAP_CHARS = set("AKQJT23456789")
TEXT_BOX_KINDS = [("glyph", 0.42), ("pair", 0.2), ("below", 0.2), ("context", 0.18)]


def glyph_weight(ch: str) -> float:
    """How often a character is picked: characters that look like ranks most."""
    if ch in TRAP_CHARS or ch in "10":
        return 4.0
    if ch.isupper() or ch.isdigit():
        return 2.0
    if ch.isalpha():
        return 1.0
    return 0.3


def sheet_warp(rng: np.random.Generator, sheet_hw: tuple[int, int], canvas_hw: tuple[int, int], fill: bool) -> np.ndarray:
    """Homography paper -> canvas: any rotation (mostly near upright), scale, some perspective."""
    sh, sw = sheet_hw
    ch, cw = canvas_hw
    angle = rng.normal(0, 20) if rng.random() < 0.6 else rng.uniform(0, 360)
    scale = rng.uniform(0.8, 1.2)
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * scale
    corners = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64) - [sw / 2, sh / 2]
    centre = np.array([cw / 2, ch / 2])
    if not fill:  # the paper edge shows: move the sheet off-centre
        centre = centre + rng.uniform(-0.3, 0.3, 2) * [cw, ch]
    dst = corners @ rot.T + centre + rng.normal(0, 0.04 * max(sh, sw), (4, 2))
    return cv2.getPerspectiveTransform(corners.astype(np.float32) + np.float32([sw / 2, sh / 2]), dst.astype(np.float32))


def text_box(rng: np.random.Generator, sheet: paper.Sheet, glyphs: list, weights: np.ndarray) -> np.ndarray:
    """A 4x2 quad on the sheet around one glyph, a glyph pair, a glyph and what lies below it,
    a letter with a mark, or a loose index-sized window on a text line."""
    if sheet.extras and rng.random() < 0.12:
        return sheet.extras[rng.integers(len(sheet.extras))]
    i = int(rng.choice(len(glyphs), p=weights))
    g = glyphs[i].quad
    (x0, y0), (x1, y1) = g.min(axis=0), g.max(axis=0)
    cap = max(sheet.cap_px, y1 - y0)
    kind = choose(rng, TEXT_BOX_KINDS)
    if kind == "pair" and i + 1 < len(glyphs) and glyphs[i + 1].line == glyphs[i].line:
        n = glyphs[i + 1].quad
        if 0 <= n[:, 0].min() - x1 < 0.8 * cap:
            x1, y0, y1 = n[:, 0].max(), min(y0, n[:, 1].min()), max(y1, n[:, 1].max())
    elif kind == "below":  # like rank + suit: the glyph and what is under it
        y1 = y0 + (y1 - y0) * rng.uniform(1.6, 2.4)
        pad = (x1 - x0) * rng.uniform(-0.1, 0.3)
        x0, x1 = x0 - pad, x1 + pad
    elif kind == "context":
        hgt = cap * rng.uniform(1.0, 2.2)
        wid = hgt * rng.uniform(0.45, 1.0)
        cx, cy = (x0 + x1) / 2 + rng.normal(0, 0.5) * cap, (y0 + y1) / 2 + rng.uniform(0, 0.5) * cap
        x0, x1, y0, y1 = cx - wid / 2, cx + wid / 2, cy - hgt / 2, cy + hgt / 2
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


def text_jitter(rng: np.random.Generator, box: Box) -> Box:
    """Detector-like error on a text box: mostly as for indices, sometimes well off-centre or too big."""
    return jitter(rng, box) if rng.random() < 0.7 else jitter(rng, box, 0.35, (0.75, 1.4))
