"""Part "fontcrops": card-index crops drawn from the system's TrueType fonts, so the classifier sees many
more index fonts than the installed decks have. Runs on its own (no decks), into fontcrops/<split>/<code>/.

Each crop is one corner index: the rank (2-9, "10", J, Q, K, A) in a font of the split with the suit
symbol (a font of the split that has U+2660-2666) below it or to its right, red or near-black, on an
off-white card with its rounded corner, and on court cards often a frame line, in view. The whole
index is turned by any angle, then gets the card crops' photo effects and JPEG, and is cut with
vision.crops.index_crop around the tight box of rank + suit with the usual box jitter."""
from __future__ import annotations

import math
import time
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES, index_crop
from vision.synth import fonts, scene, textures
from vision.synth.parts.draws import jitter, log_uniform
from vision.synth.parts.manifest import record_entry
from vision.synth.parts.pool import make_pool, run_items
from vision.synth.parts.worker import SPLITS, Config, config, item_rng

FOLDER = "fontcrops"
PREFIX = "font_"
RANK_CAP_PX = (8.0, 40.0)  # rank height; the whole index is then ~14-90 px tall, as in the card crops
SUIT_CHARS = fonts.CARD_SUIT_CHARS
COURT = "JQK"
CROSSED_SEVEN_SHARE = 0.5  # continental European decks cross the 7's stem (e.g. the neoclassical deck)
NOTES = (f"48x48 crops named <split>/<code>/{PREFIX}<item>.png, codes in turn (even over the 52): rank in a "
         "TrueType face of the split (val = other font families), suit symbol 0.6-1.0 x rank height below the "
         "rank (80 %) or right of it, red (H, D) or near-black (S, C) on an off-white card, card corner and "
         "on court cards often a frame line in view; width 0.75-1.3, shear on 30 %, faux bold on 30 %; "
         f"{CROSSED_SEVEN_SHARE:.0%} of sevens with a bar across the stem; any "
         "angle, photo effects and JPEG as the card crops; index_crop around the tight rank+suit box with "
         "+-10% shift, +-15% size jitter")


def _suit_fonts(split: str) -> tuple[fonts.FontInfo, ...]:
    """Faces of the split that draw the card suits right (fonts.draws_card_suits; since session 31, which found
    FreeSerif Bold's spade and club swapped), else any such face."""
    return fonts.suit_faces_for(split) or tuple(f for f in fonts.all_fonts()
                                                if f.kind == "ttf" and fonts.draws_card_suits(f.path))


def _ink(rng: np.random.Generator, red: bool) -> tuple[int, int, int]:
    """BGR ink: a red of some shade, or black / near-black."""
    if red:
        return int(rng.uniform(0, 70)), int(rng.uniform(0, 60)), int(rng.uniform(150, 235))
    v = rng.uniform(0, 60)
    return tuple(int(np.clip(v + rng.uniform(-8, 8), 0, 255)) for _ in range(3))


def _crossbar(rng: np.random.Generator, glyph: list[np.ndarray], height: float, width: float) -> np.ndarray:
    """A bar across a 7's stem halfway down (the glyph's ink spans 0..width x 0..height, y down)."""
    y = height * rng.uniform(0.45, 0.6)
    crossings = [p[0] + (y - p[1]) * (q[0] - p[0]) / (q[1] - p[1])
                 for poly in glyph for p, q in zip(poly, np.roll(poly, -1, axis=0)) if (p[1] - y) * (q[1] - y) < 0]
    centre = (min(crossings) + max(crossings)) / 2 if crossings else width / 2
    half_w, half_t = width * rng.uniform(0.22, 0.36), height * rng.uniform(0.035, 0.06)
    return np.array([[centre - half_w, y - half_t], [centre + half_w, y - half_t],
                     [centre + half_w, y + half_t], [centre - half_w, y + half_t]])


def _rounded_corner(x0: float, y0: float, radius: float, far: float) -> np.ndarray:
    """A card's top-left rounded corner at (x0, y0), the card reaching `far` right and down."""
    t = np.linspace(np.pi, 1.5 * np.pi, 12)
    arc = np.stack([x0 + radius + radius * np.cos(t), y0 + radius + radius * np.sin(t)], axis=1)
    return np.concatenate([arc, [[x0 + far, y0], [x0 + far, y0 + far], [x0, y0 + far]]])


