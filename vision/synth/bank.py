"""Card faces ready for composing: RGBA faces at a few resolutions plus their index outlines."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES
from vision.synth.decks import Deck, load_face
from vision.synth.indices import find_deck_indices

LEVELS = 4  # face pyramid: 720, 360, 180, 90 px tall; warps pick a level near the target size
# Finding a deck's index boxes takes ~4 s and each generator worker loads decks again and again (a few at a time),
# so the boxes are kept beside the faces, with a fingerprint of the pixels they were found on.
INDEX_BOXES_FILE = "index_boxes.json"
SPECK_SHARE = 0.02  # ink blobs under this share of an index's largest one are left out of its outline


@dataclass
class Face:
    code: str
    pyramid: list[np.ndarray]  # RGBA uint8 faces, one per level (halving each time)
    hulls: list[np.ndarray]  # per index: (N, 2) float32 outline points of the index ink, level-0 coords
    boxes: list[tuple[int, int, int, int]]

    @property
    def size(self) -> tuple[int, int]:
        h, w = self.pyramid[0].shape[:2]
        return w, h


@dataclass
class DeckFaces:
    deck: Deck
    faces: dict[str, Face] = field(default_factory=dict)
    four_colour: bool = False  # diamonds printed blue and clubs green (vision.synth.four_colour)

    @property
    def aspect(self) -> float:
        w, h = next(iter(self.faces.values())).size
        return w / h


def _rounded_alpha(h: int, w: int, radius: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius), (w - 1 - radius, h - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1, lineType=cv2.LINE_AA)
    return mask


def _paper_around(face: np.ndarray, box: tuple[int, int, int, int], margin: int = 4) -> np.ndarray:
    """The paper's colour beside an index: the median of a ring `margin` px wide around its box (a strip on one side
    alone can be a big pip's ink); white where the box fills the face."""
    x1, y1, x2, y2 = box
    h, w = face.shape[:2]
    left, top = max(0, x1 - margin), max(0, y1 - margin)
    window = face[top:min(h, y2 + margin), left:min(w, x2 + margin), :3]
    outside = np.ones(window.shape[:2], bool)
    outside[y1 - top:y2 - top, x1 - left:x2 - left] = False
    around = window[outside]
    return np.median(around, axis=0) if len(around) else np.array([255, 255, 255])


def _index_hull(face: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x1, y1, x2, y2 = box
    # Ink pixels of the index: darker or more saturated than the paper around them.
    patch = face[y1:y2, x1:x2, :3].astype(np.int16)
    ink = (np.abs(patch - _paper_around(face, box)).max(axis=2) > 60).astype(np.uint8)
    # Specks are no index: a cut-out photo's shade at the card's own corner (real_phone's 6H) stretched the outline
    # to that corner. A glyph's own parts (a 10's 1, a Q's tail) are far bigger than SPECK_SHARE of the largest.
    count, parts, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count > 2:
        areas = stats[1:, cv2.CC_STAT_AREA]
        specks = 1 + np.flatnonzero(areas < SPECK_SHARE * areas.max())
        ink[np.isin(parts, specks)] = 0
    ys, xs = np.nonzero(ink)
    if len(xs) < 3:
        pts = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
    else:
        pts = cv2.convexHull(np.stack([xs + x1, ys + y1], axis=1).astype(np.float32)).reshape(-1, 2)
        # Hull of pixel centres: widen by half a pixel so the box covers whole pixels.
        pts = pts + np.sign(pts - pts.mean(axis=0)) * 0.5
    return pts.astype(np.float32)


def faces_fingerprint(raw: dict[str, np.ndarray]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for code in sorted(raw):
        digest.update(code.encode() + str(raw[code].shape).encode())
        digest.update(np.ascontiguousarray(raw[code]).data)
    return digest.hexdigest()


def cached_index_boxes(folder: Path, raw: dict[str, np.ndarray], other_corners: bool = False
                       ) -> dict[str, list[tuple[int, int, int, int]]]:
    """find_deck_indices(raw, other_corners), read from folder/INDEX_BOXES_FILE when it was saved for these very
    pixels, else found and saved there (skipped where the folder cannot be written)."""
    path = folder / INDEX_BOXES_FILE
    fingerprint = faces_fingerprint(raw)
    try:
        saved = json.loads(path.read_text())
        if saved["faces"] == fingerprint and set(saved["boxes"]) == set(raw):
            return {code: [tuple(int(v) for v in box) for box in boxes] for code, boxes in saved["boxes"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        pass
    boxes = find_deck_indices(raw, other_corners)
    try:
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # workers may save at once: replace is atomic
        partial.write_text(json.dumps({"faces": fingerprint, "boxes": {
            code: [[int(v) for v in box] for box in pair] for code, pair in boxes.items()}}))
        partial.replace(path)
    except OSError:
        pass
    return boxes


def load_deck_faces(cache_dir: Path, deck: Deck) -> DeckFaces:
    raw = {code: load_face(cache_dir, deck, code) for code in CARD_CODES}
    boxes = cached_index_boxes(cache_dir / deck.name, raw, other_corners=deck.corners == 4)
    result = DeckFaces(deck)
    for code, image in raw.items():
        h, w = image.shape[:2]
        alpha = np.minimum(image[:, :, 3], _rounded_alpha(h, w, int(round(0.05 * w))))
        rgba = np.dstack([image[:, :, :3], alpha])
        pyramid = [rgba]
        for _ in range(LEVELS - 1):
            prev = pyramid[-1]
            pyramid.append(cv2.resize(prev, (prev.shape[1] // 2, prev.shape[0] // 2), interpolation=cv2.INTER_AREA))
        # each corner's outline from its own ink: the first turned half round onto the face missed the second index
        # on decks not printed point-symmetric (kde_jolly_royal: under IoU 0.7 on 43 of 52 faces), and an outline
        # moved from another corner kept that corner's size (docs/synth.md@538d56c, camera and rendering)
        hulls = [_index_hull(image, box) for box in boxes[code]]  # top-left, bottom-right, then any other corners
        result.faces[code] = Face(code, pyramid, hulls, list(boxes[code]))
    return result
