"""Restyled decks: a train deck's faces with every corner index redrawn in another font, for training only.

The installed decks print about a dozen index fonts; the rank confusions left on unseen decks (6/8, A/K, 2/A, Q/4)
are of fonts none of them prints, and font crops alone (index pictures on a plain corner, part fontcrops) did not
carry over to whole photos (models/HISTORY.md@538d56c, session 29). A restyled deck puts the new fonts in context: each
index of a base deck's face is inpainted away and redrawn as rank over suit in one TrueType face of the train split
(fonts.ttf_fonts_for("train"); the val families stay unseen), at the old index's place and height, in the old
index's ink colour, the bottom-right copy turned by 180 degrees. Its index boxes are those of the drawn ink, saved
beside the faces like a rendered deck's. Built into the deck cache once (`build_restyled_deck`); the generator then
uses the faces like any other deck's, and only when asked (`vision.synth --restyled`): the recorded commands of
earlier sets draw what they drew.
"""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES
from vision.synth import fonts
from vision.synth.bank import INDEX_BOXES_FILE, cached_index_boxes, faces_fingerprint
from vision.synth.decks import DECKS_BY_NAME, Deck, DeckError, load_face, render_deck
from vision.synth.indices import INK_THRESHOLD, paper_colour

RESTYLE_SEED = 4217
INK_DIFF = 50  # a pixel this far (max over channels) from the paper colour is old index ink to erase
INK_BOX_DIFF = INK_THRESHOLD  # ... and this far, ink of the new index's box (the index finder's rule)
ERASE_PAD = 3  # px (of the 720 px face) around the old index that are inpainted too: its anti-aliased rim
WINDOW_SHARE = 0.6  # x the box height: ink components cut by the box but running out of this window stay (frames)
RANK_SHARE = (0.5, 0.62)  # rank height / index height; the suit takes the rest less the gap
GAP_SHARE = (0.04, 0.1)
WIDTH_LIMIT = 1.35  # the new index may be at most this times the old index's width ("10" in a wide font is squeezed)
CROSSED_SEVEN_SHARE = 0.3  # decks whose sevens carry a bar (one in three restyled decks)


def _style(deck: Deck) -> dict:
    """The deck's drawing choices, fixed by its number: one rank face, one suit face, proportions, weight."""
    number = int(deck.name.rsplit("_", 1)[1])
    rng = np.random.default_rng([RESTYLE_SEED, number])
    faces = fonts.ttf_fonts_for("train")
    suit_faces = list(fonts.suit_faces_for("train"))
    if not faces or not suit_faces:
        raise DeckError("no TrueType fonts with card suit symbols installed (fonts-dejavu-core)")
    rank_face = faces[rng.integers(len(faces))]
    suit_face = rank_face if rank_face in suit_faces and rng.random() < 0.5 else suit_faces[rng.integers(len(suit_faces))]
    return {"rank_font": rank_face.path, "suit_font": suit_face.path,
            "rank_share": float(rng.uniform(*RANK_SHARE)), "gap_share": float(rng.uniform(*GAP_SHARE)),
            "aspect": float(np.exp(rng.uniform(np.log(0.8), np.log(1.2)))),
            "weight_share": float(rng.uniform(0.02, 0.06)) if rng.random() < 0.3 else 0.0,
            "crossed_seven": bool(rng.random() < CROSSED_SEVEN_SHARE)}


def _glyph_polys(tt: fonts.TrueType, text: str, height: float, aspect: float) -> list[np.ndarray]:
    """Outline polygons of `text` scaled so its ink is `height` px tall, widths times `aspect`, ink box at (0, 0)."""
    (_, top), (_, bottom) = fonts.outlines_bounds(fonts.text_outlines(tt, text, 1.0))
    glyphs = fonts.text_outlines(tt, text, height / max(bottom - top, 1e-6), aspect)
    low, _ = fonts.outlines_bounds(glyphs)
    return [p - low for glyph in glyphs for p in glyph]


def _width(polys: list[np.ndarray]) -> float:
    return float(np.concatenate(polys)[:, 0].max())


def _crossbar(width: float, height: float) -> np.ndarray:
    y, half_t = 0.52 * height, max(0.05 * height, 0.6)
    return np.array([[0.2 * width, y - half_t], [0.85 * width, y - half_t], [0.85 * width, y + half_t],
                     [0.2 * width, y + half_t]])


