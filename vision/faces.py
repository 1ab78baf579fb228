"""What a card's face shows between its two corner indices: the share of its middle that is ink. A court card's
figure fills it; a number card's pips leave most of it paper (issue 66: an index's rank against the card's face)."""
from __future__ import annotations

import cv2
import numpy as np

# The band measured: the middle of the line between the two index centres (this share of it, centred), as wide as
# this share of an index's size.
BAND_LENGTH_SHARE = 0.5
BAND_WIDTH_SHARE = 1.0
BAND_PIXELS = (48, 12)  # the band resampled to this many pixels along and across
INK_DIFFERENCE = 60.0  # grey levels (max over channels) under the paper that count as ink
PAPER_SHARE = 0.3  # the lightest share of an index box's pixels is its card's paper


def card_paper(picture: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> np.ndarray | None:
    """One card's paper (BGR): the median of the lightest pixels of each of its index boxes, the darker box's. Its
    own, not the photo's: a card in a shadow has grey paper, which against the other cards' white would all count as
    ink; and of its darker corner, as a shadow falling across the card leaves its middle at least that light."""
    h, w = picture.shape[:2]
    papers = []
    for x1, y1, x2, y2 in boxes:
        x1, y1, x2, y2 = max(0, int(x1)), max(0, int(y1)), min(w, int(np.ceil(x2))), min(h, int(np.ceil(y2)))
        if x2 > x1 and y2 > y1:
            pixels = picture[y1:y2, x1:x2].reshape(-1, 3)
            lightness = pixels.astype(np.int32).sum(axis=1)
            papers.append(np.median(pixels[lightness >= np.quantile(lightness, 1 - PAPER_SHARE)], axis=0))
    return min(papers, key=lambda paper: float(paper.sum())) if papers else None


def middle_ink_share(picture: np.ndarray, first: tuple[float, float], second: tuple[float, float], index_size: float,
                     paper: np.ndarray) -> float:
    """The share of ink in the band between two index centres of one card (`paper`: the cards' paper, BGR)."""
    a, b = np.asarray(first, np.float64), np.asarray(second, np.float64)
    along = b - a
    length = float(np.hypot(*along))
    if length < 1.0:
        return 0.0
    unit = along / length
    across = np.array([-unit[1], unit[0]])
    centre = (a + b) / 2
    half_length, half_width = BAND_LENGTH_SHARE * length / 2, BAND_WIDTH_SHARE * index_size / 2
    source = np.float32([centre - unit * half_length - across * half_width,
                         centre + unit * half_length - across * half_width,
                         centre - unit * half_length + across * half_width])
    w, h = BAND_PIXELS
    target = np.float32([[0, 0], [w - 1, 0], [0, h - 1]])
    band = cv2.warpAffine(picture, cv2.getAffineTransform(source, target), (w, h), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)
    # darker than the paper only: a lit patch (glare, a lamp's gradient) is brighter than a shaded corner's paper
    darker = (np.asarray(paper, np.float32) - band.astype(np.float32)).max(axis=2)
    return float(np.mean(darker > INK_DIFFERENCE))