def index_image(rng: np.random.Generator, code: str, split: str, rank_text: str | None = None
                ) -> tuple[np.ndarray, tuple, float]:
    """A picture of one card corner with the index `code`; returns (BGR image, tight index box, index px).
    `rank_text` prints another rank than the code's (the letters of decks the reader does not know, part
    lettercrops); the code's suit is drawn as usual, and a court's frame is as likely as on a court card."""
    rank, suit = code[0], code[1]
    faces = fonts.ttf_fonts_for(split)
    face = faces[rng.integers(len(faces))]
    suit_faces = _suit_fonts(split)
    suit_face = face if face in suit_faces and rng.random() < 0.6 else suit_faces[rng.integers(len(suit_faces))]
    tt, stt = fonts.load_truetype(face.path), fonts.load_truetype(suit_face.path)
    cap = log_uniform(rng, *RANK_CAP_PX)
    aspect = log_uniform(rng, 0.75, 1.3)
    slant = rng.uniform(-0.25, 0.25) if rng.random() < 0.3 else 0.0
    weight = cap * rng.uniform(0.02, 0.09) if rng.random() < 0.3 else 0.0
    if rank_text is not None:
        rank = "J" if not rank_text.isdigit() else "2"  # frames as likely as on a court card (or a number's)
    text = rank_text if rank_text is not None else "10" if rank == "T" else rank
    rank_glyphs = fonts.text_outlines(tt, text, cap / max(tt.cap_height, 1.0), aspect, slant,
                              rng.uniform(0.85, 1.1))
    (rx0, ry0), (rx1, ry1) = fonts.outlines_bounds(rank_glyphs)
    rank_glyphs = fonts.moved_outlines(rank_glyphs, [-rx0, -ry0])
    rw, rh = rx1 - rx0, ry1 - ry0
    if rank == "7" and rng.random() < CROSSED_SEVEN_SHARE:
        rank_glyphs.append([_crossbar(rng, rank_glyphs[0], rh, rw)])
    # The suit: its ink box scaled to 0.6-1.0 x the rank height, then put below or right of the rank.
    suit_px = rh * rng.uniform(0.6, 1.0)
    s_ch = SUIT_CHARS[suit]
    (bx0, by0), (bx1, by1) = fonts.outlines_bounds([[c for c in stt.contours(s_ch)]])
    s_scale = suit_px / (by1 - by0)
    suit_glyphs = fonts.text_outlines(stt, s_ch, s_scale, aspect * rng.uniform(0.9, 1.1), 0.0, 1.0)
    (sx0, sy0), (sx1, sy1) = fonts.outlines_bounds(suit_glyphs)
    sw = sx1 - sx0
    if rng.random() < 0.8:
        gap = rh * rng.uniform(0.05, 0.35)
        left = (rw - sw) / 2 if rng.random() < 0.7 else rng.uniform(-0.1, 0.1) * rw
        suit_glyphs = fonts.moved_outlines(suit_glyphs, [left - sx0, rh + gap - sy0])
    else:
        gap = rh * rng.uniform(0.05, 0.3)
        top = (rh - suit_px) / 2 if rng.random() < 0.5 else rng.uniform(0, 0.1) * rh
        suit_glyphs = fonts.moved_outlines(suit_glyphs, [rw + gap - sx0, top - sy0])
    (ix0, iy0), (ix1, iy1) = fonts.outlines_bounds(rank_glyphs + suit_glyphs)
    iw, ih = ix1 - ix0, iy1 - iy0
    # Local (index) pixels -> picture: any rotation about the index centre, which lands mid-picture.
    diag = math.hypot(iw, ih)
    side = int(2.2 * diag) + 8
    angle = rng.uniform(0, 2 * math.pi)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    centre = np.array([(ix0 + ix1) / 2, (iy0 + iy1) / 2])

    def place(p: np.ndarray) -> np.ndarray:
        return (p - centre) @ rot.T + side / 2

    img = np.clip(textures.table(rng, side, side), 0, 255).astype(np.uint8)
    card = np.array([rng.uniform(0, 25), rng.uniform(0, 10), 0.0])
    card = tuple(int(v) for v in np.clip(rng.uniform(215, 255) - card, 0, 255))
    margin_x, margin_y = iw * rng.uniform(0.2, 1.2), ih * rng.uniform(0.1, 0.8)
    outline = place(_rounded_corner(ix0 - margin_x, iy0 - margin_y, max(margin_x, margin_y) * rng.uniform(0.5, 1.5), 30 * diag))
    fonts.fill_outline(img, [outline], card)
    if rng.random() < 0.2:  # a thin printed border on the card's edge
        grey = int(rng.uniform(60, 180))
        cv2.polylines(img, [np.round(outline * 8).astype(np.int32)], True, (grey,) * 3, 1, cv2.LINE_AA, shift=3)
    if rng.random() < (0.5 if rank in COURT else 0.03):  # the frame of a court card's picture
        fx, fy = ix1 + iw * rng.uniform(0.1, 0.6), iy0 + ih * rng.uniform(-0.3, 0.5)
        frame = place(np.array([[fx, fy], [fx + 30 * diag, fy], [fx + 30 * diag, fy + 30 * diag], [fx, fy + 30 * diag]]))
        pts = [np.round(frame * 8).astype(np.int32)]
        if rng.random() < 0.3:  # pale picture inside the frame
            cv2.fillPoly(img, pts, tuple(int(v) for v in rng.uniform(190, 250, 3)), cv2.LINE_AA, shift=3)
        colour = tuple(int(v) for v in rng.uniform(0, 200, 3))
        cv2.polylines(img, pts, True, colour, max(1, int(round(cap * rng.uniform(0.04, 0.12)))), cv2.LINE_AA, shift=3)
    ink = _ink(rng, suit in "HD")
    glyphs = [[place(p) for p in g] for g in rank_glyphs + suit_glyphs]
    for g in glyphs:
        if g:
            fonts.fill_outline(img, g, ink, weight)
    (x0, y0), (x1, y1) = fonts.outlines_bounds(glyphs)
    pad = weight / 2
    return img, (x0 - pad, y0 - pad, x1 + pad, y1 + pad), float(ih)


