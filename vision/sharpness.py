"""How sharp a photo's card indices look to the classifier: a hint for the player when marks were read unsurely."""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.crops import index_crop

# Median sharpness of the index crops below which a photo whose read left cards unsure is called blurred. Measured
# on every third real edje-multi photo (docs/reader.md): as taken, 10th percentile 28.7 (median 36.7); tilted to 45°,
# 10th percentile 24.3; out of focus median 14.7 (90th percentile 20.8); moved median 20.3; steep and blurred 11.6.
BLURRED_BELOW = 20.0
MIN_CONTRAST = 20.0  # grey levels: a nearly flat crop (no glyph) tells nothing about blur


def crop_sharpness(crop: np.ndarray) -> float | None:
    """The steepest edges of the crop (98th percentile of the grey gradient) per 100 grey levels of its contrast
    (1st to 99th percentile): blur spreads a glyph's edge over more pixels and flattens its steepest gradient, while
    the glyph's shape, ink and light change neither (a sharp step edge scores about 50). None for a nearly flat
    crop."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gradient = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)) / 8.0
    low, high = np.percentile(grey, [1, 99])
    if high - low < MIN_CONTRAST:
        return None
    return float(np.percentile(gradient, 98) / (high - low) * 100.0)


def index_sharpness(image: np.ndarray, boxes: Sequence[Sequence[float]]) -> float | None:
    """Median sharpness of the classifier crops of these index boxes (None without a crop that is not flat). Crops
    are scaled to one size, so an index too small for its pixels scores as blurred too: the advice to retake closer
    holds for both."""
    scores = [score for score in (crop_sharpness(index_crop(image, box)) for box in boxes) if score is not None]
    return float(np.median(scores)) if scores else None
