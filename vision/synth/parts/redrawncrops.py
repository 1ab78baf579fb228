"""Corner crops of the French train decks with their rank redrawn, for the index-glyph check (vision.glyphs): in a
face's upright index the rank's ink (the rows above the gap over the suit pip) is painted over in the card's paper
colour, and a rank is typeset in its place, in its ink colour and height, in a font of the split: another letter
("unknown": lettercrops.UNKNOWN_RANKS) or a French rank ("known"). Both sides keep the real deck's paper, suit pip,
frame and the same erase-and-redraw, so neither deck look nor redraw artefact tells them apart: only the glyph does.
Crops are cut by letterdecks' drawing (turned, on a table, photo effects, JPEG, box jitter). The held-out German
decks (berlin, rheinland, lattmann) and the val decks are never used.

`python -m vision.synth.parts.redrawncrops --out FILE.npz --count N [--split train|val] [--seed S] [--cache DIR]
[--court-share F]`
writes N crops (half known) as `crops`, `known`, `ranks` ('deck/code/drawn rank'), as lettercrops does."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.synth import fonts
from vision.synth.parts.fontcrops import CROSSED_SEVEN_SHARE, _crossbar
from vision.synth.parts.letterdecks import WIDENED_SHARE, corner_crop, french_faces
from vision.synth.parts.lettercrops import SEED_STREAMS, UNKNOWN_RANKS, crops_parser, save_crops

FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# the court letters of real decks that are not French (German B D, Dutch V H, Spanish S C R, tarot F P D): drawn for
# `court_share` of the unknown crops, the other letters of UNKNOWN_RANKS for the rest
COURT_LETTERS = ("B", "D", "U", "V", "H", "S", "C", "R", "F", "P")
INK_DARKNESS = 60  # a pixel is ink where it is this much darker (its darkest channel) than the paper
Box = tuple[float, float, float, float]


def rank_and_suit(face: np.ndarray, box: Box) -> tuple[tuple[int, ...], tuple[int, ...], np.ndarray] | None:
    """(rank's ink box, suit pip's ink box, ink mask of the index box) in face pixels: the rank is the ink rows above
    the widest blank band in the index (the gap over the pip); None where the index shows no such band."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    region = face[y1:y2, x1:x2, :3].astype(int)
    if region.size == 0:
        return None
    paper = paper_colour(face, box)
    ink = (paper.min() - region.min(axis=2) > INK_DARKNESS) | (np.abs(region - paper).max(axis=2) > 2 * INK_DARKNESS)
    rows = np.flatnonzero(ink.sum(axis=1) > 0)
    if len(rows) < 4:
        return None
    gaps = np.diff(rows)
    widest = int(np.argmax(gaps))
    if gaps[widest] < 2:
        return None
    split = rows[widest] + 1
    rank_mask, suit_mask = ink.copy(), ink.copy()
    rank_mask[split:], suit_mask[:split] = False, False
    boxes = []
    for mask in (rank_mask, suit_mask):
        ys, xs = np.nonzero(mask)
        boxes.append((x1 + int(xs.min()), y1 + int(ys.min()), x1 + int(xs.max()) + 1, y1 + int(ys.max()) + 1))
    rank_box, suit_box = boxes
    if rank_box[3] - rank_box[1] < 6 or suit_box[3] - suit_box[1] < 4:
        return None
    return rank_box, suit_box, rank_mask


