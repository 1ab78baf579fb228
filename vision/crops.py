"""The classifier crop rule, shared by the synthetic data generator and the reader.

Both sides must cut crops identically, so the rule lives here once:
centre c = box centre, side s = CROP_SCALE * max(w, h); the square [c - s/2, c + s/2]
(pixels outside the image replicate the border) is resized to CROP_SIZE x CROP_SIZE.
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

CROP_SIZE = 48
CROP_SCALE = 1.4

RANKS = "23456789TJQKA"
SUITS = "SHDC"
# Class id = rank_index * 4 + suit_index: 0 = "2S", 1 = "2H", ..., 51 = "AC".
CARD_CODES: list[str] = [rank + suit for rank in RANKS for suit in SUITS]
NONE_CLASS = "none"
CLASS_NAMES: list[str] = CARD_CODES + [NONE_CLASS]


def index_crop(image: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """Cut the classifier input around an index box (x1, y1, x2, y2) of a BGR uint8 image.

    Returns a CROP_SIZE x CROP_SIZE x 3 BGR uint8 array.
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError("index_crop needs a BGR uint8 image of shape (H, W, 3)")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError("index_crop got an empty image")
    if len(box) != 4:
        raise ValueError("index_crop needs a box (x1, y1, x2, y2)")
    x1, y1, x2, y2 = (float(v) for v in box)
    if not all(np.isfinite([x1, y1, x2, y2])) or x2 <= x1 or y2 <= y1:
        raise ValueError(f"index_crop got an invalid box {tuple(box)}")
    cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
    side = CROP_SCALE * max(x2 - x1, y2 - y1)
    # Integer pixel window; at least one pixel wide.
    left = int(np.floor(cx - side / 2.0))
    top = int(np.floor(cy - side / 2.0))
    size = max(1, int(round(side)))
    h, w = image.shape[:2]
    pad_l, pad_t = max(0, -left), max(0, -top)
    pad_r, pad_b = max(0, left + size - w), max(0, top + size - h)
    # Cut the part inside the image, then replicate its border outwards.
    inner = image[max(0, top):min(h, top + size), max(0, left):min(w, left + size)]
    if inner.size == 0:
        # The window lies wholly outside: replicate the nearest edge pixel.
        yy = int(np.clip(cy, 0, h - 1))
        xx = int(np.clip(cx, 0, w - 1))
        square = np.broadcast_to(image[yy, xx], (size, size, 3)).copy()
    elif pad_l or pad_t or pad_r or pad_b:
        square = cv2.copyMakeBorder(inner, pad_t, pad_b, pad_l, pad_r, cv2.BORDER_REPLICATE)
    else:
        square = inner
    interpolation = cv2.INTER_AREA if size > CROP_SIZE else cv2.INTER_LINEAR
    return np.ascontiguousarray(cv2.resize(square, (CROP_SIZE, CROP_SIZE), interpolation=interpolation))
