"""Corner crops of real decks for the index-glyph check (vision.glyphs): "unknown" from the courts and aces of Debian's
decks whose letters are not French (tarocco: F, D, R; ancient_french: 1, V, D, R; slavic_costumes: Cyrillic В, Д
and Т for the ace), "known" from the French train decks' faces in the deck cache, both cut by the same drawing (any
angle, 12-70 px indices, a table around the card, the photo effects and JPEG of the crops, box jitter), so the check
learns the letters and not how a deck looks. The German decks of the unknown-deck set (berlin, rheinland, lattmann)
are never used: they are its held-out test.

`python -m vision.synth.parts.letterdecks --out FILE.npz --count N [--seed S] [--cache DIR]` writes N crops (half
known) as `crops`, `known`, `ranks` (the deck and code), as vision.synth.parts.lettercrops does."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.crops import index_crop
from vision.synth import scene, textures
from vision.synth.bank import INDEX_BOXES_FILE
from vision.synth.decks import CARD_HEIGHT, DECKS, DECKS_BY_NAME, DEFAULT_VAL, _render_element, _trim_alpha
from vision.synth.parts.draws import jitter, log_uniform
from vision.synth.parts.lettercrops import crops_parser, save_crops

# deck -> the ranks whose index is no French letter (slavic_costumes' king prints К, a king's letter: left out)
OTHER_LETTER_DECKS = {"tarocco": "JQK", "ancient_french": "AJQK", "slavic_costumes": "JQA"}
HELD_OUT_DECKS = ("berlin", "rheinland", "lattmann")  # the unknown-deck set's decks: never drawn here
FACE_HEIGHT = CARD_HEIGHT // 2
INDEX_PX = (12.0, 70.0)
# the share of crops whose box is widened to the right, known and unknown alike: on the decks with a big pip beside
# the letter (tarocco, and the German decks) the detector's box takes in both, and the classifier sees the pair
WIDENED_SHARE = 0.5


def other_letter_faces() -> dict[str, np.ndarray]:
    """'deck/code' -> BGRA face (FACE_HEIGHT tall) of each court or ace of OTHER_LETTER_DECKS (rsvg-convert)."""
    faces = {}
    for name, ranks in OTHER_LETTER_DECKS.items():
        deck = DECKS_BY_NAME[name]
        zoom = FACE_HEIGHT / _trim_alpha(_render_element(deck, deck.element_id("AS"), 1.0)).shape[0]
        for code in (rank + suit for rank in ranks for suit in "SHDC"):
            faces[f"{name}/{code}"] = _trim_alpha(_render_element(deck, deck.element_id(code), zoom))
    return faces


def top_left_index(face: np.ndarray, width_share: float = 0.13, height_share: float = 0.3) -> tuple[int, ...]:
    """The box of the ink in a face's top-left corner (letter and small suit; the big pip beside them starts further
    right on these decks)."""
    h, w = face.shape[:2]
    region = face[:int(h * height_share), :int(w * width_share)]
    ink = (region[..., 3] > 128) & (region[..., :3].astype(int).min(axis=2) < 150)
    ys, xs = np.nonzero(ink)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def french_faces(cache: Path, count_per_deck: int, rng: np.random.Generator) -> dict[str, tuple[np.ndarray, tuple]]:
    """'deck/code' -> (BGRA face at FACE_HEIGHT, its first index box) of cached French train decks, a few cards each."""
    faces = {}
    for deck in DECKS:
        folder = cache / deck.name
        if deck.name in DEFAULT_VAL or deck.name in HELD_OUT_DECKS or not (folder / INDEX_BOXES_FILE).is_file():
            continue
        boxes = json.loads((folder / INDEX_BOXES_FILE).read_text())["boxes"]
        for code in rng.choice(sorted(boxes), size=min(count_per_deck, len(boxes)), replace=False):
            face = cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
            if face is None or face.ndim != 3 or face.shape[2] != 4 or not boxes[code]:
                continue
            scale = FACE_HEIGHT / face.shape[0]
            face = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            faces[f"{deck.name}/{code}"] = (face, tuple(v * scale for v in boxes[code][0]))
    return faces


def corner_crop(rng: np.random.Generator, face: np.ndarray, box: tuple) -> np.ndarray:
    """One 48 x 48 crop of the face's index `box`: scaled to 12-70 px, on a table, turned, photo effects, JPEG."""
    x1, y1, x2, y2 = box
    scale = log_uniform(rng, *INDEX_PX) / max(y2 - y1, x2 - x1)
    face = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    cx, cy = (x1 + x2) / 2 * scale, (y1 + y2) / 2 * scale
    half = int(2.2 * max(x2 - x1, y2 - y1) * scale) + 8
    canvas = np.clip(textures.table(rng, 2 * half, 2 * half), 0, 255)
    left, top = int(round(cx)) - half, int(round(cy)) - half
    fh, fw = face.shape[:2]
    sx1, sy1, sx2, sy2 = max(0, left), max(0, top), min(fw, left + 2 * half), min(fh, top + 2 * half)
    part = face[sy1:sy2, sx1:sx2].astype(np.float32)
    alpha = part[..., 3:] / 255.0
    window = canvas[sy1 - top:sy2 - top, sx1 - left:sx2 - left]
    canvas[sy1 - top:sy2 - top, sx1 - left:sx2 - left] = part[..., :3] * alpha + window * (1 - alpha)
    angle = rng.uniform(0, 360)
    turn = cv2.getRotationMatrix2D((half, half), angle, 1.0)
    image = cv2.warpAffine(canvas.astype(np.uint8), turn, (2 * half, 2 * half), borderMode=cv2.BORDER_REFLECT)
    corners = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]) * scale - [left, top]
    corners = corners @ turn[:, :2].T + turn[:, 2]
    turned_box = (*corners.min(axis=0), *corners.max(axis=0))
    strength = float(np.clip((turned_box[3] - turned_box[1]) / 25.0, 0.5, 1.0))
    image = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, image, strength), (30, 96))
    return index_crop(image, jitter(rng, turned_box))


def letter_deck_crops(count: int, seed: int, cache: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` crops, known and unknown in turn: (crops, known, ranks as 'deck/code')."""
    rng = np.random.default_rng([seed, 17])
    unknown = [(name, face, top_left_index(face)) for name, face in other_letter_faces().items()]
    known = [(name, face, box) for name, (face, box) in french_faces(cache, 12, rng).items()]
    crops, is_known, names = [], [], []
    for item in range(count):
        pool = known if item % 2 == 0 else unknown
        name, face, box = pool[int(rng.integers(len(pool)))]
        if rng.random() < WIDENED_SHARE:  # the detector's box on such decks also takes in the big pip beside
            x1, y1, x2, y2 = box
            box = (x1, y1, x1 + (x2 - x1) * rng.uniform(1.3, 3.0), y2)
        crops.append(corner_crop(rng, face, box))
        is_known.append(item % 2 == 0)
        names.append(name)
    return np.stack(crops), np.array(is_known), np.array(names)


def main(argv: list[str] | None = None) -> int:
    args = crops_parser("vision.synth.parts.letterdecks", __doc__, 8000, split=False, cache=True).parse_args(argv)
    return save_crops(args.out, *letter_deck_crops(args.count, args.seed, args.cache))


if __name__ == "__main__":
    raise SystemExit(main())
