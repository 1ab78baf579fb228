"""Undoing a steep view's squeeze: a phone tilted toward the table shortens everything along the photo's vertical by
about the sine of its elevation (0.5 at 30°), and indices squeezed flatter than the detector was trained on are
missed or misnamed. The reader looks again at the region of a hand read short, stretched vertically, and maps the
readings back (vision.reader; figures in docs/reader.md, sessions 26 and 27)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.cards import IndexReading

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


def into_stretched(readings: list[IndexReading], origin: tuple[int, int], factor: float) -> list[IndexReading]:
    """Readings of an image, their boxes moved into its region starting at `origin` (x, y) stretched_vertically by
    `factor`."""
    x, y = origin
    return [IndexReading((r.box[0] - x, (r.box[1] - y) * factor, r.box[2] - x, (r.box[3] - y) * factor), r.code,
                         r.probability, r.detector_score) for r in readings]


def out_of_stretched(readings: list[IndexReading], origin: tuple[int, int], factor: float) -> list[IndexReading]:
    """Readings of a region starting at `origin` (x, y) stretched_vertically by `factor`, their boxes moved back to
    the image the region was cut from (into_stretched undone)."""
    x, y = origin
    return [IndexReading((r.box[0] + x, r.box[1] / factor + y, r.box[2] + x, r.box[3] / factor + y), r.code,
                         r.probability, r.detector_score) for r in readings]
