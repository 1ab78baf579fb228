"""Coloured light: measure the cast on the cards' paper and white-balance the photo to it.

Under a strong coloured light (a red or deep blue lamp) the classifier named red indices black, surely: the webcam
deck's dull red diamonds read as spades without any warning (session 46, docs/reader-decisions.md@538d56c "coloured light").
The reader then reads the photo again balanced to its paper, so the inks are the cards' own again. The paper is
measured where the first read found indices: their lightest pixels, whatever their colour (vision.inks keeps only
near-grey paper, which a strong cast is not).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import cv2
import numpy as np

from vision.inks import box_middle
from vision.quantiles import median_colour, sorted_percentile

PAPER_SHARE = 20  # percent: an index box's lightest pixels (by the sum of their channels) are its paper...
# ...where they are at least this much brighter than its darkest ones (its glyph): a box of one colour shows no paper
MIN_GLYPH_CONTRAST = 1.5
# Marks read less surely than this may be art or text, not an index on the card's paper
PAPER_MIN_PROBABILITY = 0.3
# A photo whose paper's weakest channel is under this share of its strongest is read again balanced. Photos as taken
# stay above it (edje-multi's lowest 0.61); a green lamp's paper measures ~0.56 (at 0.5 a four-colour deck's diamonds
# were named spades under it without any warning), and so does much of edje-light's warm lamp (0.177 of its views
# balanced at 0.6, every read as before); docs/reader-decisions.md@538d56c "coloured light" (session 48).
CAST_MIN_RATIO = 0.6
# ...and balanced so far only: its weak channels raised to this share of its strongest, the balance of photos as taken
# (edje-multi's papers 0.76-0.99 between their 5th and 95th percentiles). Raised all the way to grey, one sideways ace
# read as a sure 4D in three lamps' views (session 46; at 0.8 it reads right, and no photo of the sets is newly read
# wrong without a warning).
BALANCE_TARGET_RATIO = 0.8
MIN_PAPER_LEVEL = 40.0  # the paper's strongest channel: darker than this, there is nothing to balance to


def paper_colour(image: np.ndarray, boxes: Iterable[Iterable[float]]) -> np.ndarray | None:
    """The cards' paper (BGR, float): the median over the index boxes of the median colour of each box's lightest
    PAPER_SHARE % in its middle; None when no box is large enough to measure or shows a glyph on paper."""
    papers = []
    for window in (box_middle(box, image.shape) for box in boxes):
        if window is None:
            continue
        x1, y1, x2, y2 = window
        pixels = image[y1:y2, x1:x2].reshape(-1, 3)
        brightness = pixels.sum(axis=1, dtype=np.int32)
        ascending = np.sort(brightness)
        dark, light = (sorted_percentile(ascending, share) for share in (PAPER_SHARE, 100 - PAPER_SHARE))
        if light < MIN_GLYPH_CONTRAST * max(float(dark), 1.0):
            continue
        papers.append(median_colour(pixels[brightness >= light]))
    return np.median(papers, axis=0) if papers else None


def cast_ratio(paper: np.ndarray) -> float:
    """The paper's weakest channel as a share of its strongest: 1 under white light."""
    return float(paper.min() / max(float(paper.max()), 1.0))


def shows_cast(paper: np.ndarray | None) -> bool:
    """Whether the paper shows a cast strong enough to read the photo again balanced."""
    return paper is not None and float(paper.max()) >= MIN_PAPER_LEVEL and cast_ratio(paper) < CAST_MIN_RATIO


class Cast(NamedTuple):
    """A photo's colour cast: the photo balanced to its cards' paper, and the lamp's hue on that paper (cast_hue)."""
    balanced: np.ndarray
    hue: float


def cast_hue(paper: np.ndarray) -> float:
    """The hue angle (degrees, atan2(b*, a*) in CIELAB) of the paper's colour under the lamp: the lamp's hue."""
    lab = cv2.cvtColor(paper.astype(np.float32).reshape(1, 1, 3) / 255.0, cv2.COLOR_BGR2Lab)[0, 0]
    return float(np.degrees(np.arctan2(lab[2], lab[1])))


def balanced_to_paper(image: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The photo with the paper's weak channels raised to BALANCE_TARGET_RATIO of its strongest (none lowered: the
    glyphs keep their contrast), by a lookup table per channel."""
    gains = np.maximum(1.0, BALANCE_TARGET_RATIO * float(paper.max()) / np.maximum(paper.astype(np.float64), 1.0))
    tables = [np.clip(np.round(np.arange(256) * gain), 0, 255).astype(np.uint8) for gain in gains]
    return cv2.merge([cv2.LUT(channel, table) for channel, table in zip(cv2.split(image), tables)])
