"""Write the synthetic dataset (layout described in docs/synth.md and the dataset contract).

Work is split into numbered items (a detector scene giving a few tiles, a crop scene giving many
crops, a validation scene); each item draws its randomness from its own generator seeded with
(seed, part, split, item), so the output does not depend on the number of workers or their timing.
Items are processed in blocks that share one deck, so a worker keeps only a few decks in memory.
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES, CLASS_NAMES, NONE_CLASS, index_crop
from vision.synth import fonts, layouts, paper, scene, textures
from vision.synth.bank import DeckFaces, load_deck_faces
from vision.synth.decks import DECKS_BY_NAME, render_all

GENERATOR_VERSION = "2"
TILE = 320
TILE_INDEX_PX = (10.0, 45.0)
# A few close-up tiles (a single card photographed from near, shrunk less than a layout photo), so
# the detector also finds indices larger than the contract's 10-45 px range.
CLOSEUP_INDEX_PX = (45.0, 90.0)
CLOSEUP_SHARE = 0.08
CROP_INDEX_PX = (12.0, 90.0)
BLOCK = 40  # items per deck block
PARTS = {"detect": 1, "crops": 2, "scenes": 3, "textcrops": 4}
SPLITS = {"train": 0, "val": 1}
DETECT_KINDS = [("rows", 0.45), ("hand", 0.15), ("scattered", 0.2), ("single", 0.12), ("empty", 0.08)]
CROP_KINDS = [("rows", 0.4), ("hand", 0.15), ("scattered", 0.3), ("single", 0.15)]


@dataclass(frozen=True)
class Config:
    out: str
    cache: str
    seed: int
    train_decks: tuple[str, ...]
    val_decks: tuple[str, ...]
    text_sheets: float = 0.0  # chance of a paper sheet with text beside the cards in a scene


_CONFIG: Config | None = None


def _init(config: Config) -> None:
    global _CONFIG
    _CONFIG = config
    cv2.setNumThreads(1)


@lru_cache(maxsize=3)
def _deck(name: str) -> DeckFaces:
    assert _CONFIG is not None
    return load_deck_faces(Path(_CONFIG.cache), DECKS_BY_NAME[name])


def _rng(part: str, split: str, item: int) -> np.random.Generator:
    assert _CONFIG is not None
    return np.random.default_rng([_CONFIG.seed, PARTS[part], SPLITS[split], item])


def _deck_for(split: str, item: int) -> str:
    assert _CONFIG is not None
    decks = _CONFIG.train_decks if split == "train" else _CONFIG.val_decks
    block = item // BLOCK
    order = np.random.default_rng([_CONFIG.seed, 99, SPLITS[split], block // len(decks)]).permutation(len(decks))
    return decks[order[block % len(decks)]]


def _choose(rng: np.random.Generator, table: list[tuple[str, float]]) -> str:
    names, weights = zip(*table)
    return str(rng.choice(names, p=np.array(weights) / sum(weights)))


def _centre_layout(layout: layouts.Layout) -> float:
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


def _index_ratio(deck: DeckFaces) -> float:
    """Index height as a fraction of card height for this deck."""
    heights = [f.boxes[0][3] - f.boxes[0][1] for f in deck.faces.values()]
    return float(np.median(heights)) / next(iter(deck.faces.values())).size[1]


def _framed_scene(rng: np.random.Generator, layout: layouts.Layout, deck: DeckFaces, index_px: float,
                  max_side: int, min_side: int, split: str = "train") -> scene.Scene:
    """Render a layout with a canvas fitted around the projected cards (capped at max_side)."""
    size = _centre_layout(layout)
    card_px = index_px / _index_ratio(deck)
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
    return scene.render_layout(rng, layout, deck, cam, (w, h), **_text_sheet_args(split))


def _text_sheet_args(split: str) -> dict:
    """Paper-with-text clutter for scenes (--text-sheets); fonts of the split, as for text crops."""
    rate = _CONFIG.text_sheets if _CONFIG is not None else 0.0
    return {"text_sheets": rate, "text_fonts": fonts.fonts_for(split) if rate > 0 else ()}


def _log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


# ---------------------------------------------------------------------------------------------
# Detector tiles


def detect_item(args: tuple[str, int, int]) -> int:
    """One scene -> up to `per_scene` tiles; returns the number written."""
    split, item, per_scene = args
    assert _CONFIG is not None
    rng = _rng("detect", split, item)
    deck = _deck(_deck_for(split, item))
    kind = _choose(rng, DETECT_KINDS)
    layout = layouts.KINDS[kind](rng, deck.aspect)
    closeup = kind in ("single", "scattered", "hand") and rng.random() < CLOSEUP_SHARE / 0.47
    index_px = _log_uniform(rng, *(CLOSEUP_INDEX_PX if closeup else TILE_INDEX_PX))
    sc = _framed_scene(rng, layout, deck, index_px, 1400, TILE, split)
    image = scene.photo_effects(rng, sc.image)
    visible = sc.visible_labels()
    h, w = image.shape[:2]
    out = Path(_CONFIG.out) / "detect"
    for t in range(per_scene):
        if visible and rng.random() < 0.85:
            lab = visible[rng.integers(len(visible))]
            cx, cy = (lab.box[0] + lab.box[2]) / 2, (lab.box[1] + lab.box[3]) / 2
            x0 = int(np.clip(cx - rng.uniform(0.1, 0.9) * TILE, 0, w - TILE))
            y0 = int(np.clip(cy - rng.uniform(0.1, 0.9) * TILE, 0, h - TILE))
        else:
            x0, y0 = int(rng.integers(0, w - TILE + 1)), int(rng.integers(0, h - TILE + 1))
        tile = image[y0:y0 + TILE, x0:x0 + TILE]
        lines = []
        for lab in visible:
            bx1, by1, bx2, by2 = lab.box
            area = (bx2 - bx1) * (by2 - by1)
            cx1, cy1 = max(bx1, x0), max(by1, y0)
            cx2, cy2 = min(bx2, x0 + TILE), min(by2, y0 + TILE)
            if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < scene.VISIBLE_FRACTION * area:
                continue
            lines.append(f"0 {((cx1 + cx2) / 2 - x0) / TILE:.6f} {((cy1 + cy2) / 2 - y0) / TILE:.6f} "
                         f"{(cx2 - cx1) / TILE:.6f} {(cy2 - cy1) / TILE:.6f}")
        name = f"{item * per_scene + t:06d}"
        quality = int(rng.integers(40, 96))
        cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (out / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    return per_scene


# ---------------------------------------------------------------------------------------------
# Classifier crops


def _jitter(rng: np.random.Generator, box: tuple[float, float, float, float], shift: float = 0.1,
            size: tuple[float, float] = (0.85, 1.15)) -> tuple[float, float, float, float]:
    """Mimic detector error: shift by up to 10 % and resize by up to 15 % (by default)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-shift, shift) * w
    cy = (y1 + y2) / 2 + rng.uniform(-shift, shift) * h
    w *= rng.uniform(*size)
    h *= rng.uniform(*size)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _overlaps(box, others, limit: float = 0.15) -> bool:
    x1, y1, x2, y2 = box
    for o in others:
        ix = max(0.0, min(x2, o[2]) - max(x1, o[0]))
        iy = max(0.0, min(y2, o[3]) - max(y1, o[1]))
        inter = ix * iy
        if inter > limit * min((x2 - x1) * (y2 - y1), (o[2] - o[0]) * (o[3] - o[1])):
            return True
    return False


