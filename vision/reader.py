"""The card reader: photo bytes → cards (code, confidence, box) in front/middle/back rows, with warnings.

A read runs top to bottom in CardReader.read: decode (vision.decode) → the first look (detect → classify → cards,
rows, warnings: vision.passes.first_look) → the second-read passes in a fixed order (vision.passes: each decides
whether it is wanted, reads again and keeps the better read) → the blur warning and the second opinion → the result.
Settings are one ReaderConfig (vision.reader_config); the measurements behind each pass are in
docs/reader-decisions.md@538d56c under the section its module names in brackets."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.classifier import IndexClassifier
from vision.decode import check_limits, decode_photo
from vision.detector import IndexDetector
from vision.glyphs import GLYPH_CHECK_FILE, GlyphCheck
from vision.inks import survey_inks
from vision.looks import IndexLooks
from vision.motion import motion_line
from vision.passes import Photo, ReadSoFar, balanced, blur, first_look, put_off_look, second_opinion, sharpened, \
    stretched, two_colour
from vision.reader_config import ReaderConfig
from vision.results import ReadResult
from vision.second_opinion import SECOND_CLASSIFIER_FILE
from vision.sureness import CALIBRATION_FILE, judge, load_calibration

MODELS_DIR = Path(os.environ.get("VISION_MODELS_DIR", Path(__file__).resolve().parent.parent / "models"))
DETECTOR_FILE = "cards.onnx"
CLASSIFIER_FILE = "cards_cls.onnx"
# A partner classifier whose probabilities are averaged with the classifier's on every crop, where the models folder
# has one beside it (it was chosen for that classifier) [partner classifier].
PARTNER_CLASSIFIER_FILE = "cards_cls_partner.onnx"
# The second reads a result may name in kept_reads, in their order (the evaluation counts each tried and kept).
SECOND_READS = tuple(step.NAME for step in (balanced, two_colour, sharpened, stretched))


class CardReader:
    """Loads the detector and classifiers once; `read` is safe to call from several threads."""

    def __init__(self, models_dir: Path = MODELS_DIR, config: ReaderConfig | None = None, *,
                 detector: IndexDetector | None = None, classifier: IndexClassifier | None = None,
                 second_classifier: IndexClassifier | None = None, **settings):
        """`settings` are ReaderConfig fields overriding `config` (e.g. `sharpen_blurred=False`). `detector` /
        `classifier` / `second_classifier` replace the ONNX models (anything with the same methods, e.g. in tests).
        The second opinion is `second_classifier`, else models_dir's SECOND_CLASSIFIER_FILE when the classifier is
        models_dir's too and the file is there (it was chosen for that classifier), else none; the classifier's
        partner likewise is models_dir's PARTNER_CLASSIFIER_FILE, unless the config's partner_classifier is off."""
        self.config = config = replace(config or ReaderConfig(), **settings)
        models_dir = Path(models_dir)
        partner = models_dir / PARTNER_CLASSIFIER_FILE
        partner = partner if config.partner_classifier and partner.is_file() else None
        self.looks = IndexLooks(
            detector or IndexDetector(models_dir / DETECTOR_FILE, score_threshold=config.score_threshold),
            classifier or IndexClassifier(models_dir / CLASSIFIER_FILE, scale_vote=config.scale_vote,
                                          scale_vote_min_px=config.scale_vote_min_px, partner_path=partner),
            config)
        second_file = models_dir / SECOND_CLASSIFIER_FILE
        if second_classifier is None and classifier is None and config.second_opinion and second_file.is_file():
            second_classifier = IndexClassifier(second_file)
        self.second_classifier = second_classifier if config.second_opinion else None
        # the confidence's calibration (vision.sureness), where the models folder ships one for its models
        self.calibration = load_calibration(models_dir / CALIBRATION_FILE)
        # the index-glyph check (vision.glyphs: a deck whose letters are not French), with the models it was made for
        glyph_file = models_dir / GLYPH_CHECK_FILE
        self.glyph_check = GlyphCheck(glyph_file) if classifier is None and glyph_file.is_file() else None

    def read(self, data: bytes, *, loose: bool = False) -> ReadResult:
        photo = self._decoded(data, loose)  # decode; the moved camera's line, measured once
        so_far = first_look.read(photo)  # detect → classify → cards, rows, warnings
        so_far = _tried(balanced, so_far, photo)  # a coloured lamp: balanced to the paper
        so_far = _tried(two_colour, so_far, photo)  # four-colour inks: turned two-colour
        so_far = _tried(put_off_look, so_far, photo)  # the first look's larger look, put off for the two-colour read
        so_far = blur.measured(so_far, photo)  # blurred? (on the picture the passes above left)
        so_far = _tried(sharpened, so_far, photo)  # blurred: restored
        so_far = _tried(stretched, so_far, photo)  # a hand short (loose: blurred): its region stretched
        so_far = blur.warned(so_far)  # measured before the sharpened read: still advise a retake
        so_far = second_opinion.warned(so_far, photo, self.second_classifier)  # a second classifier's doubts
        return self._judged(so_far)

    def _judged(self, so_far: ReadSoFar) -> ReadResult:
        """The read's result with each card's calibrated chance, doubts and sure flag (vision.sureness)."""
        start = time.perf_counter()
        cast = so_far.cast
        cast_hue = cast.hue if cast is not None and so_far.picture is not cast.balanced else None
        result = so_far.result
        warnings = judge(result.cards, so_far.picture, self.calibration, self.config.sure_chance,
                         self.config.min_card_confidence, cast_hue, blurred=so_far.blurred is not None,
                         glyph_check=self.glyph_check)
        result.timings_ms["sureness"] = (time.perf_counter() - start) * 1000
        return replace(result, warnings=[*result.warnings, *warnings]) if warnings else result

    def _decoded(self, data: bytes, loose: bool) -> Photo:
        timings: dict[str, float] = {}
        start = time.perf_counter()
        decoded = decode_photo(data, min_long_side=self.config.crop_source_long_side)
        timings["decode"] = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        line = motion_line(decoded.image)
        timings["sharpness"] = (time.perf_counter() - start) * 1000  # blur.measured adds the index sharpness
        return Photo(decoded.image, float(decoded.reduction), loose, line, self.looks, self.config, timings)

    @property
    def detector(self) -> IndexDetector:
        return self.looks.detector

    @property
    def classifier(self) -> IndexClassifier:
        return self.looks.classifier

    @property
    def detection_sizes(self) -> tuple[int, ...]:
        return self.config.detection_sizes

    @property
    def score_threshold(self) -> float:
        return self.config.score_threshold

    @property
    def min_card_confidence(self) -> float:
        return self.config.min_card_confidence

    _blur_warning = staticmethod(blur.blur_warning)  # callers measuring a picture's blur as a read does

    def warm_up(self) -> None:
        """Run each model and the colour conversions once on a blank picture, so that the first photo read does not
        pay for ONNX Runtime's first runs and OpenCV's colour tables (docs/reader-decisions.md@538d56c, speed)."""
        size = self.detection_sizes[0]  # a landscape photo's first look: 4 : 3 at the first detection size
        blank = np.full((size * 3 // 4, size, 3), 128, np.uint8)
        self.detector.detect(blank, size)
        boxes = np.array([[10.0, 10.0, 40.0, 70.0]] * 4)
        self.classifier.probabilities(blank, boxes)
        if self.second_classifier is not None:
            self.second_classifier.probabilities(blank, boxes)
        survey_inks(blank, boxes)


def _tried(step, so_far: ReadSoFar, photo: Photo) -> ReadSoFar:
    """One pass: its second read where it is wanted, and whichever read its rule keeps."""
    reason = step.wanted(so_far, photo)
    if reason is None:
        return so_far
    return step.better(so_far, step.read(so_far, photo, reason), photo, reason)


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
