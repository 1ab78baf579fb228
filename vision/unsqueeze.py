"""Undoing a steep view's squeeze: a phone tilted toward the table shortens everything along the photo's vertical by
about the sine of its elevation (0.5 at 30°), and indices squeezed flatter than the detector was trained on are
missed or misnamed. The reader looks again at the region of a hand read short (since session 30 also of loose cards
in a photo called blurred), stretched vertically, and maps the readings back with vision.cards.readings_out_of
(vision.reader; figures in docs/reader-decisions.md@538d56c, sessions 26, 27 and 30)."""
from __future__ import annotations

import cv2
import numpy as np

# Chosen on the real edje-multi photos in steep views (`vision evaluate --sets edje-steep`, which reads them as loose
# cards, with every short loose read stretched by an experiment script, /work/notes/stretch_look_s26.py), 1.3 / 1.6 /
# 2.0: rank recall 0.871 / 0.877 / 0.878 (0.854 without), precision 0.980 / 0.982 / 0.980 (0.982).
STRETCH_FACTOR = 1.6


def stretched_vertically(image: np.ndarray, factor: float = STRETCH_FACTOR) -> np.ndarray:
    """The image made `factor` times taller, its width kept."""
    if not factor >= 1.0:
        raise ValueError(f"a vertical stretch needs a factor of 1 or more, got {factor}")
    height = max(1, round(image.shape[0] * factor))
    return cv2.resize(image, (image.shape[1], height), interpolation=cv2.INTER_LINEAR)
