"""The card reader: photo bytes → cards (code, confidence, box) in front/middle/back rows, with warnings."""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.cards import (SEPARATE_CORNER_OVERLAP, Card, IndexReading, leave_out_repeats, merge_indices, overlap_share,
                          readings_into, readings_out_of)
from vision.classifier import SCALE_VOTE, IndexClassifier
from vision.crops import CLASS_NAMES, NONE_CLASS
from vision.deblur import restored
from vision.decode import check_limits, decode_photo
from vision.detector import STRIDE, IndexDetector
from vision.messages import BLURRED_WARNING, NO_CARDS_WARNING, UNSURE_MARKS_WARNING
from vision.motion import MotionLine, motion_line
from vision.rows import ROW_NAMES, group_rows
from vision.scales import fuse_sizes
from vision.sharpness import BLURRED_BELOW, index_sharpness
from vision.unsqueeze import stretched_vertically
from vision.zoom import layout_region, zoomed_region

MODELS_DIR = Path(os.environ.get("VISION_MODELS_DIR", Path(__file__).resolve().parent.parent / "models"))
DETECTOR_FILE = "cards.onnx"
CLASSIFIER_FILE = "cards_cls.onnx"
# Each constant's measurements are in docs/reader-decisions.md, under the section named in brackets.
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
# Crops are cut from a copy at least this long (JPEGs are decoded at 1/2, 1/4 or 1/8 size when bigger).
CROP_SOURCE_LONG_SIDE = 1920
# Cards named with less are left out and listed in a warning: a confidently wrong card costs money, a doubtful one
# the player can check [unsure].
MIN_CARD_CONFIDENCE = 0.7
# Cards kept below it (rows mode fills a short hand with them) are flagged `low confidence`.
LOW_CONFIDENCE = MIN_CARD_CONFIDENCE
DETECTOR_SCORE_THRESHOLD = 0.25  # the detector's boxes below this score are dropped before the classifier...
# ...unless they score at least FAINT_BOX_SCORE and the classifier names them at least FAINT_BOX_MIN_PROBABILITY:
# small, soft indices the detector doubts but the classifier reads plainly [faint boxes].
FAINT_BOX_SCORE = 0.1
FAINT_BOX_MIN_PROBABILITY = 0.9
# An index this close to the photo's edge (working-image pixels) may be cut off and read as another card, so it is
# never named surely [cut indices].
EDGE_MARGIN_PX = 1.0
EXPECTED_CARDS = 13
# A hand with fewer sure cards is filled with the most confident unsure ones down to this, flagged `low confidence`,
# rather than left with holes to type in [unsure].
FILL_MIN_CONFIDENCE = 0.3
MIN_BOX_SIDE = 2.0
# Marks named at least this surely measure whether the photo is blurred (fainter ones are often art or text).
SHARPNESS_MIN_PROBABILITY = 0.3
# A photo called blurred is read again restored (vision.deblur: deconvolved along a moved camera's line, else
# unsharp-masked); that read is kept when it names more cards surely [sharpened read].
SHARPEN_BLURRED = True
# A hand read short is looked at again in its region stretched vertically (vision.unsqueeze): a steep view squeezes
# indices flatter than the models were trained on. Loose cards have no count to check against and stretched flat
# photos named wrong cards surely, so a loose read is stretched only when the photo is called blurred, and kept only
# when every card it adds is named at least LOOSE_STRETCH_MIN_ADDED [stretched read].
UNSQUEEZE_SHORT_READS = True
LOOSE_STRETCH_MIN_ADDED = 0.9