def font_crops_item(args: tuple[str, int]) -> str:
    """One crop of card code CARD_CODES[item % 52]; returns the code."""
    split, item = args
    rng = item_rng("fontcrops", split, item)
    code = CARD_CODES[item % len(CARD_CODES)]
    img, box, index_px = index_image(rng, code, split)
    strength = float(np.clip(index_px / 25.0, 0.5, 1.0))  # milder effects on small indices, as the card crops
    img = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, img, strength), (30, 96))
    path = Path(config().out) / FOLDER / split / code / f"{PREFIX}{item:06d}.png"
    cv2.imwrite(str(path), index_crop(img, jitter(rng, box)))
    return code


def generate_font_crops(out: Path, seed: int, count: int, val_fraction: float, workers: int, command: str) -> dict:
    """Write `count` font crops (train + val, codes in turn) into out/fontcrops/{train,val}/<code>/ and record
    them in out/manifest.json under "font_crops". Earlier font crops are removed first."""
    val_n = int(round(count * val_fraction))
    split_counts = {"train": count - val_n, "val": val_n}
    for split in SPLITS:
        for code in CARD_CODES:
            folder = out / FOLDER / split / code
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob(f"{PREFIX}*.png"):
                old.unlink()
    timings, counts, per_class = {}, {}, {}
    with make_pool(workers, Config(str(out), "", seed, (), ())) as pool:
        for split, n in split_counts.items():
            t = time.time()
            codes = run_items(pool, font_crops_item, [(split, i) for i in range(n)], f"fontcrops/{split}")
            timings[f"fontcrops_{split}_s"] = round(time.time() - t, 1)
            counts[split] = len(codes)
            per_class[split] = {c: codes.count(c) for c in CARD_CODES}
    entry = {"command": command, "seed": seed, "folder": FOLDER, "counts": counts, "per_class": per_class,
             "timings": timings, "workers": workers, **fonts.manifest_record(fonts.ttf_fonts_for), "notes": NOTES}
    return record_entry(out, "font_crops", entry, seed, command)
