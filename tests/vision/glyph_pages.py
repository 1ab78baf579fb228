"""A page of index-like glyphs for testing blur measures and restorations (vision.motion, vision.deblur): real text
edges in many directions and sizes, with no trained model or deck art needed."""
from __future__ import annotations

import cv2
import numpy as np


def glyph_page(seed: int = 3, size: tuple[int, int] = (600, 800)) -> np.ndarray:
    """A light table strewn with dark and red index-like glyphs (height, width `size`), as JPEG would give it back."""
    rng = np.random.default_rng(seed)
    page = np.full((*size, 3), 225, np.uint8)
    for _ in range(120):
        text = str(rng.choice(list("A23456789TJQK")))
        colour = (30, 30, 30) if rng.random() < 0.5 else (40, 40, 190)
        position = (int(rng.integers(0, size[1] - 30)), int(rng.integers(30, size[0])))
        cv2.putText(page, text, position, cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.6, 1.4)), colour, 2,
                    cv2.LINE_AA)
    return cv2.imdecode(cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
