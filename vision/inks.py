"""Four-colour decks: tell their inks in a photo and turn them back into the two colours the models know.

Poker rooms' four-colour decks print diamonds blue and clubs green. The classifier learned suits from two-colour decks
and reads a blue diamond as a spade (surely: 0.24 of such layouts read wrong without any warning, models/HISTORY.md@538d56c
session 36), and teaching it the new inks cost reads of two-colour decks photographed poorly (their suits' colour is
the cue it leans on where the shape is a blob). So the reader keeps its models and changes the photo instead: when
the indices it found show blue or green ink, it reads the photo again with blue turned red and green turned black.

Ink is measured on the photo white-balanced to the cards' paper (the median of the index boxes' lightest near-grey
pixels): each colour divided by the paper's, then CIELAB. A colour cast of the light and a dim exposure both scale ink
and paper alike, so they cancel: black ink stays grey under a warm lamp, and a dull blue in a dark photo shows as blue.
Not quite under a strong lamp: JPEG keeps colour at half resolution, so thin strokes take the lamp's colour from the
paper, which `ink_name` allows for when it is told the lamp's hue (session 48).
"""
from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.quantiles import median_colour, sorted_percentile
from vision.threads import WORKER_THREADS, workers

# Each constant's measurements are in docs/reader-decisions.md@538d56c, "four-colour decks".
INK_SHARE = 20  # percent: the box's darkest pixels are its ink, its lightest (100 - this) its paper
BOX_INSET = 0.15  # of each side: the measure keeps to the middle of the index box, off the card's edge
PAPER_MAX_CHROMA = 25.0  # paper is near grey (under a cast too); a bright table is not
MIN_INK_CONTRAST = 25.0  # L* below the paper's 100, balanced: less is no glyph (blurred past reading, or not an index)
MIN_INK_CHROMA = 25.0  # a*b* distance of ink from grey, balanced: less is black ink
# Under a coloured lamp, JPEG's coarse chroma bleeds the lamp's colour from the paper into thin strokes: balanced,
# black ink measures up to ~47 in the lamp's own hue (a purple lamp: a third of the spades measured blue), and an ink
# of the opposite hue loses colour (an amber lamp: 88 of 230 blue diamonds measured under 25). Within CAST_HUE_REACH
# degrees of the lamp's hue an ink counts as coloured only from CAST_MIN_INK_CHROMA; within it of the opposite hue,
# from CAST_OPPOSITE_MIN_CHROMA (session 48).
CAST_MIN_INK_CHROMA = 45.0
CAST_OPPOSITE_MIN_CHROMA = 15.0
CAST_HUE_REACH = 60.0
# hue angles (degrees, atan2(b*, a*), balanced) of blue and of green ink; measured 10th-90th percentile: blue -77 to
# -54, green 133 to 156, red 15 to 40
BLUE_ANGLES = (-110.0, -30.0)
GREEN_ANGLES = (100.0, 180.0)
FOUR_COLOUR_MIN_INDICES = 1  # blue or green indices it takes to call a photo's deck four-colour...
FOUR_COLOUR_MIN_SHARE = 0.1  # ...and at least this share of the indices measured
# an index read less surely than this is no evidence of the deck's inks: a moved photo's smear mixes red and black
# ink with the paper and the table into blues and greens (10 of 150 moved two-colour photos called four-colour)
MIN_READ_PROBABILITY = 0.3
INKS_AGREE_SHARE = 0.6  # of the blue and green indices, named diamonds and clubs when read turned two-colour
# The recolouring works on every pixel whose balanced colour lies in the blue or green angles at least the first of
# these from grey (anti-aliased ink edges are paler than the ink itself), fully from the second on; between, partly:
# a faint tint (black ink's edge on cream paper) is only made grey. 10-30 turned black edges on cream paper and lost
# a small ace; 20-40 left pale blue rims (docs/reader-decisions.md@538d56c).
BLUE_CHROMA = (15.0, 35.0)
GREEN_CHROMA = (15.0, 35.0)
RECOLOUR_REACH = 3.0  # the squares recoloured around each index found, in its sizes (the classifier's crop is 1.4)
RED_ANGLE = 35.0  # where blue ink is turned to: the middle of the red inks measured
# Green ink is much lighter than black (L* ~50 against ~15): its distance from the paper is stretched by this much,
# so a green club turns as dark as a black one (left at its own lightness, clubs went unread)
GREEN_DARKENING = 1.8
LAB_ROW = 1024  # pixels a row when many are converted to Lab at once: on one column of N rows OpenCV takes 4x as long