def crops_item(args: tuple[str, int, int, int]) -> dict[str, int]:
    """One scene -> up to `per_scene` crops (about 1 in 6 of them `none`); returns counts per class."""
    split, item, per_scene, variants = args
    assert _CONFIG is not None
    rng = _rng("crops", split, item)
    deck = _deck(_deck_for(split, item))
    layout = layouts.KINDS[_choose(rng, CROP_KINDS)](rng, deck.aspect)
    index_px = _log_uniform(rng, *CROP_INDEX_PX)
    sc = _framed_scene(rng, layout, deck, index_px, 640, 200, split)
    # Small indices get milder blur/noise: at 12-20 px full-strength effects make many unreadable,
    # which would teach the classifier label noise rather than robustness.
    strength = float(np.clip(index_px / 25.0, 0.5, 1.0))
    image = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, sc.image, strength), (30, 96))
    h, w = image.shape[:2]
    visible = sc.visible_labels()
    rng.shuffle(visible)
    n_none = max(1, int(round(per_scene / 6)))
    counts: dict[str, int] = {}
    out = Path(_CONFIG.out) / "crops" / split
    written = 0

    def save(cls: str, crop: np.ndarray) -> None:
        nonlocal written
        cv2.imwrite(str(out / cls / f"{item:06d}_{written:02d}.png"), crop)
        counts[cls] = counts.get(cls, 0) + 1
        written += 1

    # Each visible index gives `variants` crops with different box jitter (cheap extra samples).
    for lab in visible[:(per_scene - n_none) // variants]:
        for _ in range(variants):
            save(lab.code, index_crop(image, _jitter(rng, lab.box)))
    # `none`: heavily covered indices, then boxes of index size on card art / pips / table.
    all_boxes = [lab.box for lab in sc.labels if lab.visible >= 0.3]
    covered = [lab for lab in sc.labels if lab.visible < 0.3 and 0 <= lab.box[0] and lab.box[2] <= w
               and 0 <= lab.box[1] and lab.box[3] <= h]
    rng.shuffle(covered)
    nones = 0
    for lab in covered[:n_none // 2]:
        save(NONE_CLASS, index_crop(image, _jitter(rng, lab.box)))
        nones += 1
    ref = [lab.box for lab in sc.labels] or [(0, 0, 40, 60)]
    tries = 0
    while nones < n_none and tries < 50:
        tries += 1
        rb = ref[rng.integers(len(ref))]
        bw, bh = (rb[2] - rb[0]) * rng.uniform(0.7, 1.6), (rb[3] - rb[1]) * rng.uniform(0.7, 1.6)
        if rng.random() < 0.7 and sc.card_polygons:
            poly = sc.card_polygons[rng.integers(len(sc.card_polygons))]
            t = rng.random(2)
            p = poly[0] * (1 - t[0]) * (1 - t[1]) + poly[1] * t[0] * (1 - t[1]) + poly[2] * t[0] * t[1] + poly[3] * (1 - t[0]) * t[1]
            cx, cy = float(p[0]), float(p[1])
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h or _overlaps(box, all_boxes):
            continue
        save(NONE_CLASS, index_crop(image, box))
        nones += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Printed-text `none` crops (part "textcrops"): index-sized boxes on letters and digits of paper
# sheets, so that "A" in a word or "10" in a date is not read as a card index.

TEXT_PER_SHEET = 16
TEXT_CAP_PX = (9.0, 55.0)  # cap height of the body text on the sheet, before the sheet is warped
TEXT_PREFIX = "text_"
TRAP_CHARS = set("AKQJT23456789")
TEXT_BOX_KINDS = [("glyph", 0.42), ("pair", 0.2), ("below", 0.2), ("context", 0.18)]


def _glyph_weight(ch: str) -> float:
    if ch in TRAP_CHARS or ch in "10":
        return 4.0
    if ch.isupper() or ch.isdigit():
        return 2.0
    if ch.isalpha():
        return 1.0
    return 0.3


def _sheet_warp(rng: np.random.Generator, sheet_hw: tuple[int, int], canvas_hw: tuple[int, int], fill: bool) -> np.ndarray:
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


def _text_box(rng: np.random.Generator, sheet: paper.Sheet, glyphs: list, weights: np.ndarray) -> np.ndarray:
    """A 4x2 quad on the sheet around one glyph, a glyph pair, a glyph and what lies below it,
    a letter with a mark, or a loose index-sized window on a text line."""
    if sheet.extras and rng.random() < 0.12:
        return sheet.extras[rng.integers(len(sheet.extras))]
    i = int(rng.choice(len(glyphs), p=weights))
    g = glyphs[i].quad
    (x0, y0), (x1, y1) = g.min(axis=0), g.max(axis=0)
    cap = max(sheet.cap_px, y1 - y0)
    kind = _choose(rng, TEXT_BOX_KINDS)
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


def _text_jitter(rng: np.random.Generator, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Detector-like error on a text box: mostly as for indices, sometimes well off-centre or too big."""
    return _jitter(rng, box) if rng.random() < 0.7 else _jitter(rng, box, 0.35, (0.75, 1.4))


def text_crops_item(args: tuple[str, int, int]) -> int:
    """One paper sheet -> `count` `none` crops around printed / handwritten characters."""
    split, item, count = args
    assert _CONFIG is not None
    rng = _rng("textcrops", split, item)
    cap = _log_uniform(rng, *TEXT_CAP_PX)
    ch = int(np.clip(cap * rng.uniform(8, 16), 160, 560))
    cw = int(np.clip(cap * rng.uniform(8, 16), 160, 560))
    fill = rng.random() < 0.7
    grow = rng.uniform(1.2, 1.5) if fill else rng.uniform(0.5, 0.9)
    sh, sw = max(64, int(ch * grow)), max(64, int(cw * grow))
    sheet = paper.document(rng, fonts.fonts_for(split), sh, sw, cap)
    warp = _sheet_warp(rng, (sh, sw), (ch, cw), fill)
    table = textures.table(rng, ch, cw)
    warped = cv2.warpPerspective(sheet.image, warp, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpPerspective(np.ones((sh, sw), np.float32), warp, (cw, ch), flags=cv2.INTER_LINEAR)
    shadow = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1, 4))
    img = table * (1 - 0.35 * shadow)[:, :, None]
    img = img * (1 - mask[:, :, None]) + warped.astype(np.float32) * mask[:, :, None]
    scale = float(np.sqrt(abs(np.linalg.det(warp[:2, :2]))))
    strength = float(np.clip(cap * scale * 2 / 25.0, 0.5, 1.0))
    image = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, np.clip(img, 0, 255).astype(np.uint8), strength), (30, 96))
    glyphs = [g for g in sheet.glyphs if 0 <= g.quad[:, 0].min() and g.quad[:, 0].max() <= sw
              and 0 <= g.quad[:, 1].min() and g.quad[:, 1].max() <= sh]
    out = Path(_CONFIG.out) / "crops" / split / NONE_CLASS
    written = tries = 0
    if glyphs:
        weights = np.array([_glyph_weight(g.ch) for g in glyphs])
        weights /= weights.sum()
    while written < count:
        tries += 1
        if glyphs and tries < 40 * count:
            quad = cv2.perspectiveTransform(_text_box(rng, sheet, glyphs, weights)[None], warp)[0]
            (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
            size = max(x1 - x0, y1 - y0)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            # Boxes of 12 px and more (the smallest index size), on the paper, with the crop window
            # mostly inside the picture (little replicated border).
            half = 0.7 * size * 0.8
            if (size < 12 or size > 0.8 * min(ch, cw) or not (half <= cx < cw - half and half <= cy < ch - half)
                    or mask[int(cy), int(cx)] < 0.99):
                continue
            box = _text_jitter(rng, (x0, y0, x1, y1))
        else:  # a sheet with no usable glyph (rare): index-sized window anywhere on the paper
            side = cap * scale * rng.uniform(1.2, 2.4)
            cx, cy = rng.uniform(0, cw), rng.uniform(0, ch)
            box = (cx - side * 0.35, cy - side / 2, cx + side * 0.35, cy + side / 2)
        cv2.imwrite(str(out / f"{TEXT_PREFIX}{item:06d}_{written:02d}.png"), index_crop(image, box))
        written += 1
    return written


def generate_text_crops(out: Path, seed: int, count: int, val_fraction: float, workers: int, command: str) -> dict:
    """Write `count` text `none` crops (train + val) into out/crops/{train,val}/none/ and record them in
    out/manifest.json under "text_crops" (other manifest entries are kept). Earlier text crops are
    removed first, so a re-run gives exactly `count`."""
    val_n = int(round(count * val_fraction))
    split_counts = {"train": count - val_n, "val": val_n}
    for split in SPLITS:
        folder = out / "crops" / split / NONE_CLASS
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{TEXT_PREFIX}*.png"):
            old.unlink()
    config = Config(str(out), "", seed, (), ())
    timings, counts = {}, {}
    with _pool(workers, config) as pool:
        for split, n in split_counts.items():
            items = [(split, i, min(TEXT_PER_SHEET, n - i * TEXT_PER_SHEET)) for i in range(math.ceil(n / TEXT_PER_SHEET))]
            t = time.time()
            counts[split] = sum(_run(pool, text_crops_item, items, f"textcrops/{split}"))
            timings[f"textcrops_{split}_s"] = round(time.time() - t, 1)
    used = {split: [{"name": f.name, "family": f.family, "file": f.path or "(OpenCV Hershey)", "version": f.version,
                     "package": f.package, "license": f.licence} for f in fonts.fonts_for(split)] for split in SPLITS}
    licences = sorted({(Path(f.path).parent.name if f.path else "hershey (OpenCV)", f.licence)
                       for split in SPLITS for f in fonts.fonts_for(split)})
    entry = {
        "command": command,
        "seed": seed,
        "counts": counts,
        "timings": timings,
        "workers": workers,
        "fonts": used,
        "font_licences": [f"{name}: {licence}" for name, licence in licences],
        "val_font_families": sorted(fonts.VAL_FAMILIES),
        "notes": f"48x48 `none` crops named {TEXT_PREFIX}<sheet>_<n>.png: index_crop around one character, two "
                 "characters, a character and what lies below it, a letter with a small non-suit mark, or an "
                 f"index-sized window on a text line; body text cap height {TEXT_CAP_PX[0]:.0f}-{TEXT_CAP_PX[1]:.0f} px "
                 "on the sheet, sheet scaled 0.8-1.2 with rotation and perspective, boxes of 12 px or more; "
                 "paper kinds: book page, notes on ruled paper, score sheet, form, calendar, receipt, big letters "
                 "with marks; photo effects and JPEG as for the card crops; fonts split by family",
    }
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {
        "generator_version": GENERATOR_VERSION, "seed": seed, "command": command, "classes": CLASS_NAMES}
    manifest["text_crops"] = entry
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return manifest


# ---------------------------------------------------------------------------------------------
# Full validation scenes


def scene_item(args: tuple[str, int, int]) -> int:
    split, item, _ = args
    assert _CONFIG is not None
    rng = _rng("scenes", split, item)
    deck = _deck(_deck_for(split, item))
    layout = layouts.rows_335(rng, deck.aspect)
    size = _centre_layout(layout)
    w, h = (2000, 1500) if rng.random() < 0.5 else (1500, 2000)
    mode = item % 4
    yaw = [rng.normal(0, 6), 180 + rng.normal(0, 6), rng.choice([90.0, 270.0]) + rng.normal(0, 6), rng.uniform(0, 360)][mode]
    cam = scene.make_camera(rng, size, 100.0, (w, h), elevation_range=(40, 90), yaw=float(yaw))
    # Fit the layout into 60..85 % of the picture.
    pts = np.array([[[c.x + dx, c.y + dy] for c in layout.cards for dx in (-0.5, 0.5) for dy in (-0.6, 0.6)]], np.float64)
    proj = cv2.perspectiveTransform(pts, cam)[0]
    extent = max((proj[:, 0].max() - proj[:, 0].min()) / w, (proj[:, 1].max() - proj[:, 1].min()) / h)
    s = rng.uniform(0.6, 0.85) / extent
    centre = proj.mean(axis=0)
    fit = np.array([[s, 0, w / 2 - s * centre[0]], [0, s, h / 2 - s * centre[1]], [0, 0, 1.0]])
    sc = scene.render_layout(rng, layout, deck, fit @ cam, (w, h), **_text_sheet_args(split))
    image = scene.photo_effects(rng, sc.image, strength=0.7)
    out = Path(_CONFIG.out) / "scenes" / split
    cv2.imwrite(str(out / f"{item:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
    truth = scene_truth(layout, sc)
    truth["deck"] = deck.deck.name
    (out / f"{item:04d}.json").write_text(json.dumps(truth, indent=1))
    return 1


def scene_truth(layout: layouts.Layout, sc: scene.Scene) -> dict:
    cards = []
    for number, placed in enumerate(layout.cards):
        boxes = [[round(v, 1) for v in lab.box] for lab in sc.visible_labels() if lab.card == number]
        cards.append({"code": placed.code, "indices": boxes})
    return {"rows": layout.rows, "cards": cards}


# ---------------------------------------------------------------------------------------------


class _Inline:
    """Stands in for a process pool when one worker is asked for (tests, debugging)."""

    def __init__(self, config: Config) -> None:
        _init(config)

    def imap(self, fn, items, chunksize: int = 1):
        return map(fn, items)

    def __enter__(self) -> "_Inline":
        return self

    def __exit__(self, *exc) -> None:
        return None


def _pool(workers: int, config: Config):
    if workers <= 1:
        return _Inline(config)
    # "spawn", not fork: a forked child can deadlock inside OpenCV when the parent has already used
    # OpenCV's thread pool (seen in the test-suite, which renders in the parent first).
    return get_context("spawn").Pool(workers, initializer=_init, initargs=(config,))


def _run(pool, fn, items: list, label: str) -> list:
    start = time.time()
    results = []
    for i, r in enumerate(pool.imap(fn, items, chunksize=BLOCK // 4)):
        results.append(r)
        if (i + 1) % 200 == 0 or i + 1 == len(items):
            print(f"  {label}: {i + 1}/{len(items)} items, {time.time() - start:.0f} s", flush=True)
    return results


def generate(out: Path, cache: Path, seed: int, tiles: int, crops: int, scenes: int, val_fraction: float,
             train_decks: list[str], val_decks: list[str], workers: int, command: str,
             parts: tuple[str, ...] = ("detect", "crops", "scenes"), text_sheets: float = 0.0) -> dict:
    """Write the dataset; `parts` limits the run to some of detect / crops / scenes (the others are
    left as they are on disk and only counted). text_sheets: chance per scene of a paper sheet with
    text on the table (0 draws nothing and leaves the random streams as before)."""
    render_all(cache, [DECKS_BY_NAME[d] for d in train_decks + val_decks], workers=workers)
    for split in SPLITS:
        (out / "detect" / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "detect" / "labels" / split).mkdir(parents=True, exist_ok=True)
        for cls in CLASS_NAMES:
            (out / "crops" / split / cls).mkdir(parents=True, exist_ok=True)
    (out / "scenes" / "val").mkdir(parents=True, exist_ok=True)
    config = Config(str(out), str(cache), seed, tuple(train_decks), tuple(val_decks), text_sheets)
    tiles_per_scene, crops_per_scene, crop_variants = 3, 36, 2
    timings = {}
    counts: dict = {"detect": {}, "crops": {}, "scenes": {}}
    with _pool(workers, config) as pool:
        for split, frac in (("train", 1 - val_fraction), ("val", val_fraction)):
            if "detect" not in parts:
                counts["detect"][split] = len(list((out / "detect" / "images" / split).glob("*.jpg")))
                continue
            n = int(math.ceil(tiles * frac / tiles_per_scene))
            t = time.time()
            written = _run(pool, detect_item, [(split, i, tiles_per_scene) for i in range(n)], f"detect/{split}")
            timings[f"detect_{split}_s"] = round(time.time() - t, 1)
            counts["detect"][split] = sum(written)
        for split, frac in (("train", 1 - val_fraction), ("val", val_fraction)):
            if "crops" not in parts:
                per_class = {c: len(list((out / "crops" / split / c).glob("*.png"))) for c in CLASS_NAMES}
                counts["crops"][split] = {"total": sum(per_class.values()), "per_class": per_class}
                continue
            n = int(math.ceil(crops * frac / 22))  # a scene yields ~22.5 crops on average (measured on synth-v1)
            t = time.time()
            results = _run(pool, crops_item, [(split, i, crops_per_scene, crop_variants) for i in range(n)],
                           f"crops/{split}")
            timings[f"crops_{split}_s"] = round(time.time() - t, 1)
            per_class: dict[str, int] = {}
            for r in results:
                for k, v in r.items():
                    per_class[k] = per_class.get(k, 0) + v
            counts["crops"][split] = {"total": sum(per_class.values()),
                                      "per_class": {c: per_class.get(c, 0) for c in CLASS_NAMES}}
        if "scenes" in parts:
            t = time.time()
            counts["scenes"]["val"] = sum(_run(pool, scene_item, [("val", i, 0) for i in range(scenes)], "scenes/val"))
            timings["scenes_val_s"] = round(time.time() - t, 1)
        else:
            counts["scenes"]["val"] = len(list((out / "scenes" / "val").glob("*.jpg")))
    (out / "detect" / "data.yaml").write_text(
        f"path: {out.resolve() / 'detect'}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n")
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "command": command,
        "decks": {
            split: [{"name": d, "package": DECKS_BY_NAME[d].package, "license": DECKS_BY_NAME[d].license,
                     "file": str(DECKS_BY_NAME[d].path)} for d in names]
            for split, names in (("train", train_decks), ("val", val_decks))
        },
        "classes": CLASS_NAMES,
        "card_codes": CARD_CODES,
        "counts": counts,
        "timings": timings,
        "workers": workers,
        "parts_generated_by_this_command": list(parts),
        "notes": {
            "detect": f"{TILE}x{TILE} JPEG tiles, YOLO labels class 0 = index, index boxes {TILE_INDEX_PX[0]:.0f}-"
                      f"{TILE_INDEX_PX[1]:.0f} px tall at scene scale (about {CLOSEUP_SHARE:.0%} close-up scenes with "
                      f"{CLOSEUP_INDEX_PX[0]:.0f}-{CLOSEUP_INDEX_PX[1]:.0f} px); labelled where >= 60% of the index is "
                      "uncovered and inside the tile",
            "crops": "48x48 PNG via vision.crops.index_crop, index 12-90 px tall before resizing, box jitter "
                     "+-10% shift, +-15% size; none = covered indices, card art, pips, table",
            "scenes": "rows are canonical: front row (3 cards) at the top of the layout, codes left to right "
                      "in that orientation; the photo may show the layout rotated by any angle",
        },
    }
    if text_sheets:
        manifest["notes"]["text_sheets"] = (f"about {text_sheets:.0%} of scenes have a paper sheet with text (fonts of "
                                            "the split) beside or under the cards; text is never labelled")
    manifest["text_sheets"] = text_sheets
    previous = out / "manifest.json"
    if previous.exists():  # keep the record of text crops written by an earlier --parts textcrops run
        try:
            text_entry = json.loads(previous.read_text()).get("text_crops")
        except ValueError:
            text_entry = None
        if text_entry:
            manifest["text_crops"] = text_entry
    previous.write_text(json.dumps(manifest, indent=1))
    return manifest
