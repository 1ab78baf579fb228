"""The card reader: photo bytes → cards (code, confidence, box) in front/middle/back rows, with warnings.

The read's course: decode (vision.decode), look for indices (vision.looks), turn the readings into cards, rows and
warnings (vision.results); a photo under a strongly coloured light is read again balanced to its paper (vision.casts),
a four-colour deck's photo again turned two-colour (vision.inks), a photo called blurred again restored (vision.deblur,
vision.motion) and a hand read short again stretched (vision.unsqueeze), each second read kept when it names more
cards surely (the balanced one: as many marks; the four-colour one: as many cards, with its inks agreeing); a second
classifier, where shipped, looks at the sure cards of the read and warns of those it names otherwise
(vision.second_opinion)."""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.cards import EXPECTED_CARDS, IndexReading, readings_into, readings_out_of, same_index
from vision.casts import PAPER_MIN_PROBABILITY, Cast, balanced_to_paper, cast_hue, paper_colour, shows_cast
from vision.classifier import SCALE_VOTE, SCALE_VOTE_MIN_PX, IndexClassifier
from vision.deblur import restored
from vision.decode import check_limits, decode_photo
from vision.detector import IndexDetector
from vision.inks import inks_agree, inks_contradict, shows_four_colours, survey_inks, two_colour_view
from vision.looks import (DETECTION_SIZES, DETECTOR_SCORE_THRESHOLD, FAINT_BOX_MIN_PROBABILITY, FAINT_BOX_SCORE,
                          NONE_SURE_PROBABILITY, UNNAMED_BOX_SCORE, IndexLooks)
from vision.messages import BLURRED_WARNING
from vision.motion import MotionLine, motion_line
from vision.results import (BALANCED_READ, FILL_MIN_CONFIDENCE, MIN_CARD_CONFIDENCE, SHARPENED_READ, STRETCHED_READ,
                            TWO_COLOUR_READ, ReadResult, result_of)
from vision.scales import fuse_sizes
from vision.second_opinion import SECOND_CLASSIFIER_FILE, doubted_cards, second_look_warning
from vision.sharpness import BLURRED_BELOW, index_sharpness
from vision.unsqueeze import stretched_vertically
from vision.zoom import layout_region

MODELS_DIR = Path(os.environ.get("VISION_MODELS_DIR", Path(__file__).resolve().parent.parent / "models"))
DETECTOR_FILE = "cards.onnx"
CLASSIFIER_FILE = "cards_cls.onnx"
# A partner classifier whose probabilities are averaged with the classifier's on every crop, where the models folder
# has one beside it (it was chosen for that classifier) [partner classifier].
PARTNER_CLASSIFIER_FILE = "cards_cls_partner.onnx"
PARTNER_CLASSIFIER = True
# Each constant's measurements are in docs/reader-decisions.md, under the section named in brackets.
# Crops are cut from a copy at least this long (JPEGs are decoded at 1/2, 1/4 or 1/8 size when bigger).
CROP_SOURCE_LONG_SIDE = 1920
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
# A photo whose indices show a four-colour deck's blue or green ink is read again turned two-colour (vision.inks)
# [four-colour decks].
READ_FOUR_COLOURS = True
# A photo whose cards' paper shows a strong colour cast (a red or deep blue lamp) is read again white-balanced to the
# paper (vision.casts) [coloured light].
BALANCE_CASTS = True
# A second classifier (models/cards_cls_second.onnx) looks at every read's sure cards, where it is shipped
# [second opinion].
SECOND_OPINION = True
# An ink the two-colour view leaves as it is: where the first read named an index of it as the turned read does, but
# more surely, its reading is kept (not black: a navy or dark green index can measure black) [four-colour decks].
PLAIN_INKS = ("red",)


