"""How sharp a photo's card indices look to the classifier: the measure behind the reader's `photo looks blurred` hint."""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.crops import index_crop
from vision.quantiles import sorted_percentile

# Median sharpness of the index crops below which a photo is called blurred. Measured on every third real edje-multi
# photo (docs/reader.md, session 15): as taken, 5th percentile 20.1 (median 28.9); tilted to 45°, 5th percentile 17.4;
# out of focus median 12.0 (90th percentile 16.1); moved median 15.2 (90th percentile 19.2); steep and blurred 9.4.
BLURRED_BELOW = 16.0
MIN_CONTRAST = 20.0  # grey levels: a nearly flat crop (no glyph) tells nothing about blur
# Edge directions the steepest edge is measured along: a moved camera flattens the edges across its motion only, so the
# steepest edge in any one direction (the gradient's magnitude) misses it; their mean does not.
DIRECTIONS = np.deg2rad(np.arange(0.0, 180.0, 22.5))
_UNIT_VECTORS = np.stack([np.cos(DIRECTIONS), np.sin(DIRECTIONS)], axis=1).astype(np.float32)


def crop_sharpness(crop: np.ndarray) -> float | None:
    """The crop's steepest edges per 100 grey levels of its contrast (1st to 99th percentile): for each of
    DIRECTIONS the 98th percentile of the grey slope along it, averaged over the directions. Blur spreads a glyph's
    edge over more pixels and flattens its steepest slope (a moved camera only across its motion), while the glyph's
    shape, ink and light change neither. None for a nearly flat crop."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ascending = np.sort(grey, axis=None)  # np.percentile(grey, [1, 99]), without its overhead
    low, high = (sorted_percentile(ascending, percent, scalar_q=False) for percent in (1, 99))
    if high - low < MIN_CONTRAST:
        return None
    slope_x = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    slope_y = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    along = np.abs(_UNIT_VECTORS @ np.stack([slope_x.ravel(), slope_y.ravel()]))  # (directions, pixels)
    rank = int(0.98 * (along.shape[1] - 1))  # the 98th percentile by partition: a full sort per direction is 2x slower
    return float(np.partition(along, rank, axis=1)[:, rank].mean() / (high - low) * 100.0)


def index_sharpness(image: np.ndarray, boxes: Sequence[Sequence[float]]) -> float | None:
    """Median sharpness of the classifier crops of these index boxes (None without a crop that is not flat). Crops
    are scaled to one size, so an index too small for its pixels scores as blurred too: the advice to retake closer
    holds for both."""
    scores = [score for score in (crop_sharpness(index_crop(image, box)) for box in boxes) if score is not None]
    return float(np.median(scores)) if scores else None
