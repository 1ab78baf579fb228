"""Locate the corner index (rank glyph + suit glyph under it) on rendered card faces.

Two steps, because court cards often have a picture frame right next to the index:
1. On the number cards (2..10, plain corners) the top-left index is found by image analysis: pixels
   that differ from the paper colour inside the top-left corner region, grouped into connected
   components; the component nearest the corner is the rank glyph, and components just below it (the
   suit glyph) or beside it (the "0" of "10") are merged in. The union of these boxes over a deck,
   slightly enlarged, is the deck's *index window*.
2. For every card the index box is the tight box around the ink components that lie wholly inside
   the window (components crossing its border are frame lines or picture parts).
The bottom-right index is found the same way on the face turned by 180 degrees.
"""
from __future__ import annotations

from typing import Mapping

import cv2
import numpy as np

Box = tuple[int, int, int, int]  # x1, y1, x2, y2 in face pixels, x2/y2 exclusive
NUMBER_RANKS = "23456789T"
# The top-right and bottom-left indices of a deck printed with four: looked for this share of the index height around
# the top-left index's mirror place; their width and height within OTHER_CORNER_SLACK of the top-left index's.
OTHER_CORNER_PAD = 0.15
OTHER_CORNER_SLACK = 0.25
INK_THRESHOLD = 70.0  # grey levels (max over channels) off the paper colour that count as printed ink


class IndexNotFound(RuntimeError):
    pass


def paper_colour(face: np.ndarray) -> np.ndarray:
    """Median colour of opaque pixels in the top-left corner region (mostly paper)."""
    h, w = face.shape[:2]
    patch = face[int(0.03 * h):int(0.30 * h), int(0.03 * w):int(0.25 * w)]
    opaque = patch[patch[:, :, 3] > 250][:, :3]
    if len(opaque) == 0:
        raise IndexNotFound("no opaque paper pixels")
    return np.median(opaque, axis=0)


def ink_mask(face: np.ndarray, threshold: float = INK_THRESHOLD) -> np.ndarray:
    """Pixels clearly different from the paper colour, excluding the card's outline stroke."""
    h, w = face.shape[:2]
    paper = paper_colour(face)
    diff = np.abs(face[:, :, :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    mask = (diff > threshold) & (face[:, :, 3] > 128)
    # The outline stroke hugs the alpha edge (and follows the rounded corner): drop a band there.
    edge = max(2, int(round(0.02 * w)))
    opaque = (face[:, :, 3] > 128).astype(np.uint8)
    inner = cv2.erode(opaque, np.ones((2 * edge + 1, 2 * edge + 1), np.uint8))
    mask = (mask & (inner > 0)).astype(np.uint8)
    # Frames and picture borders are long straight lines; glyphs never are. Remove such lines so a
    # glyph that touches a frame is not thrown away with it.
    long_h = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, max(3, int(0.25 * w))), np.uint8))
    long_v = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((max(3, int(0.25 * h)), 1), np.uint8))
    lines = cv2.dilate(long_h | long_v, np.ones((3, 3), np.uint8))
    return (mask > 0) & (lines == 0)


def _components(mask: np.ndarray, join: int) -> list[Box]:
    joined = cv2.dilate(mask.astype(np.uint8), np.ones((2 * join + 1, 2 * join + 1), np.uint8)) if join else mask
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined.astype(np.uint8), connectivity=8)
    return [(int(x), int(y), int(x + cw), int(y + ch)) for x, y, cw, ch, _ in stats[1:count]]


def find_number_card_index(face: np.ndarray) -> Box:
    """Top-left index of a card whose corner holds nothing but the index (a number card)."""
    h, w = face.shape[:2]
    mask = ink_mask(face)
    rh, rw = int(0.48 * h), int(0.3 * w)
    region = mask[:rh, :rw]
    comps = [b for b in _components(region, max(1, int(round(0.005 * w))))
             if b[2] < rw - 1 and b[3] < rh - 1 and (b[2] - b[0]) * (b[3] - b[1]) > 0.0002 * w * h]
    if not comps:
        raise IndexNotFound("no glyph components in the corner")
    x1, y1, x2, y2 = min(comps, key=lambda b: b[0] + b[1])  # rank glyph: nearest the corner
    glyph_h, glyph_w = y2 - y1, x2 - x1
    changed = True
    while changed:
        changed = False
        for b in comps:
            if b[0] >= x1 and b[2] <= x2 and b[1] >= y1 and b[3] <= y2:
                continue
            overlaps_x = b[0] < x2 + 0.02 * w and b[2] > x1 - 0.02 * w
            bw, bh = b[2] - b[0], b[3] - b[1]
            # The suit glyph under the rank is no wider than about the rank; a second digit ("10")
            # beside it has the rank's height. Pips next to the index are bigger than both.
            below = b[1] >= y1 and b[1] - y2 < 0.07 * h and overlaps_x and bw <= 1.6 * max(glyph_w, 0.5 * glyph_h)
            beside = (b[0] > x1 and b[0] - x2 < 0.03 * w and abs(b[1] - y1) < 0.02 * h
                      and bh <= 1.2 * glyph_h and abs(b[3] - y1 - glyph_h) < 0.2 * glyph_h)
            if below or beside:
                nx1, ny1, nx2, ny2 = min(x1, b[0]), min(y1, b[1]), max(x2, b[2]), max(y2, b[3])
                if nx2 - nx1 > 0.25 * w or ny2 - ny1 > 0.42 * h:
                    continue
                x1, y1, x2, y2 = nx1, ny1, nx2, ny2
                changed = True
    return _tighten(region, (x1, y1, x2, y2))