def _lab(picture: np.ndarray) -> np.ndarray:
    """CIELAB in float32: L* 0-100, a* and b* signed (OpenCV's float conversion: no 8-bit steps in dark colours)."""
    return cv2.cvtColor(picture.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def _in_wide_rows(pixels: np.ndarray) -> np.ndarray:
    """Pixels (N x 3) as an image LAB_ROW pixels wide, the last row padded with black: OpenCV converts such an image
    several times as fast as a column of N rows, to the same numbers (checked on a million random colours)."""
    padded = np.zeros((-(-len(pixels) // LAB_ROW) * LAB_ROW, 3), pixels.dtype)
    padded[:len(pixels)] = pixels
    return padded.reshape(-1, LAB_ROW, 3)


def _lab_of_many(pixels: np.ndarray) -> np.ndarray:
    """_lab of many pixels (N x 3), converted in wide rows (_in_wide_rows)."""
    return _lab(_in_wide_rows(pixels)).reshape(-1, 3)[:len(pixels)]


def _balanced(bgr: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """BGR colours (0-255) white-balanced to the cards' `paper` (BGR), float32 0-1: the paper is white and an ink's
    colour is its own, not the light's (von Kries on the camera's encoded values, which for a power-law gamma is the
    same as on linear light)."""
    return np.clip(bgr.astype(np.float32) / np.maximum(paper.astype(np.float32), 1.0), 0.0, 1.0)


def _balanced_lab(bgr: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """CIELAB of BGR colours (N x 3, 0-255) balanced to the cards' `paper` (_balanced): the paper is L* 100 and grey."""
    return cv2.cvtColor(_balanced(bgr, paper).reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3)


def _balanced_lab_of_bytes(pixels: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """_balanced_lab of many 8-bit pixels (N x 3), the same numbers, faster: each channel's 256 balanced values are
    worked out once and looked up (0.7 million pixels of a 3 MP look divided one by one took ~15 ms), and the pixels
    are converted as an image LAB_ROW pixels wide."""
    table = _balanced(np.arange(256)[:, None], paper).reshape(256, 1, 3)
    wide = cv2.LUT(_in_wide_rows(pixels), table)
    return cv2.cvtColor(wide, cv2.COLOR_BGR2Lab).reshape(-1, 3)[:len(pixels)]


def box_middle(box: Iterable[float], shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The middle of an index box (BOX_INSET off each side) in whole pixels inside the image, or None if under 3 px."""
    x1, y1, x2, y2 = (float(v) for v in box)
    dx, dy = BOX_INSET * (x2 - x1), BOX_INSET * (y2 - y1)
    h, w = shape[:2]
    x1, y1 = max(0, int(round(x1 + dx))), max(0, int(round(y1 + dy)))
    x2, y2 = min(w, int(round(x2 - dx))), min(h, int(round(y2 - dy)))
    return None if x2 - x1 < 3 or y2 - y1 < 3 else (x1, y1, x2, y2)


def _inks_and_papers(image: np.ndarray, boxes: Iterable[Iterable[float]]) -> list[tuple[np.ndarray, np.ndarray] | None]:
    """For each box, the median BGR of the darkest pixels in its middle and of its lightest near-grey ones (the
    paper; a bright table at the box's edge is coloured), or None where it shows no glyph or no paper. Every box's
    pixels are converted to Lab in one call and their percentiles and medians taken from sorted values: NumPy's
    percentile and median cost ~0.2 ms a call in overhead, most of a survey's ~10-17 ms (session 44: ~4-5 ms now;
    the same numbers, tests check them against NumPy's)."""
    windows = [box_middle(box, image.shape) for box in boxes]
    pieces = [image[y1:y2, x1:x2].reshape(-1, 3) for x1, y1, x2, y2 in filter(None, windows)]
    if not pieces:
        return [None] * len(windows)
    labs = np.split(_lab_of_many(np.concatenate(pieces)), np.cumsum([len(piece) for piece in pieces])[:-1])
    found: list[tuple[np.ndarray, np.ndarray] | None] = []
    for pixels, lab in zip(pieces, labs):
        lightness = lab[:, 0]
        greyish = np.hypot(lab[:, 1], lab[:, 2]) < PAPER_MAX_CHROMA
        if np.count_nonzero(greyish) < 3:
            found.append(None)
            continue
        dark = sorted_percentile(np.sort(lightness), INK_SHARE)
        light = sorted_percentile(np.sort(lightness[greyish]), 100 - INK_SHARE)
        ink = median_colour(pixels[lightness <= dark])
        found.append((ink, median_colour(pixels[greyish & (lightness >= light)])))
    # the glyph's contrast against its own paper, balanced: a dim photo's ink lies as far below its paper as a bright
    # photo's does
    measured = [pair for pair in found if pair is not None]
    if measured:
        balanced = np.stack([_balanced(ink, paper) for ink, paper in measured]).reshape(-1, 1, 3)
        contrast = iter(100.0 - cv2.cvtColor(balanced, cv2.COLOR_BGR2Lab)[:, 0, 0])
        found = [None if pair is None or next(contrast) < MIN_INK_CONTRAST else pair for pair in found]
    measures = iter(found)
    return [None if window is None else next(measures) for window in windows]


def survey_inks(image: np.ndarray, boxes: Iterable[Iterable[float]], cast_hue: float | None = None
                ) -> tuple[list[str | None], np.ndarray | None]:
    """Each box's ink ('black', 'red', 'blue', 'green' or 'other'; None where it shows no glyph) and the cards'
    paper (BGR; None where no box shows one): the median paper of all the boxes, which each ink is balanced to
    (one box's lightest pixels may be a coloured table, and a photo's brightest ones a lamp or the table).
    `cast_hue`: the hue of a coloured lamp the photo was taken under (vision.casts.cast_hue), if any."""
    measures = _inks_and_papers(image, list(boxes))
    found = [m for m in measures if m is not None]
    if not found:
        return [None] * len(measures), None
    paper = np.median([p for _, p in found], axis=0)
    inks = iter(_balanced_lab(np.array([ink for ink, _ in found]), paper))
    return [None if m is None else ink_name(next(inks)[1:], cast_hue) for m in measures], paper


def ink_name(colour: np.ndarray, cast_hue: float | None = None) -> str:
    """'black', 'red', 'blue', 'green' or 'other' for an ink's (a*, b*) balanced to the paper; under a lamp of hue
    `cast_hue`, an ink near that hue is black unless it is coloured past what the lamp bleeds into black ink, and an
    ink of the opposite hue is coloured from less chroma (the bleed took some of it)."""
    a, b = float(colour[0]), float(colour[1])
    chroma = float(np.hypot(a, b))
    if cast_hue is None:
        floor = MIN_INK_CHROMA
    elif _hue_distance(a, b, cast_hue) <= CAST_HUE_REACH:
        floor = CAST_MIN_INK_CHROMA
    elif _hue_distance(a, b, cast_hue + 180.0) <= CAST_HUE_REACH:
        floor = CAST_OPPOSITE_MIN_CHROMA
    else:
        floor = MIN_INK_CHROMA
    if chroma < floor:
        return "black"
    blue, green = _blue_and_green(np.asarray(a), np.asarray(b), (0.0, 0.0))  # chroma checked above
    if blue:
        return "blue"
    if green:
        return "green"
    return "red" if -30.0 < float(np.degrees(np.arctan2(b, a))) < 100.0 else "other"


def _hue_distance(a: float, b: float, hue: float) -> float:
    """Degrees between the hue angle of (a*, b*) and `hue`, 0-180."""
    return abs((float(np.degrees(np.arctan2(b, a))) - hue + 180.0) % 360.0 - 180.0)


def _blue_and_green(a: np.ndarray, b: np.ndarray, min_chroma: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Which colours (a*, b* balanced to the paper) lie in the blue and in the green hue angles at least
    `min_chroma` (blue's, green's) from grey (grey itself, a* = b* = 0, counts as neither)."""
    squared = a * a + b * b
    # squared chroma and the side of each angle's line instead of hypot and the arctangent: ~15 ms less on a 3 MP
    # look's 0.7 million pixels (session 43; the same pixels)
    blue = (squared >= min_chroma[0] ** 2) & _within(a, b, BLUE_ANGLES)
    green = (squared >= min_chroma[1] ** 2) & _within(a, b, GREEN_ANGLES)
    if min(min_chroma) <= 0.0:
        blue &= squared > 0.0
        green &= squared > 0.0
    return blue, green


def _within(a: np.ndarray, b: np.ndarray, angles: tuple[float, float]) -> np.ndarray:
    """Whether the hue angle of (a*, b*) lies between `angles` (degrees, less than 180 apart): anticlockwise of the
    first and clockwise of the second."""
    # rounded so that 180 degrees is exactly (-1, 0), as the arctangent has it
    (cos_low, cos_high), (sin_low, sin_high) = (np.round(f(np.radians(angles)), 12) for f in (np.cos, np.sin))
    return ((cos_low * b - sin_low * a) >= 0.0) & ((sin_high * a - cos_high * b) >= 0.0)


def shows_four_colours(names: list[str | None], probabilities: Iterable[float] | None = None) -> bool:
    """Whether the indices' inks (survey_inks) show a four-colour deck: enough of them blue or green, counting only
    the indices read with at least MIN_READ_PROBABILITY where their `probabilities` are given."""
    if probabilities is not None:
        names = [name for name, p in zip(names, probabilities, strict=True) if p >= MIN_READ_PROBABILITY]
    measured = [name for name in names if name is not None]
    new_inks = sum(name in ("blue", "green") for name in measured)
    return new_inks >= FOUR_COLOUR_MIN_INDICES and new_inks >= FOUR_COLOUR_MIN_SHARE * len(measured)


def inks_agree(names: list[str | None], codes: list[str]) -> bool:
    """Whether the indices named after the photo was turned two-colour agree with their inks as a four-colour deck
    prints them: most of the blue ones named diamonds and of the green ones clubs (a two-colour deck's indices taken
    for blue or green, e.g. against a coloured table, are named as their own suits)."""
    pairs = [(name, code[1]) for name, code in zip(names, codes) if name in ("blue", "green")]
    agreeing = sum((name, suit) in (("blue", "D"), ("green", "C")) for name, suit in pairs)
    return len(pairs) >= FOUR_COLOUR_MIN_INDICES and agreeing >= INKS_AGREE_SHARE * len(pairs)


def inks_contradict(names: list[str | None], codes: list[str]) -> bool:
    """Whether indices in blue or green ink are named against their inks as a four-colour deck prints them (some are
    measured blue or green, and fewer than INKS_AGREE_SHARE of those are named diamonds and clubs): a read naming a
    four-colour deck's blue diamonds spades. Without a blue or green index there is nothing to contradict."""
    return any(name in ("blue", "green") for name in names) and not inks_agree(names, codes)


def two_colour_view(image: np.ndarray, paper: np.ndarray, boxes: Iterable[Iterable[float]] | None = None) -> np.ndarray:
    """The photo with blue turned red (at its own lightness) and green turned black, each pixel's colour balanced to
    the cards' `paper` (BGR, survey_inks) so neither a cast nor a dim light moves the line between inks; only around
    the index `boxes` (RECOLOUR_REACH times their size; all the photo when None), other pixels left as they were. The
    detector finds blue and green indices as it finds others: only the classifier needs them two-colour, and a green
    table turned grey whole cost a 12 MP photo ~300 ms."""
    around = np.ones(image.shape[:2], bool) if boxes is None else _around(boxes, image.shape)
    result = image.copy()  # C order, so its flat view below is a view
    # pixels by flat index, not by the boolean mask: gathering and scattering a 3 MP look's masked pixels took
    # ~55 ms that way against ~12 ms (session 41; the same pixels)
    chosen = np.flatnonzero(around)
    if len(chosen) == 0:  # every square off the photo
        return result
    # the pixels are independent, so the worker threads share them: NumPy works on one core a call (session 43: the
    # view ~90 -> ~40 ms on the four-colour sample, the same pixels)
    parts = np.array_split(chosen, WORKER_THREADS)
    list(workers().map(lambda part: _recolour(result, part, paper), parts))
    return result


def _recolour(result: np.ndarray, chosen: np.ndarray, paper: np.ndarray) -> None:
    """two_colour_view's work on the pixels at flat indices `chosen` of `result` (C-ordered BGR), in place."""
    if not len(chosen):
        return
    pixels = np.take(_pixels_as_items(result), chosen).view(np.uint8).reshape(-1, 3)
    lab = _balanced_lab_of_bytes(pixels, paper)
    lightness, a, b = (np.ascontiguousarray(lab[:, k]) for k in range(3))  # contiguous: faster below
    blue, green = _blue_and_green(a, b, (BLUE_CHROMA[0], GREEN_CHROMA[0]))
    changed = np.flatnonzero(blue | green)
    if not len(changed):
        return
    lightness, a, b, is_blue = (np.take(values, changed) for values in (lightness, a, b, blue))
    chroma = np.hypot(a, b)
    # how surely a pixel is blue or green ink rather than black ink with a tint: a faint tint is only made grey, so
    # black ink is neither reddened nor thickened
    sure_blue = np.clip((chroma - BLUE_CHROMA[0]) / (BLUE_CHROMA[1] - BLUE_CHROMA[0]), 0.0, 1.0)
    sure_green = np.clip((chroma - GREEN_CHROMA[0]) / (GREEN_CHROMA[1] - GREEN_CHROMA[0]), 0.0, 1.0)
    darkening = 1.0 + sure_green * (GREEN_DARKENING - 1.0)
    out = np.empty((len(changed), 1, 3), np.float32)  # L*, a*, b*, filled in place: no stacked copy
    out[:, 0, 0] = np.where(is_blue, lightness, np.maximum(100.0 - (100.0 - lightness) * darkening, 0.0))
    kept = np.where(is_blue, sure_blue * chroma, 0.0)  # blue keeps its chroma (by how sure it is), turned to red
    red = np.radians(RED_ANGLE)
    out[:, 0, 1] = kept * np.cos(red)
    out[:, 0, 2] = kept * np.sin(red)
    balanced = cv2.cvtColor(out, cv2.COLOR_Lab2BGR).reshape(-1, 3)
    unbalanced = balanced * np.maximum(paper, 1.0) + 0.5
    # only the changed pixels are written back (the rest of the squares are as they were), each as one 3-byte item:
    # a third of the time of indexing its channels
    _pixels_as_items(result)[chosen[changed]] = _pixels_as_items(np.clip(unbalanced, 0, 255).astype(np.uint8))


def _pixels_as_items(pixels: np.ndarray) -> np.ndarray:
    """A C-ordered BGR image (or N x 3 pixels) as a flat view of 3-byte items, one a pixel."""
    return np.ascontiguousarray(pixels).reshape(-1, 3).view("V3").reshape(-1)


def _around(boxes: Iterable[Iterable[float]], shape: tuple[int, ...]) -> np.ndarray:
    """A mask of the squares RECOLOUR_REACH times each box's longer side around its centre."""
    mask = np.zeros(shape[:2], np.uint8)
    for x1, y1, x2, y2 in boxes:
        half = RECOLOUR_REACH * max(x2 - x1, y2 - y1) / 2
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        cv2.rectangle(mask, (int(cx - half), int(cy - half)), (int(cx + half), int(cy + half)), 1, -1)
    return mask.astype(bool)
