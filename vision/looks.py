"""Where the reader looks: the detector and the classifier over a picture at one input size, at several sizes fused, a
closer look at a far layout's region and a second look at the larger size when a hand is short (docs/reader.md,
"sizes"). Each look gives classified index readings in the picture's pixels; vision.results turns them into cards."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from vision.cards import EXPECTED_CARDS, Card, IndexReading, merge_indices, readings_out_of, same_index
from vision.classifier import IndexClassifier
from vision.crops import CLASS_NAMES, NONE_CLASS
from vision.detector import STRIDE, IndexDetector
from vision.scales import fuse_sizes
from vision.zoom import layout_region, zoomed_region

if TYPE_CHECKING:
    from vision.reader_config import ReaderConfig

NONE_INDEX = CLASS_NAMES.index(NONE_CLASS)

# Each constant's measurements are in docs/reader-decisions.md@538d56c, under the section named in brackets.
# Detector input long side, then smaller sizes for huge indices (a close-up): the detector was trained on indices
# 10-45 px tall [sizes].
DETECTION_SIZES = (640, 320, 192)
LARGE_INDEX_PX = 40  # indices this big at the detector's input also try the next, smaller size
# Indices smaller than the trained range at the first size (a far layout) are looked for again in their region,
# enlarged (vision.zoom); the larger size is for photos where nothing was found at all [sizes].
SMALL_INDEX_PX = 20
LARGER_DETECTION_SIZE = 1024
ZOOM_REGION_MIN_PROBABILITY = 0.5  # indices that place the closer look's region
# The larger look after a short hand covers the indices found and this many index sizes around them (a 3/5/5 layout
# is ~16 wide, so cards missed at a row's end are inside); loose cards: the whole photo [sizes, "Second look"].
SECOND_LOOK_MARGIN_INDEX_SIZES = 10.0
# ...not made for a hand unless the larger size sees the photo at least this much finer than the look that gave the
# readings: the same pixels at about the same scale find the same indices [sizes, "Session 8"].
SECOND_LOOK_MIN_SCALE_GAIN = 1.1
# The first size's indices are trusted alone when named with at least this mean probability (index parts of a
# close-up at a too-large size score ~0.2-0.35) [sizes].
CONFIDENT_MEAN_PROBABILITY = 0.6
DETECTOR_SCORE_THRESHOLD = 0.25  # the detector's boxes below this score are dropped before the classifier...
# ...unless they score at least FAINT_BOX_SCORE and the classifier names them at least FAINT_BOX_MIN_PROBABILITY:
# small, soft indices the detector doubts but the classifier reads plainly [faint boxes].
FAINT_BOX_SCORE = 0.1
FAINT_BOX_MIN_PROBABILITY = 0.9
MIN_BOX_SIDE = 2.0  # detector boxes thinner than this (pixels of the picture looked at) are dropped
# A box the detector scores at least UNNAMED_BOX_SCORE that the classifier names `none` less surely than
# NONE_SURE_PROBABILITY is not dropped: it is kept as an unnamed reading of its likeliest card, named no more surely
# than half the unsure threshold (it places no closer look), which names no card but is warned of as a mark left out
# unless a card read elsewhere accounts for it (vision.results). A half-seen index sits a few hundredths between a
# card and `none`; dropped, a loose read misses its card without a word [unnamed boxes].
# On since session 55, with the partner classifier: the two's mean loses weak guesses a single classifier kept by
# luck, and this rule gives them back (alone, with the shipped pair, it mended no read and warned more right ones).
UNNAMED_BOX_SCORE = 0.4
NONE_SURE_PROBABILITY = 0.7
# Looks spared (ReaderConfig.spare_looks; issue 66, session 60: a spared look changed no reading on any set measured):
# a close-up's indices, bigger at the first size than the detector was trained for, are not looked for again at the
# smaller sizes when the first names each card plainly (every index at least CLEAN_INDEX_PROBABILITY) in two corners
# and sees nothing else (the parts and art that the smaller sizes fuse away are unsure marks). At 0.9 webcam
# singles' corners named 0.83-0.9 still took 3 looks; 0.8 changed no reading either and read more Big Two seats
# of the tables set right (0.895 -> 0.912)...
CLEAN_INDEX_PROBABILITY = 0.8
# ...and a far hand that the first size already reads whole (13 named surely, nothing to warn of: rows clear) with
# its indices inside the detector's trained range gets no closer look. With a warning it does (its finer boxes part
# rows that the first size's coarse ones left ambiguous), and below the range too: there the 640 look's coarse boxes
# cost a sure card or two a photo that the closer look's finer ones keep (synth-v5 photos).
TRAINED_MIN_INDEX_PX = 10


class IndexLooks:
    """The looks of one detector and classifier; safe to use from several threads (it keeps no state per read)."""

    def __init__(self, detector: IndexDetector, classifier: IndexClassifier, config: ReaderConfig):
        self.detector = detector
        self.classifier = classifier
        self.detection_sizes = config.detection_sizes
        self.score_threshold = config.score_threshold
        self.faint_box_score = min(config.faint_box_score, config.score_threshold)
        self.faint_box_min_probability = config.faint_box_min_probability
        self.min_card_confidence = config.min_card_confidence
        self.unnamed_box_score = config.unnamed_box_score
        self.none_sure_probability = config.none_sure_probability
        self.spare_looks = config.spare_looks

    def count_sure(self, cards: list[Card]) -> int:
        """How many of the cards are named at least as surely as the unsure threshold."""
        return sum(card.confidence >= self.min_card_confidence for card in cards)

    def count_sure_in(self, readings: list[IndexReading]) -> int:
        """How many cards the readings name surely, once merged into cards."""
        return self.count_sure(merge_indices(readings)[0])

    def find(self, image: np.ndarray, timings: dict[str, float],
             whole: Callable[[list[IndexReading], int], bool] | None = None
             ) -> tuple[list[IndexReading], int, float]:
        """Classified card indices, the detection size that contributed the most evidence, and the scale of that
        look (detector input pixels per image pixel).

        The first size is kept alone when it finds at least two indices of a trained-for size that the
        classifier names surely (a layout). Otherwise (a close-up, or few cards) every size runs and the
        readings are fused (vision.scales): in a close-up the detector fires on pips and art at 640 that
        the classifier names poorly, while at 320 or 192 it finds the real indices. When the indices found are
        tiny, a closer look at their region replaces the first read when it names as many cards surely or gives
        more evidence; when nothing was found, the larger size is tried once.

        With spare_looks, the first size is also kept alone when it names a close-up's cards plainly
        (`_names_plainly`), and the closer look is not made when `whole(readings, size)` says the first size's
        readings are a whole read (passes.first_look: a hand of 13 named surely with nothing to warn of).
        """
        timings["detect"] = timings["classify"] = 0.0
        long_side = max(image.shape[:2])
        found: list[tuple[int, list[IndexReading]]] = []
        tiny = False
        for size in self.detection_sizes:
            readings = self.at(image, size, timings)
            found.append((size, readings))
            index_px = float(np.median([r.size for r in readings])) * min(size / long_side, 1.0) if readings else 0.0
            if readings and index_px < SMALL_INDEX_PX:
                tiny = True  # a layout far from the camera: smaller sizes cannot help
                break
            if (size == self.detection_sizes[0] and len(readings) >= 2 and index_px <= LARGE_INDEX_PX
                    and _evidence(readings) >= CONFIDENT_MEAN_PROBABILITY * len(readings)):
                return readings, size, _scale(size, long_side)
            if (size == self.detection_sizes[0] and self.spare_looks and index_px > LARGE_INDEX_PX
                    and _names_plainly(readings)):
                return readings, size, _scale(size, long_side)
        fused = fuse_sizes([readings for _, readings in found])
        if (tiny and self.spare_looks and whole is not None and index_px >= TRAINED_MIN_INDEX_PX
                and whole(fused, found[-1][0])):
            return fused, found[-1][0], _scale(found[-1][0], long_side)
        if tiny and long_side > self.detection_sizes[0]:  # only where the photo has pixels the first look skipped
            closer, closer_size, closer_scale = self.zoomed(image, fused or found[-1][1], timings)
            # it saw finer pixels: kept when it names as many cards surely or gives more evidence (the first read's
            # stray marks add probability but no sure card)
            if closer and (self.count_sure_in(closer) >= self.count_sure_in(fused)
                           or _evidence(closer) > _evidence(fused)):
                region, _ = self.closer_region(image, fused or found[-1][1])
                return closer + self.unaccounted(fused, closer, region), closer_size, closer_scale
        if not fused and long_side > self.detection_sizes[0]:
            larger = self.at(image, LARGER_DETECTION_SIZE, timings)
            if _evidence(larger) > _evidence(fused):
                return larger, LARGER_DETECTION_SIZE, _scale(LARGER_DETECTION_SIZE, long_side)
        if not fused:
            return [], self.detection_sizes[0], _scale(self.detection_sizes[0], long_side)
        kept = {id(r) for r in fused}
        size = max(found, key=lambda item: sum(r.probability for r in item[1] if id(r) in kept))[0]
        return fused, size, _scale(size, long_side)

    def unaccounted(self, replaced: list[IndexReading], kept: list[IndexReading],
                    region: tuple[int, int, int, int]) -> list[IndexReading]:
        """The replaced look's readings of sure boxes (UNNAMED_BOX_SCORE) inside the `region` the kept look saw
        that no reading of the kept look lies on, as unnamed readings: a mark the first look saw and the closer one
        did not is still warned of (session 52: a half-seen index named 0.26 at the first look vanished with it,
        and its card without a word). Marks outside the region the closer look never saw stay dropped as before."""
        x1, y1, x2, y2 = region
        return [replace(r, unnamed=True, probability=min(r.probability, self.min_card_confidence / 2))
                for r in replaced if r.detector_score >= self.unnamed_box_score
                and x1 <= r.centre[0] <= x2 and y1 <= r.centre[1] <= y2
                and not any(same_index(r, other) for other in kept)]

    def second_look(self, image: np.ndarray, readings: list[IndexReading], loose: bool, scale: float,
                     timings: dict[str, float]) -> list[IndexReading]:
        """The readings fused with a look at the larger size when the first left a hand short of 13 sure cards
        (rows) or left unsure marks (loose), and the photo has the pixels: indices squeezed by a steep view or
        far away are a few pixels across at the first size. For a hand (rows) only the region around the indices
        found is looked at (at the scale the whole photo would have at the larger size); loose cards may lie
        anywhere, so the whole photo is. Kept only when it gives more sure cards. For a hand, not made when the
        readings' look (`scale`, detector pixels per image pixel) was nearly as fine (SECOND_LOOK_MIN_SCALE_GAIN)."""
        long_side = max(image.shape[:2])
        if long_side <= LARGER_DETECTION_SIZE or not readings:
            return readings
        if not loose and _scale(LARGER_DETECTION_SIZE, long_side) < SECOND_LOOK_MIN_SCALE_GAIN * scale:
            return readings  # loose cards may lie outside the closer look's region: the whole photo is looked at
        cards, _ = merge_indices(readings)
        sure = self.count_sure(cards)
        if sure >= (len(cards) if loose else EXPECTED_CARDS):
            return readings
        if loose:
            x1, y1, x2, y2 = 0, 0, image.shape[1], image.shape[0]
        else:
            boxes = np.array([r.box for r in readings], np.float64)
            index_size = float(np.median([r.size for r in readings]))
            x1, y1, x2, y2 = layout_region(boxes, index_size, image.shape, SECOND_LOOK_MARGIN_INDEX_SIZES)
        input_side = max(STRIDE, round(max(x2 - x1, y2 - y1) * LARGER_DETECTION_SIZE / long_side))
        region = readings_out_of(self.at(image[y1:y2, x1:x2], input_side, timings), (x1, y1))
        fused = fuse_sizes([readings, region])
        if self.count_sure_in(fused) > sure:
            return fused
        return readings

    @staticmethod
    def closer_region(image: np.ndarray, readings: list[IndexReading]) -> tuple[tuple[int, int, int, int], float]:
        """x1, y1, x2, y2 (image pixels) of the closer look at `readings` (IndexLooks.zoomed) and the index size it
        is placed by: the surely named indices', not stray marks' (text, art) elsewhere in the photo."""
        placing = [r for r in readings if r.probability >= ZOOM_REGION_MIN_PROBABILITY] or readings
        index_size = float(np.median([r.size for r in placing]))
        return layout_region(np.array([r.box for r in placing], np.float64), index_size, image.shape), index_size

    def zoomed(self, image: np.ndarray, readings: list[IndexReading],
                        timings: dict[str, float]) -> tuple[list[IndexReading], int, float]:
        """Readings of a second look at the region around `readings`, enlarged (vision.zoom), the detector
        input size used for it and its scale (detector pixels per image pixel)."""
        region, index_size = self.closer_region(image, readings)
        picture, factor, input_side = zoomed_region(image, region, index_size,
                                                    (self.detection_sizes[0], LARGER_DETECTION_SIZE))
        return (readings_out_of(self.at(picture, input_side, timings), region[:2], (factor, factor)),
                input_side, input_side / max(region[2] - region[0], region[3] - region[1]))

    def at(self, image: np.ndarray, size: int, timings: dict[str, float]) -> list[IndexReading]:
        """Detect at one input size, classify the crops, drop `none` (unless an unnamed box, see UNNAMED_BOX_SCORE)
        and faint boxes not named plainly."""
        start = time.perf_counter()
        boxes, scores = self.detector.detect(image, size, score_threshold=self.faint_box_score)
        keep = ((boxes[:, 2] - boxes[:, 0]) >= MIN_BOX_SIDE) & ((boxes[:, 3] - boxes[:, 1]) >= MIN_BOX_SIDE)
        boxes, scores = boxes[keep], scores[keep]
        middle = time.perf_counter()
        probs = self.classifier.probabilities(image, boxes)
        timings["detect"] += (middle - start) * 1000
        timings["classify"] += (time.perf_counter() - middle) * 1000
        readings = []
        for box, score, prob in zip(boxes, scores, probs):
            label = int(np.argmax(prob))
            if score < self.score_threshold and prob[label] < self.faint_box_min_probability:
                continue
            probability, unnamed = float(prob[label]), False
            if (CLASS_NAMES[label] == NONE_CLASS and score >= self.unnamed_box_score
                    and probability < self.none_sure_probability):
                label, unnamed = int(np.argmax(prob[:NONE_INDEX])), True
                probability = min(float(prob[label]), self.min_card_confidence / 2)
            if CLASS_NAMES[label] != NONE_CLASS:
                readings.append(IndexReading(tuple(float(v) for v in box), CLASS_NAMES[label],
                                             probability, float(score), prob, unnamed))
        return readings


def _evidence(readings: list[IndexReading]) -> float:
    """The classifier's evidence in a look's readings: the sum of their probabilities."""
    return sum(r.probability for r in readings)


def _names_plainly(readings: list[IndexReading]) -> bool:
    """Whether a look's readings name each card plainly in two corners and nothing else: every reading named at
    least CLEAN_INDEX_PROBABILITY, none unnamed, and every card of them read in two corners."""
    if not readings or any(r.unnamed or r.probability < CLEAN_INDEX_PROBABILITY for r in readings):
        return False
    cards, warnings = merge_indices(readings)
    return not warnings and all(len(card.separate_corners()) >= 2 for card in cards)


def _scale(size: int, long_side: int) -> float:
    """Detector input pixels per image pixel of a whole-image look at `size` (the detector never enlarges)."""
    return min(size / long_side, 1.0)


