"""Unsharp masking for a photo the reader found blurred: it reads such a photo a second time sharpened and keeps
that read when it names more cards surely (vision.reader; figures in docs/reader.md, session 25)."""
from __future__ import annotations

import cv2
import numpy as np

# Chosen on the real edje-multi photos made blurred (`vision evaluate --sets edje-blur`), amount / sigma 0.7 / 1.5,
# 1.0 / 2.0, 1.5 / 2.0, 1.0 / 3.0, 2.0 / 3.0: rank recall 0.899 / 0.902 / 0.900 / 0.901 / 0.900 (0.881 unsharpened),
# precision 0.986 / 0.986 / 0.984 / 0.986 / 0.983 (0.988). Sigma is in working-image pixels (docs/reader.md).
SHARPEN_AMOUNT = 1.0
SHARPEN_SIGMA_PX = 2.0


def unsharp_masked(image: np.ndarray, amount: float = SHARPEN_AMOUNT, sigma: float = SHARPEN_SIGMA_PX) -> np.ndarray:
    """The image with its detail (the image minus a Gaussian blur of it) added `amount` times more; uint8 clipped."""
    if amount < 0 or sigma <= 0:
        raise ValueError(f"unsharp mask needs amount >= 0 and sigma > 0, got {amount} and {sigma}")
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.addWeighted(image, 1.0 + amount, blurred, -amount, 0)