def _tighten(mask: np.ndarray, box: Box) -> Box:
    x1, y1, x2, y2 = box
    ys, xs = np.nonzero(mask[y1:y2, x1:x2])
    if len(xs) == 0:
        raise IndexNotFound("empty index box")
    return (x1 + int(xs.min()), y1 + int(ys.min()), x1 + int(xs.max()) + 1, y1 + int(ys.max()) + 1)


def deck_index_window(faces: Mapping[str, np.ndarray]) -> Box:
    """Union of the number cards' top-left index boxes (robust to an odd card), slightly enlarged."""
    boxes = np.array([find_number_card_index(face) for code, face in faces.items() if code[0] in NUMBER_RANKS])
    if len(boxes) < 8:
        raise IndexNotFound("too few number cards to learn the index window")
    h, w = next(iter(faces.values())).shape[:2]
    # Percentiles instead of min/max so one mis-detected card cannot blow the window up.
    x1, y1 = np.percentile(boxes[:, 0], 5), np.percentile(boxes[:, 1], 5)
    x2, y2 = np.percentile(boxes[:, 2], 95), np.percentile(boxes[:, 3], 95)
    mx, my = 0.025 * w, 0.02 * h
    return (int(max(0, x1 - mx)), int(max(0, y1 - my)), int(x2 + mx), int(y2 + my))


def find_top_left_index(face: np.ndarray, window: Box) -> Box:
    """The index box of any card of a deck, given the deck's index window."""
    h, w = face.shape[:2]
    wx1, wy1, wx2, wy2 = window
    mask = ink_mask(face)
    pad = 2
    sub = mask[max(0, wy1 - pad):wy2 + pad, max(0, wx1 - pad):wx2 + pad]
    ox, oy = max(0, wx1 - pad), max(0, wy1 - pad)
    sh, sw = sub.shape
    keep = np.zeros_like(sub)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(sub.astype(np.uint8), connectivity=8)
    for i in range(1, count):
        x, y, cw, ch, area = stats[i]
        # Components running out of the enlarged window on the right or below belong to frames or
        # pictures (the index itself may sit flush against the card edge, so left/top are allowed).
        if x + cw >= sw or y + ch >= sh or area < 3:
            continue
        keep |= labels == i
    box = _tighten(keep, (0, 0, sw, sh))
    return (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)


def rotate_box_180(box: Box, width: int, height: int) -> Box:
    x1, y1, x2, y2 = box
    return (width - x2, height - y2, width - x1, height - y1)


def _top_left_boxes(faces: Mapping[str, np.ndarray]) -> dict[str, Box]:
    window = deck_index_window(faces)
    number_heights = [b[3] - b[1] for code, face in faces.items() if code[0] in NUMBER_RANKS
                      for b in [find_top_left_index(face, window)]]
    typical_height = float(np.median(number_heights))
    result = {}
    for code, face in faces.items():
        x1, y1, x2, y2 = find_top_left_index(face, window)
        if y2 - y1 < 0.8 * typical_height:
            # The suit glyph touched the court picture and was dropped with it: extend the box down
            # to the deck's usual index height (the suit sits in the same place on every card).
            y2 = min(window[3], int(round(y1 + typical_height)))
        result[code] = (x1, y1, x2, y2)
    return result


def find_deck_indices(faces: Mapping[str, np.ndarray], other_corners: bool = False) -> dict[str, list[Box]]:
    """Both index boxes (top-left, bottom-right) of every face of one deck; with `other_corners` (a deck printed with
    four indices) also the top-right and bottom-left ones where a face has them (find_other_corner_indices).

    The bottom-right index is found the same way on the face turned by 180 degrees (decks are not
    always exactly point-symmetric), then mapped back.
    """
    top_left = _top_left_boxes(faces)
    turned = _top_left_boxes({code: cv2.rotate(face, cv2.ROTATE_180) for code, face in faces.items()})
    result = {}
    for code, face in faces.items():
        h, w = face.shape[:2]
        result[code] = [top_left[code], rotate_box_180(turned[code], w, h)]
        if other_corners:
            result[code] += find_other_corner_indices(face, top_left[code])
    return result


def find_other_corner_indices(face: np.ndarray, top_left: Box) -> list[Box]:
    """[top-right, bottom-left] index boxes where the face carries an index in those corners too (decks printed with
    four indices, some real decks' aces), else []: the face mirrored left to right is searched like a top-left
    index, in a window OTHER_CORNER_PAD around the top-left one, and what is found must be about as large as it (on
    other cards the corner there is blank paper, the pips lying further in)."""
    h, w = face.shape[:2]
    x1, y1, x2, y2 = top_left
    pad = int(round(OTHER_CORNER_PAD * (y2 - y1)))
    window = (max(0, x1 - pad), max(0, y1 - pad), min(w, x2 + pad), min(h, y2 + pad))
    try:
        fx1, fy1, fx2, fy2 = find_top_left_index(np.ascontiguousarray(face[:, ::-1]), window)
    except IndexNotFound:
        return []
    if (abs((fy2 - fy1) - (y2 - y1)) > OTHER_CORNER_SLACK * (y2 - y1)
            or abs((fx2 - fx1) - (x2 - x1)) > OTHER_CORNER_SLACK * (x2 - x1)):
        return []
    top_right = (w - fx2, fy1, w - fx1, fy2)
    return [top_right, rotate_box_180(top_right, w, h)]