def index_polys(code: str, box: tuple[int, int, int, int], style: dict) -> list[np.ndarray]:
    """Polygons (face pixels) of a new index for `code` in the top-left box's place: rank over suit, centred on the
    box's middle, as tall as the box, at most WIDTH_LIMIT times as wide."""
    x1, y1, x2, y2 = box
    h, w = y2 - y1, x2 - x1
    rank_tt, suit_tt = fonts.load_truetype(style["rank_font"]), fonts.load_truetype(style["suit_font"])
    rank_h = h * style["rank_share"]
    gap = h * style["gap_share"]
    suit_h = h - rank_h - gap
    rank = _glyph_polys(rank_tt, "10" if code[0] == "T" else code[0], rank_h, style["aspect"])
    if _width(rank) > WIDTH_LIMIT * w:
        rank = [p * [WIDTH_LIMIT * w / _width(rank), 1.0] for p in rank]
    if code[0] == "7" and style["crossed_seven"]:
        rank.append(_crossbar(_width(rank), rank_h))
    suit = _glyph_polys(suit_tt, fonts.CARD_SUIT_CHARS[code[1]], suit_h, 1.0)
    if _width(suit) > WIDTH_LIMIT * w:
        suit = [p * (WIDTH_LIMIT * w / _width(suit)) for p in suit]
    centre = (x1 + x2) / 2
    rank = [p + [centre - _width(rank) / 2, y1] for p in rank]
    suit = [p + [centre - _width(suit) / 2, y1 + rank_h + gap] for p in suit]
    return rank + suit


def _ink_colour(face: np.ndarray, box: tuple[int, int, int, int], paper: np.ndarray) -> tuple[int, int, int]:
    """The old index's ink: the median of its pixels furthest from the paper colour."""
    x1, y1, x2, y2 = box
    patch = face[y1:y2, x1:x2, :3].reshape(-1, 3).astype(np.int16)
    diff = np.abs(patch - paper.astype(np.int16)).max(axis=1)
    if not (diff > INK_DIFF).any():
        return (20, 20, 20)
    strong = patch[diff >= np.percentile(diff[diff > INK_DIFF], 60)]
    return tuple(int(v) for v in np.median(strong, axis=0))


