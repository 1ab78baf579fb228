"""Looking again, closer, at a layout far from the camera: cut the region around the indices found and enlarge it
so that its indices reach the detector's trained size (10–45 px), instead of running the whole photo larger."""
from __future__ import annotations

import cv2
import numpy as np

# The region reaches this many index sizes beyond the indices found (a card is ~4–5 index heights tall, so
# neighbouring cards that were missed are inside it).
MARGIN_INDEX_SIZES = 6.0
# Enlarge so that the median index is about this tall at the detector's input (inside the trained 10–45 px).
TARGET_INDEX_PX = 24.0


def layout_region(boxes: np.ndarray, index_size: float, shape: tuple[int, ...],
                  margin_index_sizes: float = MARGIN_INDEX_SIZES) -> tuple[int, int, int, int]:
    """x1, y1, x2, y2 (image pixels) around index boxes (N,4), `margin_index_sizes` index sizes beyond them,
    clipped to an image of `shape`."""
    margin = margin_index_sizes * index_size
    h, w = shape[:2]
    x1 = int(max(0, boxes[:, 0].min() - margin))
    y1 = int(max(0, boxes[:, 1].min() - margin))
    x2 = int(min(w, boxes[:, 2].max() + margin))
    y2 = int(min(h, boxes[:, 3].max() + margin))
    return x1, y1, x2, y2


def zoomed_region(image: np.ndarray, region: tuple[int, int, int, int], index_size: float,
                  sizes: tuple[int, int]) -> tuple[np.ndarray, float, int]:
    """The region cut out for a second look: the picture (enlarged when the detector input must be larger than
    the region, since the detector never enlarges), its pixels per image pixel, and the detector input long side
    (within `sizes` = (smallest, largest), a multiple of 32) at which indices are about TARGET_INDEX_PX."""
    x1, y1, x2, y2 = region
    crop = image[y1:y2, x1:x2]
    long_side = max(crop.shape[:2])
    wanted = long_side * TARGET_INDEX_PX / max(index_size, 1.0)
    input_side = int(min(max(wanted, sizes[0]), sizes[1])) // 32 * 32
    factor = input_side / long_side
    if factor <= 1.0:
        return crop, 1.0, input_side
    crop = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    return crop, factor, input_side