class CardReader:
    """Loads the detector and classifier once; `read` is safe to call from several threads."""

    def __init__(self, models_dir: Path = MODELS_DIR, *, detection_sizes: tuple[int, ...] = DETECTION_SIZES,
                 crop_source_long_side: int = CROP_SOURCE_LONG_SIDE,
                 score_threshold: float = DETECTOR_SCORE_THRESHOLD, faint_box_score: float = FAINT_BOX_SCORE,
                 faint_box_min_probability: float = FAINT_BOX_MIN_PROBABILITY,
                 min_card_confidence: float = MIN_CARD_CONFIDENCE, fill_min_confidence: float = FILL_MIN_CONFIDENCE,
                 scale_vote: tuple[float, ...] = SCALE_VOTE, scale_vote_min_px: float = SCALE_VOTE_MIN_PX,
                 sharpen_blurred: bool = SHARPEN_BLURRED,
                 unsqueeze_short_reads: bool = UNSQUEEZE_SHORT_READS, read_four_colours: bool = READ_FOUR_COLOURS,
                 balance_casts: bool = BALANCE_CASTS, unnamed_box_score: float = UNNAMED_BOX_SCORE,
                 none_sure_probability: float = NONE_SURE_PROBABILITY, second_opinion: bool = SECOND_OPINION,
                 partner_classifier: bool = PARTNER_CLASSIFIER,
                 detector: IndexDetector | None = None, classifier: IndexClassifier | None = None,
                 second_classifier: IndexClassifier | None = None):
        """`detector` / `classifier` / `second_classifier` replace the ONNX models (anything with the same methods,
        e.g. in tests). The second opinion is `second_classifier`, else models_dir's SECOND_CLASSIFIER_FILE when the
        classifier is models_dir's too and the file is there (it was chosen for that classifier), else none; the
        classifier's partner likewise is models_dir's PARTNER_CLASSIFIER_FILE, unless `partner_classifier` is off."""
        partner_file = Path(models_dir) / PARTNER_CLASSIFIER_FILE
        self.looks = IndexLooks(
            detector or IndexDetector(Path(models_dir) / DETECTOR_FILE, score_threshold=score_threshold),
            classifier or IndexClassifier(Path(models_dir) / CLASSIFIER_FILE, scale_vote=scale_vote,
                                          scale_vote_min_px=scale_vote_min_px,
                                          partner_path=partner_file if partner_classifier and partner_file.is_file()
                                          else None),
            detection_sizes=detection_sizes, score_threshold=score_threshold, faint_box_score=faint_box_score,
            faint_box_min_probability=faint_box_min_probability, min_card_confidence=min_card_confidence,
            unnamed_box_score=unnamed_box_score, none_sure_probability=none_sure_probability)
        self.crop_source_long_side = crop_source_long_side
        self.fill_min_confidence = fill_min_confidence
        self.sharpen_blurred = sharpen_blurred
        self.unsqueeze_short_reads = unsqueeze_short_reads
        self.read_four_colours = read_four_colours
        self.balance_casts = balance_casts
        second_file = Path(models_dir) / SECOND_CLASSIFIER_FILE
        if second_classifier is None and classifier is None and second_opinion and second_file.is_file():
            second_classifier = IndexClassifier(second_file)
        self.second_classifier = second_classifier if second_opinion else None

    @property
    def detector(self) -> IndexDetector:
        return self.looks.detector

    @property
    def classifier(self) -> IndexClassifier:
        return self.looks.classifier

    @property
    def detection_sizes(self) -> tuple[int, ...]:
        return self.looks.detection_sizes

    @property
    def score_threshold(self) -> float:
        return self.looks.score_threshold

    @property
    def min_card_confidence(self) -> float:
        return self.looks.min_card_confidence

    def warm_up(self) -> None:
        """Run each model and the colour conversions once on a blank picture, so that the first photo read does not
        pay for ONNX Runtime's first runs and OpenCV's colour tables (docs/reader-decisions.md, speed)."""
        size = self.detection_sizes[0]  # a landscape photo's first look: 4 : 3 at the first detection size
        blank = np.full((size * 3 // 4, size, 3), 128, np.uint8)
        self.detector.detect(blank, size)
        boxes = np.array([[10.0, 10.0, 40.0, 70.0]] * 4)
        self.classifier.probabilities(blank, boxes)
        if self.second_classifier is not None:
            self.second_classifier.probabilities(blank, boxes)
        survey_inks(blank, boxes)

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
        image = photo.image
        readings, size, scale = self.looks.find(image, timings)
        # a four-colour deck's blue and green indices leave the first read short, and the two-colour read that follows
        # makes its own second look: the first read's is put off until that read is not kept [speed]
        start = time.perf_counter()
        put_off = not restore_follows and self.read_four_colours and self._shows_four_colours(image, readings)
        timings["four-colour check"] = (time.perf_counter() - start) * 1000
        if not restore_follows and not put_off:
            readings = self.looks.second_look(image, readings, loose, scale, timings)
        first = result = self._result_of(readings, image.shape, reduction, loose, timings, size)
        cast = None
        if self.balance_casts:
            result, image, cast = self._balanced_read(result, image, reduction, loose, timings, restore_follows)
        if self.read_four_colours:
            result, image = self._two_colour_read(result, image, reduction, loose, timings, restore_follows, cast)
        if put_off and result is first:
            readings = self.looks.second_look(image, readings, loose, scale, timings)
            result = self._result_of(readings, image.shape, reduction, loose, timings, size)
        start = time.perf_counter()
        blurred = self._blur_warning(image, result.readings, line)
        timings["sharpness"] = measured_ms + (time.perf_counter() - start) * 1000
        if blurred and self.sharpen_blurred:
            result = self._second_read(result, SHARPENED_READ, timings, loose,
                                       lambda: self._read_image(restored(image, line), reduction, loose, {}))
        if self.unsqueeze_short_reads and result.readings and (self._is_short(result, loose) or (loose and blurred)):
            found = result.readings
            result = self._second_read(result, STRETCHED_READ, timings, loose,
                                       lambda: self._read_stretched_region(image, reduction, found, loose),
                                       accept=self._adds_only_plain_cards if loose else None)
        if blurred:  # measured on the photo as taken: a sharpened read of it is no reason to stop advising a retake
            result.warnings.append(blurred)
        if self.second_classifier is not None:
            start = time.perf_counter()
            doubted = doubted_cards(self.second_classifier, image, result.cards, self.min_card_confidence)
            if doubted:
                result.warnings.append(second_look_warning(doubted))
            timings["second opinion"] = (time.perf_counter() - start) * 1000
        return result

    def _balanced_read(self, result: ReadResult, image: np.ndarray, reduction: float, loose: bool,
                       timings: dict[str, float], restore_follows: bool
                       ) -> tuple[ReadResult, np.ndarray, Cast | None]:
        """The read, the picture the later reads start from and the cast (None without one): when the
        paper at the indices found shows a strong colour cast (vision.casts), the photo balanced to it and read again,
        kept unless fewer of its marks are named surely. Marks, not cards: under the cast the first read names red
        indices black just as surely, and one card's two corners named two codes count as two cards where the balanced
        read merges them into one."""
        start = time.perf_counter()
        paper = paper_colour(image, [r.box for r in result.readings if r.probability >= PAPER_MIN_PROBABILITY])
        timings["paper cast"] = (time.perf_counter() - start) * 1000
        if not shows_cast(paper):
            return result, image, None
        start = time.perf_counter()
        balanced = balanced_to_paper(image, paper)
        second = self._read_image(balanced, reduction, loose, {}, second_look=not restore_follows)
        timings[BALANCED_READ] = (time.perf_counter() - start) * 1000
        cast = Cast(balanced, cast_hue(paper))
        if self._sure_marks(second) < self._sure_marks(result):
            return result, image, cast
        return self._kept(second, result, BALANCED_READ), balanced, cast

    def _two_colour_read(self, result: ReadResult, image: np.ndarray, reduction: float, loose: bool,
                         timings: dict[str, float], restore_follows: bool, cast: Cast | None = None
                         ) -> tuple[ReadResult, np.ndarray]:
        """The read and the picture the later reads start from: when the indices found show a four-colour deck's
        inks (vision.inks), the photo turned two-colour around them and read again, kept when its blue indices are
        named diamonds and green ones clubs (inks_agree: a two-colour deck seen bluish is named as its own suits) and
        it names at least as many cards surely (the first read names blue diamonds as spades just as surely; loose
        cards: or as many marks, _names_fewer) — or the read so far names its sure indices against their inks
        (inks_contradict: it is wrong there, and a card the two-colour read names less surely is left unsure, warned).
        Under a colour `cast` (the photo balanced to its paper, whether or not that read was kept) the inks are
        measured and the view made on the balanced picture: under the lamp itself a four-colour deck's black ink
        measured blue or red and its blue diamonds stayed spades (session 47); and inks near the lamp's hue must be
        more coloured to count (vision.inks.ink_name: the lamp's colour bleeds into black ink; session 48)."""
        start = time.perf_counter()
        unturned = image  # what later reads start from unless this read is kept
        hue = None
        if cast is not None:
            image, hue = cast
        names, paper = survey_inks(image, [r.box for r in result.readings], hue)
        timings["inks"] = (time.perf_counter() - start) * 1000
        if paper is None or not shows_four_colours(names, [r.probability for r in result.readings]):
            return result, unturned
        start = time.perf_counter()
        recoloured = two_colour_view(image, paper, [r.box for r in result.readings])
        second = self._read_image(recoloured, reduction, loose, {}, second_look=not restore_follows)
        second = self._with_plain_inks_kept(second, result, names, recoloured.shape, reduction, loose)
        agree = inks_agree(survey_inks(image, [r.box for r in second.readings], hue)[0],
                           [r.code for r in second.readings])
        timings[TWO_COLOUR_READ] = (time.perf_counter() - start) * 1000
        sure = [(name, r.code) for name, r in zip(names, result.readings) if r.probability >= self.min_card_confidence]
        read_so_far_contradicts = inks_contradict([name for name, _ in sure], [code for _, code in sure])
        if not agree or (self._names_fewer(second, result, loose) and not read_so_far_contradicts):
            return result, unturned
        return self._kept(second, result, TWO_COLOUR_READ), recoloured

    def _with_plain_inks_kept(self, second: ReadResult, first: ReadResult, inks: list[str | None],
                              shape: tuple[int, ...], reduction: float, loose: bool) -> ReadResult:
        """`second` (the two-colour read) where the first read named an index of red ink (PLAIN_INKS) as the turned
        read does but more surely, with the first read's reading of it: turning the photo two-colour leaves red ink
        as it was, yet the turned picture's crops are sometimes named less surely (session 49: val decks' four-colour
        layouts refused for naming fewer cards surely). Only agreeing codes, and not black ink: a navy diamond or a
        dark green club can measure black, and both reads then named a blue 9D's corner 9C, only the turned one
        unsure."""
        plain = [r for ink, r in zip(inks, first.readings) if ink in PLAIN_INKS]
        readings, changed = [], False
        for reading in second.readings:
            surer = max((r for r in plain if r.code == reading.code and r.probability > reading.probability
                         and same_index(r, reading)), key=lambda r: r.probability, default=None)
            readings.append(surer or reading)
            changed = changed or surer is not None
        if not changed:
            return second
        return self._result_of(readings, shape, reduction, loose, second.timings_ms, second.detection_size)

    def _names_fewer(self, second: ReadResult, first: ReadResult, loose: bool) -> bool:
        """Whether `second` names fewer cards surely than `first` (a hand counts at most its 13). Loose cards have no
        count to fill, and one card's two corners named two codes (a blue ten of diamonds' corners TD and TS) count as
        two cards there where a read naming them alike counts one: for them, fewer cards and fewer marks surely too
        (session 47: the real decks in four colours, loose photos read wrong without any warning 0.077 -> 0.066)."""
        fewer_cards = self._preference(second, loose)[0] < self._preference(first, loose)[0]
        return fewer_cards and (not loose or self._sure_marks(second) < self._sure_marks(first))

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
            return self._kept(second, result, name)
        return result

    @staticmethod
    def _kept(second: ReadResult, first: ReadResult, name: str) -> ReadResult:
        """`second`, the read named `name`, kept in place of `first`: it carries the photo's timings (all of them are
        recorded in `first`'s) and the list of second reads kept so far."""
        second.timings_ms = first.timings_ms
        second.kept_reads = [*first.kept_reads, name]
        return second

    @staticmethod
    def _shows_four_colours(image: np.ndarray, readings: list[IndexReading]) -> bool:
        """Whether a look's indices show a four-colour deck's inks, measured as the two-colour read measures them
        without a colour cast."""
        names, paper = survey_inks(image, [r.box for r in readings])
        return paper is not None and shows_four_colours(names, [r.probability for r in readings])

    def _read_image(self, image: np.ndarray, reduction: float, loose: bool, timings: dict[str, float],
                    second_look: bool = True) -> ReadResult:
        """The read of a decoded working image, without the blur warning (`read` adds it)."""
        readings, size, scale = self.looks.find(image, timings)
        if second_look:
            readings = self.looks.second_look(image, readings, loose, scale, timings)
        return self._result_of(readings, image.shape, reduction, loose, timings, size)

    def _read_stretched_region(self, image: np.ndarray, reduction: float, readings: list[IndexReading],
                               loose: bool = False) -> ReadResult:
        """A hand's (or loose cards') read from a first read's `readings` fused (vision.scales) with one closer look (as
        IndexLooks.zoomed) at the region around them, stretched vertically (vision.unsqueeze); boxes in the image's
        pixels. Only the region, one look, and the first read's marks kept where they are surer: session 26's whole
        second read took twice as long for about the same cards (docs/reader.md, session 27)."""
        boxes = np.array([r.box for r in readings], np.float64)
        index_size = float(np.median([r.size for r in readings]))
        x1, y1, x2, y2 = layout_region(boxes, index_size, image.shape)
        region = stretched_vertically(image[y1:y2, x1:x2])
        factor = region.shape[0] / (y2 - y1)
        timings = {"detect": 0.0, "classify": 0.0}
        found, size, _ = self.looks.zoomed(region, readings_into(readings, (x1, y1), (1.0, factor)), timings)
        fused = fuse_sizes([readings, readings_out_of(found, (x1, y1), (1.0, factor))])
        return self._result_of(fused, image.shape, reduction, loose=loose, timings=timings, size=size)

    @staticmethod
    def _adds_only_plain_cards(first: ReadResult, second: ReadResult) -> bool:
        """Whether every card `second` names that `first` does not is named at least LOOSE_STRETCH_MIN_ADDED."""
        named = {card.code for card in first.cards}
        return all(card.confidence >= LOOSE_STRETCH_MIN_ADDED for card in second.cards if card.code not in named)

    def _sure_marks(self, result: ReadResult) -> int:
        """How many index marks the read names at least as surely as the unsure threshold."""
        return sum(r.probability >= self.min_card_confidence for r in result.readings)

    def _is_short(self, result: ReadResult, loose: bool) -> bool:
        """Whether a hand's read may have missed cards (fewer than 13 named surely); loose cards have no count."""
        return not loose and self.looks.count_sure(result.cards) < EXPECTED_CARDS

    def _preference(self, result: ReadResult, loose: bool) -> tuple[int, int]:
        """How good a read looks without knowing the cards: how many it names surely (a hand counts at most its 13),
        then, for a hand, how few warnings it has (rows ambiguous, a card seen twice, low confidence)."""
        sure = self.looks.count_sure(result.cards)
        return (sure, 0) if loose else (min(sure, EXPECTED_CARDS), -len(result.warnings))

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

    def _result_of(self, readings: list[IndexReading], shape: tuple[int, ...], reduction: float, loose: bool,
                   timings: dict[str, float], size: int) -> ReadResult:
        """vision.results.result_of with this reader's thresholds."""
        return result_of(readings, shape, reduction, loose, timings, size, min_card_confidence=self.min_card_confidence,
                         fill_min_confidence=self.fill_min_confidence)


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