def paper_colour(face: np.ndarray, box: Box) -> np.ndarray:
    """The card's paper (BGR) around an index: the brightest common colour of the box's pixels."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    pixels = face[y1:y2, x1:x2, :3].reshape(-1, 3).astype(int)
    bright = pixels[pixels.sum(axis=1) >= np.percentile(pixels.sum(axis=1), 60)]
    return np.median(bright, axis=0)


def redrawn(rng: np.random.Generator, face: np.ndarray, box: Box, text: str, split: str
            ) -> tuple[np.ndarray, Box, Box, Box] | None:
    """(a copy of the BGRA face with its index's rank replaced by `text`, the new index box, the new rank's box, the
    suit pip's box, untouched) or None where the rank cannot be told from the pip."""
    found = rank_and_suit(face, box)
    if found is None:
        return None
    (rx1, ry1, rx2, ry2), suit_box, rank_mask = found
    x1, y1 = int(round(box[0])), int(round(box[1]))
    out = face.copy()
    paper = paper_colour(face, box)
    ink_pixels = face[y1:y1 + rank_mask.shape[0], x1:x1 + rank_mask.shape[1], :3][rank_mask].astype(int)
    ink = np.median(ink_pixels[ink_pixels.sum(axis=1) <= np.percentile(ink_pixels.sum(axis=1), 40)], axis=0)
    gap = suit_box[1] - ry2
    grow = max(1, min(3, (gap - 1) // 2))  # the anti-aliased rim, never reaching the pip
    erase = cv2.dilate(rank_mask.astype(np.uint8), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)).astype(bool)
    erase[suit_box[1] - y1:] = False
    window = out[y1:y1 + erase.shape[0], x1:x1 + erase.shape[1]]
    window[erase, :3] = paper.astype(np.uint8)
    faces = fonts.ttf_fonts_for(split)
    tt = fonts.load_truetype(faces[int(rng.integers(len(faces)))].path)
    height = ry2 - ry1
    glyphs = fonts.text_outlines(tt, text, 1.0, rng.uniform(0.8, 1.2), 0.0, rng.uniform(0.85, 1.05))
    (gx0, gy0), (gx1, gy1) = fonts.outlines_bounds(glyphs)
    scale = height / max(gy1 - gy0, 1e-6)
    width = (gx1 - gx0) * scale
    left = (rx1 + rx2) / 2 - width / 2
    glyphs = [[(p - [gx0, gy0]) * scale + [left, ry1] for p in g] for g in glyphs]
    if text == "7" and rng.random() < CROSSED_SEVEN_SHARE:  # as fontcrops: continental decks cross the 7's stem
        glyphs.append([_crossbar(rng, [p - [left, ry1] for p in glyphs[0]], height, width) + [left, ry1]])
    bgr = np.ascontiguousarray(out[..., :3])
    weight = height * rng.uniform(0.02, 0.06) if rng.random() < 0.4 else 0.0
    for g in glyphs:
        if g:
            fonts.fill_outline(bgr, g, tuple(int(v) for v in ink), weight)
    out[..., :3] = bgr
    new_rank = (left, float(ry1), left + width, float(ry2))
    new_box = (min(new_rank[0], suit_box[0]), min(new_rank[1], suit_box[1]),
               max(new_rank[2], suit_box[2]), max(new_rank[3], suit_box[3]))
    return out, new_box, new_rank, tuple(map(float, suit_box))


def redrawn_crops(count: int, split: str, seed: int, cache: Path, untouched_share: float = 0.2,
                  court_share: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` crops, known and unknown in turn: (crops, known, ranks as 'deck/code/drawn'); of the known ones,
    `untouched_share` are the deck's own index (not redrawn); of the unknown ones, `court_share` get COURT_LETTERS."""
    rng = np.random.default_rng([seed, SEED_STREAMS[split], 23])
    faces = list(french_faces(cache, 20, rng).items())
    if not faces:
        raise SystemExit(f"no French train decks rendered in {cache} (python -m vision.synth renders them)")
    crops, known, names = [], [], []
    while len(crops) < count:
        is_known = len(crops) % 2 == 0
        name, (face, box) = faces[int(rng.integers(len(faces)))]
        if is_known and rng.random() < untouched_share:
            drawn, text = (face, box), ""
        else:
            choices = FRENCH_RANKS if is_known else (COURT_LETTERS if court_share > 0 and rng.random() < court_share
                                                                     else UNKNOWN_RANKS)
            text = choices[int(rng.integers(len(choices)))]
            made = redrawn(rng, face, box, text, split)
            if made is None:
                continue
            drawn = made[:2]
        face_used, (x1, y1, x2, y2) = drawn
        if rng.random() < WIDENED_SHARE:  # as letterdecks: the detector's box on some decks takes in more
            x2 = x1 + (x2 - x1) * rng.uniform(1.3, 3.0)
        crops.append(corner_crop(rng, face_used, (x1, y1, x2, y2)))
        known.append(is_known)
        names.append(f"{name}/{text}")
    return np.stack(crops), np.array(known), np.array(names)


def main(argv: list[str] | None = None) -> int:
    parser = crops_parser("vision.synth.parts.redrawncrops", __doc__, 20000, cache=True)
    parser.add_argument("--court-share", type=float, default=0.0, help="share of unknown crops with court letters")
    args = parser.parse_args(argv)
    return save_crops(args.out, *redrawn_crops(args.count, args.split, args.seed, args.cache,
                                               court_share=args.court_share))


if __name__ == "__main__":
    raise SystemExit(main())