@dataclass
class ReadResult:
    cards: list[Card]
    rows: dict[str, list[Card]] | None
    warnings: list[str]
    scale: float  # photo pixels per working-image pixel (JPEG reduced decoding)
    timings_ms: dict[str, float] = field(default_factory=dict)
    # detector input long side of the look used (of the enlarged region after a closer look); a second look at
    # LARGER_DETECTION_SIZE fused in afterwards (_second_look) does not change it
    detection_size: int = 0
    # every classified index before unsure cards were left out, in working-image pixels (for evaluation)
    readings: list[IndexReading] = field(default_factory=list)

    def to_dict(self) -> dict:
        """The JSON object of the `vision read` contract (without the "photo" key)."""
        row_of = {id(card): name for name, cards in (self.rows or {}).items() for card in cards}
        return {
            "cards": [{
                "code": card.code,
                "confidence": round(card.confidence, 3),
                "box": [round(v * self.scale) for v in card.box],
                "row": row_of.get(id(card)),
            } for card in self.cards],
            "rows": None if self.rows is None else {name: [c.code for c in self.rows[name]] for name in ROW_NAMES},
            "warnings": list(self.warnings),
        }


class CardReader:
    """Loads the detector and classifier once; `read` is safe to call from several threads."""

    def __init__(self, models_dir: Path = MODELS_DIR, *, detection_sizes: tuple[int, ...] = DETECTION_SIZES,
                 crop_source_long_side: int = CROP_SOURCE_LONG_SIDE,
                 score_threshold: float = DETECTOR_SCORE_THRESHOLD, faint_box_score: float = FAINT_BOX_SCORE,
                 faint_box_min_probability: float = FAINT_BOX_MIN_PROBABILITY,
                 min_card_confidence: float = MIN_CARD_CONFIDENCE, fill_min_confidence: float = FILL_MIN_CONFIDENCE,
                 scale_vote: tuple[float, ...] = SCALE_VOTE, sharpen_blurred: bool = SHARPEN_BLURRED,
                 unsqueeze_short_reads: bool = UNSQUEEZE_SHORT_READS,
                 detector: IndexDetector | None = None, classifier: IndexClassifier | None = None):
        """`detector` / `classifier` replace the ONNX models (anything with the same methods, e.g. in tests)."""
        self.detector = detector or IndexDetector(Path(models_dir) / DETECTOR_FILE, score_threshold=score_threshold)
        self.classifier = classifier or IndexClassifier(Path(models_dir) / CLASSIFIER_FILE, scale_vote=scale_vote)
        self.detection_sizes = detection_sizes
        self.score_threshold = score_threshold
        self.faint_box_score = min(faint_box_score, score_threshold)
        self.faint_box_min_probability = faint_box_min_probability
        self.crop_source_long_side = crop_source_long_side
        self.min_card_confidence = min_card_confidence
        self.fill_min_confidence = fill_min_confidence
        self.sharpen_blurred = sharpen_blurred
        self.unsqueeze_short_reads = unsqueeze_short_reads

    def read(self, data: bytes, *, loose: bool = False) -> ReadResult:
        timings: dict[str, float] = {}
        start = time.perf_counter()
        photo = decode_photo(data, min_long_side=self.crop_source_long_side)
        timings["decode"] = (time.perf_counter() - start) * 1000
        reduction = float(photo.reduction)
        start = time.perf_counter()
        line = motion_line(photo.image)
        measured_ms = (time.perf_counter() - start) * 1000
        # a photo showing a line is called blurred and read again deconvolved, which makes its own second look: the
        # first read's would cost a 12 MP photo ~140 ms for nothing [motion line]
        restore_follows = line is not None and self.sharpen_blurred
        result = self._read_image(photo.image, reduction, loose, timings, second_look=not restore_follows)
        start = time.perf_counter()
        blurred = self._blur_warning(photo.image, result.readings, line)
        timings["sharpness"] = measured_ms + (time.perf_counter() - start) * 1000
        if blurred and self.sharpen_blurred:
            result = self._second_read(result, "sharpened read", timings, loose,
                                       lambda: self._read_image(restored(photo.image, line), reduction, loose, {}))
        if self.unsqueeze_short_reads and result.readings and (self._is_short(result, loose) or (loose and blurred)):
            found = result.readings
            result = self._second_read(result, "stretched read", timings, loose,
                                       lambda: self._read_stretched_region(photo.image, reduction, found, loose),
                                       accept=self._adds_only_plain_cards if loose else None)
        if blurred:  # measured on the photo as taken: a sharpened read of it is no reason to stop advising a retake
            result.warnings.append(blurred)
        return result

    def _second_read(self, result: ReadResult, name: str, timings: dict[str, float], loose: bool,
                     read_again: Callable[[], ReadResult],
                     accept: Callable[[ReadResult, ReadResult], bool] | None = None) -> ReadResult:
        """`read_again()` timed as `name`, and whichever of it and `result` is preferred (_preference; `result` on a
        tie, or when `accept(result, second)` says no), carrying the photo's timings."""
        start = time.perf_counter()
        second = read_again()
        timings[name] = (time.perf_counter() - start) * 1000
        if (self._preference(second, loose) > self._preference(result, loose)
                and (accept is None or accept(result, second))):
            second.timings_ms = result.timings_ms
            return second
        return result

    def _read_image(self, image: np.ndarray, reduction: float, loose: bool, timings: dict[str, float],
                    second_look: bool = True) -> ReadResult:
        """The read of a decoded working image, without the blur warning (`read` adds it)."""
        readings, size, scale = self._find_indices(image, timings)
        if second_look:
            readings = self._second_look(image, readings, loose, scale, timings)
        return self._result_of(readings, image.shape, reduction, loose, timings, size)

    def _read_stretched_region(self, image: np.ndarray, reduction: float, readings: list[IndexReading],
                               loose: bool = False) -> ReadResult:
        """A hand's (or loose cards') read from a first read's `readings` fused (vision.scales) with one closer look (as
        _indices_zoomed) at the region around them, stretched vertically (vision.unsqueeze); boxes in the image's
        pixels. Only the region, one look, and the first read's marks kept where they are surer: session 26's whole
        second read took twice as long for about the same cards (docs/reader.md, session 27)."""
        boxes = np.array([r.box for r in readings], np.float64)
        index_size = float(np.median([r.size for r in readings]))
        x1, y1, x2, y2 = layout_region(boxes, index_size, image.shape)
        region = stretched_vertically(image[y1:y2, x1:x2])
        factor = region.shape[0] / (y2 - y1)
        timings = {"detect": 0.0, "classify": 0.0}
        found, size, _ = self._indices_zoomed(region, readings_into(readings, (x1, y1), (1.0, factor)), timings)
        fused = fuse_sizes([readings, readings_out_of(found, (x1, y1), (1.0, factor))])
        return self._result_of(fused, image.shape, reduction, loose=loose, timings=timings, size=size)

    @staticmethod
    def _adds_only_plain_cards(first: ReadResult, second: ReadResult) -> bool:
        """Whether every card `second` names that `first` does not is named at least LOOSE_STRETCH_MIN_ADDED."""
        named = {card.code for card in first.cards}
        return all(card.confidence >= LOOSE_STRETCH_MIN_ADDED for card in second.cards if card.code not in named)

    def _result_of(self, readings: list[IndexReading], shape: tuple[int, ...], reduction: float, loose: bool,
                   timings: dict[str, float], size: int) -> ReadResult:
        """The cards, rows (unless `loose`) and warnings of an image's readings (from a look of detector `size`)."""
        readings = self._doubt_cut_indices(readings, shape)
        all_readings = readings
        start = time.perf_counter()
        cards, warnings, readings = self._leave_out_unsure(readings, loose)
        result = ReadResult(cards, None, warnings, reduction, timings, size, all_readings)
        if loose:
            cards.sort(key=lambda c: (c.centre[1], c.centre[0]))
            if not cards:  # rows mode says "expected 13 cards, found 0"; loose cards would say nothing at all
                result.warnings.append(f"{NO_CARDS_WARNING}: retake the photo with the cards' corners in view, "
                                       "closer and in focus")
        else:
            result.cards, result.warnings = leave_out_repeats(cards, warnings, EXPECTED_CARDS)
            readings = [r for card in result.cards for r in card.indices]
            self._assign_rows(result, readings)
        for card in result.cards:
            if card.confidence < LOW_CONFIDENCE:
                result.warnings.append(f"low confidence: {card.code} ({card.confidence:.2f})")
        timings["assemble"] = (time.perf_counter() - start) * 1000
        return result

    def _count_sure(self, cards: list[Card]) -> int:
        """How many of the cards are named at least as surely as the unsure threshold."""
        return sum(card.confidence >= self.min_card_confidence for card in cards)

    def _count_sure_in(self, readings: list[IndexReading]) -> int:
        """How many cards the readings name surely, once merged into cards."""
        return self._count_sure(merge_indices(readings)[0])

    def _is_short(self, result: ReadResult, loose: bool) -> bool:
        """Whether a hand's read may have missed cards (fewer than 13 named surely); loose cards have no count."""
        return not loose and self._count_sure(result.cards) < EXPECTED_CARDS

    def _preference(self, result: ReadResult, loose: bool) -> tuple[int, int]:
        """How good a read looks without knowing the cards: how many it names surely (a hand counts at most its 13),
        then, for a hand, how few warnings it has (rows ambiguous, a card seen twice, low confidence)."""
        sure = self._count_sure(result.cards)
        return (sure, 0) if loose else (min(sure, EXPECTED_CARDS), -len(result.warnings))

    def _find_indices(self, image: np.ndarray, timings: dict[str, float]
                      ) -> tuple[list[IndexReading], int, float]:
        """Classified card indices, the detection size that contributed the most evidence, and the scale of that
        look (detector input pixels per image pixel).

        The first size is kept alone when it finds at least two indices of a trained-for size that the
        classifier names surely (a layout). Otherwise (a close-up, or few cards) every size runs and the
        readings are fused (vision.scales): in a close-up the detector fires on pips and art at 640 that
        the classifier names poorly, while at 320 or 192 it finds the real indices. When the indices found are
        tiny, a closer look at their region replaces the first read when it names as many cards surely or gives
        more evidence; when nothing was found, the larger size is tried once.
        """
        timings["detect"] = timings["classify"] = 0.0
        long_side = max(image.shape[:2])
        found: list[tuple[int, list[IndexReading]]] = []
        tiny = False
        for size in self.detection_sizes:
            readings = self._indices_at(image, size, timings)
            found.append((size, readings))
            index_px = float(np.median([r.size for r in readings])) * min(size / long_side, 1.0) if readings else 0.0
            if readings and index_px < SMALL_INDEX_PX:
                tiny = True  # a layout far from the camera: smaller sizes cannot help
                break
            if (size == self.detection_sizes[0] and len(readings) >= 2 and index_px <= LARGE_INDEX_PX
                    and _evidence(readings) >= CONFIDENT_MEAN_PROBABILITY * len(readings)):
                return readings, size, _scale(size, long_side)
        fused = fuse_sizes([readings for _, readings in found])
        if tiny and long_side > self.detection_sizes[0]:  # only where the photo has pixels the first look skipped
            closer, closer_size, closer_scale = self._indices_zoomed(image, fused or found[-1][1], timings)
            # it saw finer pixels: kept when it names as many cards surely or gives more evidence (the first read's
            # stray marks add probability but no sure card)
            if closer and (self._count_sure_in(closer) >= self._count_sure_in(fused)
                           or _evidence(closer) > _evidence(fused)):
                return closer, closer_size, closer_scale
        if not fused and long_side > self.detection_sizes[0]:
            larger = self._indices_at(image, LARGER_DETECTION_SIZE, timings)
            if _evidence(larger) > _evidence(fused):
                return larger, LARGER_DETECTION_SIZE, _scale(LARGER_DETECTION_SIZE, long_side)
        if not fused:
            return [], self.detection_sizes[0], _scale(self.detection_sizes[0], long_side)
        kept = {id(r) for r in fused}
        size = max(found, key=lambda item: sum(r.probability for r in item[1] if id(r) in kept))[0]
        return fused, size, _scale(size, long_side)

    def _doubt_cut_indices(self, readings: list[IndexReading], shape: tuple[int, ...]) -> list[IndexReading]:
        """The readings, with each index at the photo's edge (within EDGE_MARGIN_PX) named no more surely than
        0.01 under the unsure threshold, which the warnings then show. With no threshold (0: every mark kept) there
        is nothing to doubt against, and the readings are returned as read."""
        h, w = shape[:2]
        doubted = self.min_card_confidence - 0.01
        if doubted <= 0:
            return readings

        def cut(box: tuple[float, float, float, float]) -> bool:
            return min(box[0], box[1]) <= EDGE_MARGIN_PX or box[2] >= w - EDGE_MARGIN_PX or box[3] >= h - EDGE_MARGIN_PX

        return [IndexReading(r.box, r.code, doubted, r.detector_score) if r.probability > doubted and cut(r.box)
                else r for r in readings]

    def _leave_out_unsure(self, readings: list[IndexReading], loose: bool
                          ) -> tuple[list[Card], list[str], list[IndexReading]]:
        """Cards of the readings, the warnings, and the readings kept: cards named with less than
        min_card_confidence are left out and named in one warning, except (rows) those filling a short hand."""
        cards, warnings = merge_indices(readings)
        unsure = [card for card in cards if card.confidence < self.min_card_confidence]
        if not unsure:
            return cards, warnings, readings
        sure = [card for card in cards if card.confidence >= self.min_card_confidence]
        if not loose:
            filling = _gap_fillers(sure, unsure, EXPECTED_CARDS - len(sure), self.fill_min_confidence)
            sure += filling
            unsure = [card for card in unsure if all(card is not f for f in filling)]
        readings = [i for card in sure for i in card.indices]
        cards, warnings = merge_indices(readings)  # "seen twice" among the cards kept only
        if unsure:
            warnings.append(f"{UNSURE_MARKS_WARNING}: " + ", ".join(
                f"{card.code}? ({card.confidence:.2f})" for card in unsure[:5]) + (" ..." if len(unsure) > 5 else ""))
        return cards, warnings, readings

    def _second_look(self, image: np.ndarray, readings: list[IndexReading], loose: bool, scale: float,
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
        sure = self._count_sure(cards)
        if sure >= (len(cards) if loose else EXPECTED_CARDS):
            return readings
        if loose:
            x1, y1, x2, y2 = 0, 0, image.shape[1], image.shape[0]
        else:
            boxes = np.array([r.box for r in readings], np.float64)
            index_size = float(np.median([r.size for r in readings]))
            x1, y1, x2, y2 = layout_region(boxes, index_size, image.shape, SECOND_LOOK_MARGIN_INDEX_SIZES)
        input_side = max(STRIDE, round(max(x2 - x1, y2 - y1) * LARGER_DETECTION_SIZE / long_side))
        region = readings_out_of(self._indices_at(image[y1:y2, x1:x2], input_side, timings), (x1, y1))
        fused = fuse_sizes([readings, region])
        if self._count_sure_in(fused) > sure:
            return fused
        return readings

    def _indices_zoomed(self, image: np.ndarray, readings: list[IndexReading],
                        timings: dict[str, float]) -> tuple[list[IndexReading], int, float]:
        """Readings of a second look at the region around `readings`, enlarged (vision.zoom), the detector
        input size used for it and its scale (detector pixels per image pixel)."""
        # the region follows the surely named indices, not stray marks (text, art) elsewhere in the photo
        readings = [r for r in readings if r.probability >= ZOOM_REGION_MIN_PROBABILITY] or readings
        boxes = np.array([r.box for r in readings], np.float64)
        index_size = float(np.median([r.size for r in readings]))
        region = layout_region(boxes, index_size, image.shape)
        picture, factor, input_side = zoomed_region(image, region, index_size,
                                                    (self.detection_sizes[0], LARGER_DETECTION_SIZE))
        return (readings_out_of(self._indices_at(picture, input_side, timings), region[:2], (factor, factor)),
                input_side, input_side / max(region[2] - region[0], region[3] - region[1]))

    def _indices_at(self, image: np.ndarray, size: int, timings: dict[str, float]) -> list[IndexReading]:
        """Detect at one input size, classify the crops, drop `none` and faint boxes not named plainly."""
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
            if CLASS_NAMES[label] != NONE_CLASS:
                readings.append(IndexReading(tuple(float(v) for v in box), CLASS_NAMES[label],
                                             float(prob[label]), float(score)))
        return readings

    @staticmethod
    def _blur_warning(image: np.ndarray, readings: list[IndexReading], line: MotionLine | None) -> str | None:
        """The warning when the indices look blurred, whatever the read: on real blurred photos a quarter of the photos
        read wrong had every mark sure (docs/reader.md), and the player's remedy, a steadier, closer photo, differs
        from checking a card or two. When no mark is named surely enough to measure, every mark is measured: a photo
        blurred past reading names none surely, and the player still needs the remedy. A photo whose indices pass
        but that shows a moved camera's `line` is blurred too: half the moved photos pass the sharpness measure
        (their edges along the smear stay steep) and some of those were read wrong without a warning [blurred]."""
        named = [r.box for r in readings if r.probability >= SHARPNESS_MIN_PROBABILITY]
        sharpness = index_sharpness(image, named or [r.box for r in readings])
        if sharpness is not None and sharpness < BLURRED_BELOW:
            return (f"{BLURRED_WARNING} (index sharpness {sharpness:.1f}, sharp photos {BLURRED_BELOW:.0f} or more): "
                    "check every card, or retake it steadier, in focus and closer")
        if line is not None:
            return (f"{BLURRED_WARNING} (the camera moved: a smear of {line.length:.0f} px): check every card, or "
                    "retake it holding the phone still")
        return None

    @staticmethod
    def _assign_rows(result: ReadResult, readings: list[IndexReading]) -> None:
        cards = result.cards
        if len(cards) != EXPECTED_CARDS:
            result.warnings.append(f"expected {EXPECTED_CARDS} cards, found {len(cards)}")
        index_size = float(np.median([r.size for r in readings])) if readings else 1.0
        grouping = group_rows([[i.centre for i in card.indices] for card in cards], index_size)
        result.warnings.extend(grouping.warnings)
        result.rows = {name: [cards[i] for i in grouping.rows[name]] for name in ROW_NAMES}
        in_rows = [card for name in ROW_NAMES for card in result.rows[name]]
        result.cards = in_rows + [card for card in cards if all(card is not c for c in in_rows)]


def _evidence(readings: list[IndexReading]) -> float:
    """The classifier's evidence in a look's readings: the sum of their probabilities."""
    return sum(r.probability for r in readings)


def _scale(size: int, long_side: int) -> float:
    """Detector input pixels per image pixel of a whole-image look at `size` (the detector never enlarges)."""
    return min(size / long_side, 1.0)


def _gap_fillers(sure: list[Card], unsure: list[Card], gap: int, min_confidence: float) -> list[Card]:
    """Up to `gap` unsure cards, most confident first, that repeat no sure card's code or index."""
    filling: list[Card] = []
    for card in sorted(unsure, key=lambda c: -c.confidence):
        if len(filling) >= gap or card.confidence < min_confidence:
            break
        taken = sure + filling
        if any(card.code == other.code for other in taken):
            continue
        if any(overlap_share(a.box, b.box) > SEPARATE_CORNER_OVERLAP
               for other in taken for a in card.indices for b in other.indices):
            continue  # another name for an index already read
        filling.append(card)
    return filling


_default_reader: CardReader | None = None
_default_lock = threading.Lock()


def default_reader() -> CardReader:
    """The process-wide reader over models/ (created on first use)."""
    global _default_reader
    with _default_lock:
        if _default_reader is None:
            _default_reader = CardReader()
        return _default_reader


def read_photo(data: bytes, *, loose: bool = False) -> dict:
    """Read one photo: `{"cards": [...], "rows": {...} or None, "warnings": [...]}`.

    Raises `vision.ImageError` (a ValueError) for unreadable photos and `vision.ModelError` when the
    model files are missing.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("read_photo needs the photo's bytes")
    data = bytes(data)
    check_limits(data)  # a bad photo gets its typed error even before the models are loaded
    return default_reader().read(data, loose=loose).to_dict()