def _old_index_mask(face: np.ndarray, box: tuple[int, int, int, int], paper: np.ndarray
                    ) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """(mask, extent) of the old index: pixels off the paper colour inside the box and its rim, plus whole ink
    components that the box cuts (a suit the index finder cut short where it came near a court picture), but not
    components that run out of a window around the box (frames, pictures); the extent is the box grown to those
    components."""
    h, w = face.shape[:2]
    bh = box[3] - box[1]
    margin = int(WINDOW_SHARE * bh)  # on every side: the bottom-right index is the top-left one turned
    wx1, wy1, wx2, wy2 = max(0, box[0] - margin), max(0, box[1] - margin), min(w, box[2] + margin), min(h, box[3] + margin)
    diff = np.abs(face[wy1:wy2, wx1:wx2, :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    near = np.zeros(diff.shape, bool)
    near[max(0, box[1] - ERASE_PAD - wy1):box[3] + ERASE_PAD - wy1, max(0, box[0] - ERASE_PAD - wx1):box[2] + ERASE_PAD - wx1] = True
    local = (diff > 12) & near
    extent = list(box)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((diff > INK_DIFF).astype(np.uint8), connectivity=8)
    for i in range(1, count):
        x, y, cw, ch, _ = stats[i]
        inside = x > 0 and y > 0 and x + cw < wx2 - wx1 and y + ch < wy2 - wy1
        if inside and (near & (labels == i)).any():
            local |= labels == i
            extent = [min(extent[0], wx1 + x), min(extent[1], wy1 + y), max(extent[2], wx1 + x + cw),
                      max(extent[3], wy1 + y + ch)]
    mask = np.zeros((h, w), np.uint8)
    mask[wy1:wy2, wx1:wx2] = local.astype(np.uint8) * 255
    return cv2.dilate(mask, np.ones((3, 3), np.uint8)), tuple(int(v) for v in extent)


def _erase(face: np.ndarray, box: tuple[int, int, int, int], paper: np.ndarray) -> tuple[int, int, int, int]:
    """Inpaint the old index (_old_index_mask) in place on the BGRA face; returns the box of what was erased."""
    mask, extent = _old_index_mask(face, box, paper)
    face[:, :, :3] = cv2.inpaint(np.ascontiguousarray(face[:, :, :3]), mask, 3, cv2.INPAINT_TELEA)
    return extent


def _ink_box(polys: list[np.ndarray], ink: tuple[int, int, int], weight: float, paper: np.ndarray,
             shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The tight box of the index's ink by the index finder's rule (indices.ink_mask: more than INK_BOX_DIFF off
    the paper colour), drawn alone on paper so no frame or pip nearby widens it: restyled boxes fit like a rendered
    deck's (the outline's bounds plus the anti-aliased rim were about 3 px looser; session 31's detector step lost
    mAP50-95 on them)."""
    h, w = shape[:2]
    pts = np.concatenate(polys)
    (x0, y0), (x1, y1) = pts.min(axis=0) - weight / 2 - 2, pts.max(axis=0) + weight / 2 + 2
    x0, y0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
    x1, y1 = min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
    canvas = np.empty((y1 - y0, x1 - x0, 3), np.uint8)
    canvas[:] = np.round(paper).astype(np.uint8)
    fonts.fill_outline(canvas, [p - [x0, y0] for p in polys], ink, weight)
    diff = np.abs(canvas.astype(np.int16) - canvas[0, 0].astype(np.int16)).max(axis=2)
    ys, xs = np.nonzero(diff > INK_BOX_DIFF)
    if not len(xs):
        return (x0, y0, x1, y1)
    return (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)


def restyle_face(face: np.ndarray, code: str, boxes: list[tuple[int, int, int, int]], style: dict
                 ) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """(the BGRA face with its two indices redrawn, their new boxes [top-left, bottom-right])."""
    out = face.copy()
    paper = paper_colour(face)
    top_left, bottom_right = boxes[0], boxes[1]
    ink = _ink_colour(face, top_left, paper)
    # the new index takes the old one's whole extent (its box may have been cut short)
    top_left, bottom_right = (_erase(out, box, paper) for box in (top_left, bottom_right))
    polys = index_polys(code, top_left, style)
    # the bottom-right copy: the top-left one turned by 180 degrees about the midpoint of the two old indices
    centre_sum = np.array([(top_left[0] + top_left[2] + bottom_right[0] + bottom_right[2]) / 2,
                           (top_left[1] + top_left[3] + bottom_right[1] + bottom_right[3]) / 2])
    turned = [centre_sum - p for p in polys]
    weight = style["weight_share"] * (top_left[3] - top_left[1])
    bgr = np.ascontiguousarray(out[:, :, :3])
    for group in (polys, turned):
        fonts.fill_outline(bgr, group, ink, weight)
    out[:, :, :3] = bgr
    return out, [_ink_box(group, ink, weight, paper, out.shape) for group in (polys, turned)]


def build_restyled_deck(deck: Deck, cache_dir: Path) -> Path:
    """Write the restyled deck's 52 faces, index boxes and done.json into cache_dir/<deck> (skipped when cached)."""
    out = cache_dir / deck.name
    if (out / "done.json").exists():
        return out
    base = DECKS_BY_NAME[deck.file]
    base_dir = render_deck(base, cache_dir)
    raw = {code: load_face(cache_dir, base, code) for code in CARD_CODES}
    base_boxes = cached_index_boxes(base_dir, raw)
    style = _style(deck)
    out.mkdir(parents=True, exist_ok=True)
    faces, boxes = {}, {}
    for code in CARD_CODES:
        faces[code], boxes[code] = restyle_face(raw[code], code, base_boxes[code], style)
        cv2.imwrite(str(out / f"{code}.png"), faces[code])
    written = {code: load_face(cache_dir, deck, code) for code in CARD_CODES}  # the fingerprint of what is read back
    (out / INDEX_BOXES_FILE).write_text(json.dumps({"faces": faces_fingerprint(written), "boxes": {
        code: [[int(v) for v in box] for box in pair] for code, pair in boxes.items()}}))
    (out / "done.json").write_text(json.dumps({"deck": deck.name, "base": base.name, "style": {
        **style, "rank_font": Path(style["rank_font"]).name, "suit_font": Path(style["suit_font"]).name}}))
    return out
