"""The whole reader (decode → detect → classify → merge → rows → JSON) without the trained models,
on drawn layouts (see drawn_layouts.py)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.casts import cast_hue
from vision.crops import CLASS_NAMES, index_crop
from vision.decode import decode_photo
from vision.messages import BLURRED_WARNING, NO_CARDS_WARNING
from vision.motion import MotionLine
from vision.looks import DETECTION_SIZES, LARGER_DETECTION_SIZE
from vision.passes import Photo, two_colour
from vision.reader import CardReader
from vision.sharpness import BLURRED_BELOW, crop_sharpness

from conftest import jpeg_with_orientation
from drawn_layouts import MARKER, ColourClassifier, MarkerDetector, code_colour, deal, jpeg, render

MARKER_HEIGHT_PX = 2.5 * (MARKER[:, 1].max() - MARKER[:, 1].min())  # at render scale 2.5


@pytest.fixture
def reader():
    return CardReader(detector=MarkerDetector(), classifier=ColourClassifier())


def as_rows(rows):
    return dict(zip(("front", "middle", "back"), rows))


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 37, 201])
def test_layout_rows_at_any_rotation(reader, angle):
    rows = deal(angle)
    image, _ = render(rows, angle=angle)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)
    assert result["warnings"] == []
    assert [c["row"] for c in result["cards"]] == ["front"] * 3 + ["middle"] * 5 + ["back"] * 5
    # both corners of every card read at 0.97: the card is sure unless both are wrong
    assert all(c["confidence"] == pytest.approx(1 - 0.03 ** 2, abs=1e-3) for c in result["cards"])


def test_fanned_rows_where_only_corner_indices_show(reader):
    rows = deal(5)
    image, _ = render(rows, step=(52.0, 120.0), scale=2.0, angle=150)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)


def test_portrait_photo_upside_down(reader):
    rows = deal(6)
    image, _ = render(rows, size=(1500, 2000), angle=180, scale=1.0)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)


def test_exif_rotated_photo(reader):
    rows = deal(7)
    image, _ = render(rows, angle=10)
    stored = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)  # the camera stored it sideways ...
    data = jpeg_with_orientation(stored, 8)  # ... and says "turn me 90° counter-clockwise"
    assert reader.read(data).to_dict()["rows"] == as_rows(rows)


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_boxes_are_in_photo_pixels_after_reduced_decoding(ext):
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(), crop_source_long_side=900)
    rows = deal(8)
    image, where = render(rows, scale=2.4, size=(4000, 3000))
    read = reader.read(jpeg(image) if ext == ".jpg" else cv2.imencode(ext, image)[1].tobytes())
    assert read.scale == 4.0  # 4000 px decoded at 1/4 still has a long side ≥ 900 (a PNG too, since session 27)
    result = read.to_dict()
    assert result["rows"] == as_rows(rows)
    for card in result["cards"]:
        markers = np.array(where[card["code"]])
        expected = [markers[:, 0].min(), markers[:, 1].min(), markers[:, 2].max(), markers[:, 3].max()]
        assert card["box"] == pytest.approx(expected, abs=8)


def test_close_up_of_one_card_uses_a_smaller_detection_size(reader):
    image, _ = render([["QH"]], scale=6.0, size=(1500, 2000))  # markers ~340 px tall
    read = reader.read(jpeg(image), loose=True)
    assert read.detection_size in DETECTION_SIZES[1:]  # markers too big at the first size
    assert [c["code"] for c in read.to_dict()["cards"]] == ["QH"]


class PartsAtLargeSizes:
    """Like a real close-up: at 640 the detector fires on four parts of the indices that the classifier
    cannot name (probability 0.2); at 320 it finds the two real indices (0.9)."""

    score_threshold = 0.25

    def detect(self, image, long_side, *, score_threshold=None):
        count = 4 if long_side >= 640 else 2
        boxes = np.array([[100.0 + 300 * i, 100.0, 160.0 + 300 * i, 180.0] for i in range(count)], np.float32)
        return boxes, np.full(count, 0.8, np.float32)


class ProbabilityBySize:
    def probabilities(self, image, boxes):
        out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
        if len(boxes) == 2:
            out[:, CLASS_NAMES.index("QH")], out[:, -1] = 0.9, 0.1
        else:  # unsure between look-alikes, but not "none"
            out[:, CLASS_NAMES.index("4C")], out[:, CLASS_NAMES.index("4D")] = 0.2, 0.19
            out[:, CLASS_NAMES.index("4S")], out[:, CLASS_NAMES.index("4H")], out[:, -1] = 0.19, 0.19, 0.23
        return out


def test_the_size_where_the_classifier_is_sure_wins_over_the_size_with_more_boxes():
    reader = CardReader(detector=PartsAtLargeSizes(), classifier=ProbabilityBySize())
    read = reader.read(jpeg(np.full((1500, 2000, 3), 90, np.uint8)), loose=True)
    assert read.detection_size == 320
    assert {c.code for c in read.cards} == {"QH"}


def test_layout_far_from_the_camera_is_read_again_closer():
    rows = deal(13)
    image, _ = render(rows, scale=0.45, angle=20)  # markers ~25 px tall in 2000 px: ~8 px at 640
    # spare_looks off: the drawn first look names all 13 surely, which spares the closer look (test_spared_looks.py)
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(), spare_looks=False)
    read = reader.read(jpeg(image))
    # the layout's region (about a third of the photo) enlarged: markers near TARGET_INDEX_PX at the input
    assert read.detection_size > 640
    assert read.to_dict()["rows"] == as_rows(rows)
    assert [card["row"] for card in read.to_dict()["cards"]] == ["front"] * 3 + ["middle"] * 5 + ["back"] * 5


class StrayMarksInTheWholePhoto(MarkerDetector):
    """Also fires on eight blank spots when shown the whole photo (as a detector that finds more small marks at the
    first look does), and records every look."""

    def __init__(self, photo_shape):
        self.photo_shape = photo_shape
        self.looks = []

    def detect(self, image, long_side, *, score_threshold=None):
        self.looks.append(long_side)
        boxes, scores = super().detect(image, long_side)
        if image.shape[:2] == self.photo_shape:
            strays = np.array([[40.0 + 60 * i, 40.0, 60.0 + 60 * i, 70.0] for i in range(8)], np.float32)
            boxes, scores = np.vstack([boxes, strays]), np.concatenate([scores, np.full(8, 0.5, np.float32)])
        return boxes, scores


class UnsureOfBlankSpots(ColourClassifier):
    """Names the drawn markers surely and a blank spot 2C at 0.45 (not sure, but not `none`)."""

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        blank = out[:, -1] == self.probability
        out[blank] = 0.55 / (len(CLASS_NAMES) - 1)
        out[blank, CLASS_NAMES.index("2C")] = 0.45
        return out


def test_a_closer_look_that_names_as_many_cards_surely_is_kept_over_a_first_read_with_more_marks():
    rows = deal(13)
    image, _ = render(rows, scale=0.45, angle=20)
    detector = StrayMarksInTheWholePhoto(image.shape[:2])
    read = CardReader(detector=detector, classifier=UnsureOfBlankSpots(), spare_looks=False).read(jpeg(image))
    # the first read's stray marks add probability but no sure card: the closer look (finer pixels) wins, and
    # the hand it reads is whole, so no look follows (a second look or a stretched read would be a third)
    assert read.detection_size > 640 and len(detector.looks) == 2
    assert read.to_dict()["rows"] == as_rows(rows) and read.warnings == []


def test_stray_marks_outside_the_closer_look_stay_dropped_with_the_unnamed_box_rule():
    """The first look's stray marks (scored 0.5, named unsurely) lie outside the region the closer look saw: the rule
    carries only marks the closer look could have seen, so the read still warns of nothing."""
    rows = deal(13)
    image, _ = render(rows, scale=0.45, angle=20)
    detector = StrayMarksInTheWholePhoto(image.shape[:2])
    read = CardReader(detector=detector, classifier=UnsureOfBlankSpots(), unnamed_box_score=0.4,
                      none_sure_probability=0.7, spare_looks=False).read(jpeg(image))
    assert read.detection_size > 640
    assert read.to_dict()["rows"] == as_rows(rows) and read.warnings == []


class HalfBlindOutsideTheWholePhoto(MarkerDetector):
    """Finds only the left half's marks in any picture but the whole photo."""

    def __init__(self, photo_shape):
        self.photo_shape = photo_shape

    def detect(self, image, long_side, *, score_threshold=None):
        boxes, scores = super().detect(image, long_side)
        if image.shape[:2] != self.photo_shape:
            keep = boxes[:, 2] < 0.5 * image.shape[1]
            boxes, scores = boxes[keep], scores[keep]
        return boxes, scores


def test_a_closer_look_that_names_fewer_cards_surely_is_not_kept():
    rows = deal(13)
    image, _ = render(rows, scale=0.45, angle=20)
    read = CardReader(detector=HalfBlindOutsideTheWholePhoto(image.shape[:2]),
                      classifier=ColourClassifier()).read(jpeg(image))
    assert read.detection_size == 640
    assert read.to_dict()["rows"] == as_rows(rows) and read.warnings == []


@pytest.mark.parametrize("rule_on", [True, False])
def test_a_mark_the_first_look_saw_and_the_closer_look_missed_is_still_warned(rule_on):
    """A far layout read loose: the first look (the whole photo) sees one card's corners but names them unsurely; the
    closer look, which replaces it, misses them. With the unnamed-box rule the mark stays as an unnamed reading and
    is warned of; without it the card vanishes without a word (session 52, the real decks' 0179)."""
    rows = deal(13)
    image, _ = render(rows, scale=0.45, angle=20)
    missed = rows[1][2]

    class MissesOneCardCloser(MarkerDetector):
        def detect(self, picture, long_side, *, score_threshold=None):
            boxes, scores = super().detect(picture, long_side)
            if picture.shape[:2] != image.shape[:2]:
                keep = [not _shows(picture, box, missed) for box in boxes]
                boxes, scores = boxes[keep], scores[keep]
            return boxes, scores

    class UnsureOfItInTheWholePhoto(ColourClassifier):
        def probabilities(self, picture, boxes):
            out = super().probabilities(picture, boxes)
            if picture.shape[:2] == image.shape[:2]:
                for row, box in enumerate(boxes):
                    if _shows(picture, box, missed):
                        out[row] = 0.74 / (len(CLASS_NAMES) - 1)
                        out[row, CLASS_NAMES.index(missed)] = 0.26
            return out

    settings = dict(unnamed_box_score=0.5, none_sure_probability=0.6) if rule_on else dict(unnamed_box_score=1.01)
    read = CardReader(detector=MissesOneCardCloser(), classifier=UnsureOfItInTheWholePhoto(), **settings).read(
        jpeg(image), loose=True)
    assert read.detection_size > 640  # the closer look was kept
    assert sorted(c.code for c in read.cards) == sorted(code for row in rows for code in row if code != missed)
    warned = [w for w in read.warnings if w.startswith("left out unsure marks")]
    assert warned == ([f"left out unsure marks: {missed}? (0.45)"] if rule_on else [])


def _shows(picture, box, code) -> bool:
    """Whether a drawn marker box shows `code`'s colour at its centre."""
    x, y = int((box[0] + box[2]) / 2), int((box[1] + box[3]) / 2)
    return bool(np.abs(picture[y, x].astype(int) - np.array(code_colour(code))).max() <= 8)


def test_nothing_found_tries_the_larger_size():
    class FindsOnlyLarge:
        score_threshold = 0.25

        def __init__(self):
            self.sizes = []

        def detect(self, image, long_side, *, score_threshold=None):
            self.sizes.append(long_side)
            if long_side < LARGER_DETECTION_SIZE:
                return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
            return np.array([[100, 100, 160, 180]], np.float32), np.array([0.9], np.float32)

    class SaysQH:
        def probabilities(self, image, boxes):
            out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
            out[:, CLASS_NAMES.index("QH")] = 1.0
            return out

    detector = FindsOnlyLarge()
    read = CardReader(detector=detector, classifier=SaysQH()).read(
        jpeg(np.full((1500, 2000, 3), 90, np.uint8)), loose=True)
    assert detector.sizes[-1] == LARGER_DETECTION_SIZE and read.detection_size == LARGER_DETECTION_SIZE
    assert [c.code for c in read.cards] == ["QH"]


@pytest.mark.parametrize("probability, kept", [(0.95, True), (0.85, False)])
def test_a_faint_box_is_kept_only_where_the_classifier_names_it_plainly(probability, kept):
    """The detector is asked down to the faint score; a box under the detector's threshold stays only when the
    classifier names it at least FAINT_BOX_MIN_PROBABILITY (a small, soft index), unlike a sure box."""
    class SureAndFaint:
        def __init__(self):
            self.thresholds = []

        def detect(self, image, long_side, *, score_threshold=None):
            self.thresholds.append(score_threshold)
            boxes = np.array([[100, 100, 160, 180], [400, 100, 460, 180], [700, 100, 760, 180]], np.float32)
            scores = np.array([0.9, 0.15, 0.05], np.float32)
            keep = scores >= score_threshold
            return boxes[keep], scores[keep]

    class NamesBySide:
        def probabilities(self, image, boxes):
            out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
            for row, box in enumerate(boxes):
                code, p = ("QH", 1.0) if box[0] < 300 else ("KS", probability)
                out[row, CLASS_NAMES.index(code)], out[row, -1] = p, 1.0 - p
            return out

    detector = SureAndFaint()
    read = CardReader(detector=detector, classifier=NamesBySide(), faint_box_score=0.1,
                      faint_box_min_probability=0.9).read(jpeg(np.full((600, 900, 3), 90, np.uint8)), loose=True)
    assert set(detector.thresholds) == {0.1}
    assert sorted(c.code for c in read.cards) == (["KS", "QH"] if kept else ["QH"])
    # the box under the faint score is never classified, however plainly it would be named
    assert all(r.detector_score >= 0.1 for r in read.readings)


@pytest.mark.parametrize("score, none_probability, warned", [
    (0.7, 0.45, True),   # a sure box the classifier barely calls `none`: a half-seen index, warned
    (0.3, 0.45, False),  # a doubtful box: art or text, dropped as before
    (0.7, 0.65, False),  # `none` named surely: dropped
])
def test_a_sure_box_named_none_unsurely_is_left_out_as_an_unsure_mark(score, none_probability, warned):
    """A box the detector scores at least unnamed_box_score but the classifier names `none` less surely than
    none_sure_probability becomes its likeliest card, named no more surely than half the unsure threshold: the loose
    read leaves it out and says so instead of missing the card without a word."""
    class TwoBoxes:
        def detect(self, image, long_side, *, score_threshold=None):
            return (np.array([[100, 100, 160, 180], [400, 100, 460, 180]], np.float32),
                    np.array([0.9, score], np.float32))

    class SecondBoxUnnamed:
        def probabilities(self, image, boxes):
            out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
            for row, box in enumerate(boxes):
                if box[0] < 300:
                    out[row, CLASS_NAMES.index("QH")] = 1.0
                else:  # `none` first, TS second
                    ts = min(0.4, 1.0 - none_probability)
                    out[row, -1], out[row, CLASS_NAMES.index("TS")] = none_probability, ts
                    out[row, CLASS_NAMES.index("9S")] = 1.0 - none_probability - ts
            return out

    read = CardReader(detector=TwoBoxes(), classifier=SecondBoxUnnamed(), unnamed_box_score=0.5,
                      none_sure_probability=0.6).read(jpeg(np.full((600, 900, 3), 90, np.uint8)), loose=True)
    assert [c.code for c in read.cards] == ["QH"]
    unsure = [w for w in read.warnings if w.startswith("left out unsure marks")]
    assert unsure == (["left out unsure marks: TS? (0.35)"] if warned else [])


def test_two_corners_of_an_unnamed_card_are_one_mark_and_name_no_card():
    """Two sure boxes of one card, each named `none` just before TS: one mark in the warning (their two corners
    merged), and no card named from indices that lost to `none`."""
    class TwoCorners:
        def detect(self, image, long_side, *, score_threshold=None):
            return (np.array([[100, 100, 160, 180], [300, 400, 360, 480]], np.float32), np.array([0.9, 0.9], np.float32))

    class UnnamedTS:
        def probabilities(self, image, boxes):
            out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
            out[:, -1], out[:, CLASS_NAMES.index("TS")] = 0.55, 0.45
            return out

    read = CardReader(detector=TwoCorners(), classifier=UnnamedTS(), unnamed_box_score=0.5,
                      none_sure_probability=0.6).read(jpeg(np.full((600, 900, 3), 90, np.uint8)), loose=True)
    assert read.cards == []
    assert [w for w in read.warnings if w.startswith("left out unsure marks")] == ["left out unsure marks: TS? (0.58)"]


def test_an_unnamed_box_a_card_accounts_for_neither_moves_the_card_nor_warns():
    """A layout read right, plus a sure box on the face of one of its cards that the classifier calls `none` with
    that card's code second: the card read elsewhere accounts for it, so the rows and their order stay as they
    were and nothing is warned (session 52: merged into the card, such a mark moved it and swapped a row's order)."""
    rows = deal(11)
    image, where = render(rows)
    code = rows[1][2]
    (x1, y1, x2, y2) = where[code][0]
    stray = np.array([[x1 + 60, y1 + 40, x2 + 60, y2 + 40]], np.float32)  # on the card's face, beside its index

    class WithStrayBox(MarkerDetector):
        def detect(self, image, long_side, *, score_threshold=None):
            boxes, scores = super().detect(image, long_side, score_threshold=score_threshold)
            return np.vstack([boxes, stray]), np.append(scores, np.float32(0.9))

    class StrayUnnamed(ColourClassifier):
        def probabilities(self, image, boxes):
            out = super().probabilities(image, boxes)
            for row, box in enumerate(boxes):
                if abs(box[0] - stray[0, 0]) < 2 and abs(box[1] - stray[0, 1]) < 2:
                    out[row] = 0.0
                    out[row, -1], out[row, CLASS_NAMES.index(code)] = 0.5, 0.3
            return out

    read = CardReader(detector=WithStrayBox(), classifier=StrayUnnamed(), unnamed_box_score=0.5,
                      none_sure_probability=0.6).read(jpeg(image))
    assert any(r.unnamed for r in read.readings)  # the box was kept as an unnamed reading...
    assert read.to_dict()["rows"] == as_rows(rows)  # ...and changed nothing: not the rows,
    assert read.warnings == []
    card = next(c for c in read.cards if c.code == code)
    marker_centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in where[code]])
    assert np.allclose(card.centre, marker_centres.mean(axis=0), atol=3)  # nor the card's place


class SizeRecordingDetector(MarkerDetector):
    def __init__(self):
        self.sizes = []
        self.looks = []  # (image shape, input long side) of every look

    def detect(self, image, long_side, *, score_threshold=None):
        self.sizes.append(long_side)
        self.looks.append((image.shape[:2], long_side))
        return super().detect(image, long_side)

    def larger_looks(self, photo_long_side):
        """Looks at (about) the scale the whole photo has at the larger size."""
        scale = LARGER_DETECTION_SIZE / photo_long_side
        return [(shape, side) for shape, side in self.looks if abs(side / max(shape) - scale) < 0.02]


class BlindToTheRightBelowTheLargerSize(SizeRecordingDetector):
    """Misses the indices on the right of what it is shown below the scale the photo has at the larger size (as if
    squeezed by a steep view)."""

    def __init__(self, photo_long_side=2000):
        super().__init__()
        self.photo_long_side = photo_long_side

    def detect(self, image, long_side, *, score_threshold=None):
        boxes, scores = super().detect(image, long_side)
        if min(long_side / max(image.shape[:2]), 1.0) < 0.95 * LARGER_DETECTION_SIZE / self.photo_long_side:
            keep = boxes[:, 0] < 0.6 * image.shape[1]
            boxes, scores = boxes[keep], scores[keep]
        return boxes, scores


def test_a_short_hand_gets_a_second_look_at_the_larger_size():
    rows = deal(14)
    image, _ = render(rows)
    detector = BlindToTheRightBelowTheLargerSize()
    result = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image)).to_dict()
    assert len(detector.larger_looks(2000)) == 1
    assert result["rows"] == as_rows(rows) and result["warnings"] == []
    # loose cards read surely have no expected count: no second look
    detector = BlindToTheRightBelowTheLargerSize()
    loose = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image), loose=True).to_dict()
    assert not detector.larger_looks(2000) and 0 < len(loose["cards"]) < 13


def test_the_second_look_covers_the_layout_not_the_whole_photo():
    rows = deal(16)
    # the layout in the left half of a 3200x2400 photo; the detector misses its right end below the larger scale
    image, _ = render(rows, size=(3200, 2400), centre=(1500, 1000), scale=2.0)
    detector = BlindToTheRightBelowTheLargerSize(photo_long_side=3200)
    result = CardReader(detector=detector, classifier=ColourClassifier(), crop_source_long_side=3200).read(
        jpeg(image)).to_dict()
    ((shape, side),) = detector.larger_looks(3200)
    assert shape[1] < 3200 and side < LARGER_DETECTION_SIZE  # the region only, at the larger size's scale
    assert result["rows"] == as_rows(rows)


class LooseBoxesOnTheRightBelowTheLargerSize(BlindToTheRightBelowTheLargerSize):
    """Finds the indices right of 45 % of the width below the larger size's scale but with boxes 1.8 times too big."""

    def detect(self, image, long_side, *, score_threshold=None):
        boxes, scores = SizeRecordingDetector.detect(self, image, long_side)
        if min(long_side / max(image.shape[:2]), 1.0) < 0.95 * LARGER_DETECTION_SIZE / self.photo_long_side:
            right = boxes[:, 0] >= 0.45 * image.shape[1]
            centre = (boxes[right, :2] + boxes[right, 2:]) / 2
            half = (boxes[right, 2:] - boxes[right, :2]) * 0.9
            boxes[right] = np.hstack([centre - half, centre + half])
        return boxes, scores


class UnsureOfBigBoxes(ColourClassifier):
    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        big = (boxes[:, 3] - boxes[:, 1]) > 1.5 * MARKER_HEIGHT_PX
        out[big] = np.where(out[big] == out[big].max(axis=1, keepdims=True), 0.2, 0.8 / (out.shape[1] - 1))
        return out


def test_loose_cards_left_unsure_get_a_second_look_over_the_whole_photo():
    rows = deal(17)
    # the cards in the left half of a wide photo: a hand's look would cover them only, loose cards need it all
    image, _ = render(rows, size=(4000, 2400), centre=(1300, 1200), scale=2.5)
    detector = LooseBoxesOnTheRightBelowTheLargerSize(photo_long_side=4000)
    read = CardReader(detector=detector, classifier=UnsureOfBigBoxes(), crop_source_long_side=4000).read(
        jpeg(image), loose=True)
    ((shape, side),) = detector.larger_looks(4000)
    assert shape == (2400, 4000) and side == LARGER_DETECTION_SIZE
    assert sorted(c.code for c in read.cards) == sorted(sum(rows, []))
    assert all(c.confidence > 0.9 for c in read.cards)


def test_a_hand_read_by_a_closer_look_as_fine_as_the_larger_size_gets_no_second_look():
    rows = deal(18)
    image, _ = render(rows, scale=0.45, angle=20)  # far: read by a closer look at about full scale (> 1024 / 2000)
    detector = SizeRecordingDetector()
    unsure = {rows[1][2]: 0.2}  # 0.36 for the card's two corners: left out
    read = CardReader(detector=detector, classifier=SomeUnsure(unsure)).read(jpeg(image))
    assert read.detection_size > 640 and len(read.cards) == 13  # the unsure card fills the short hand
    assert not detector.larger_looks(2000)  # the same pixels at a coarser scale would not name it better
    # loose cards may lie outside the closer look's region: the whole photo is looked at
    detector = SizeRecordingDetector()
    CardReader(detector=detector, classifier=SomeUnsure(unsure)).read(jpeg(image), loose=True)
    assert [(shape, side) for shape, side in detector.larger_looks(2000)] == [((1500, 2000), LARGER_DETECTION_SIZE)]


def test_a_full_hand_needs_no_second_look():
    detector = SizeRecordingDetector()
    image, _ = render(deal(15))
    result = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image)).to_dict()
    assert len(result["cards"]) == 13 and LARGER_DETECTION_SIZE not in detector.sizes


def test_missing_card_and_card_seen_twice(reader):
    rows = deal(9)
    rows[0][0] = rows[2][4]  # the same card in the front and the back row, far apart
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    # a hand of 13: which of the two is misread is unknown, so both stay
    assert f"card seen twice: {rows[2][4]} appears 2 times far apart" in result["warnings"]
    assert [c["code"] for c in result["cards"]].count(rows[2][4]) == 2
    rows = deal(10)
    del rows[2][0]
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)
    assert "expected 13 cards, found 12" in result["warnings"]
    assert "back row has 4 card(s), expected 5" in result["warnings"]


def test_low_confidence_is_reported():
    # each corner 0.3, the card's two corners together 1 - 0.7 ** 2 = 0.51: kept but low
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(probability=0.3))
    rows = deal(11)
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    low = [w for w in result["warnings"] if w.startswith("low confidence")]
    assert len(low) == 13 and "(0.51)" in low[0]
    assert result["rows"] == as_rows(rows)


def test_unsure_marks_are_left_out_and_named_in_a_warning():
    # each corner 0.1: the card 1 - 0.9 ** 2 = 0.19, under both the keep (0.7) and the fill (0.2) thresholds
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(probability=0.1))
    rows = deal(11)
    image, _ = render(rows)
    read = reader.read(jpeg(image))
    result = read.to_dict()
    assert result["cards"] == []
    unsure = [w for w in result["warnings"] if w.startswith("left out unsure marks: ")]
    assert len(unsure) == 1 and "? (0.19)" in unsure[0] and unsure[0].endswith(" ...")
    # the evaluation still sees every classified index (two per card)
    assert len(read.readings) == 26 and [r.probability for r in read.readings] == pytest.approx([0.1] * 26)


class SomeUnsure(ColourClassifier):
    """Sure of every card but those in `corner_probability`, named right with that probability per corner."""

    def __init__(self, corner_probability):
        super().__init__()
        self.corner_probability = corner_probability

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        for row in out:
            code = CLASS_NAMES[int(row.argmax())]
            if code in self.corner_probability:
                p = self.corner_probability[code]
                row[:] = (1 - p) / (len(CLASS_NAMES) - 1)
                row[CLASS_NAMES.index(code)] = p
        return out


def test_a_short_hand_is_filled_with_the_most_confident_unsure_cards():
    rows = deal(13)
    filled, also_filled, too_faint = rows[1][2], rows[2][0], rows[0][1]
    # cards: 1 - 0.75 ** 2 = 0.44 and 1 - 0.8 ** 2 = 0.36 fill the hand; 1 - 0.9 ** 2 = 0.19 stays out
    classifier = SomeUnsure({filled: 0.25, also_filled: 0.2, too_faint: 0.1})
    reader = CardReader(detector=MarkerDetector(), classifier=classifier)
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    expected = [[code for code in row if code != too_faint] for row in rows]
    assert result["rows"] == as_rows(expected)
    assert f"left out unsure marks: {too_faint}? (0.19)" in result["warnings"]
    assert f"low confidence: {filled} (0.44)" in result["warnings"]
    assert f"low confidence: {also_filled} (0.36)" in result["warnings"]
    assert "expected 13 cards, found 12" in result["warnings"]
    # loose cards have no hand size to fill: every unsure card stays out
    loose = reader.read(jpeg(image), loose=True).to_dict()
    assert {c["code"] for c in loose["cards"]} == set(sum(rows, [])) - {filled, also_filled, too_faint}


def test_filling_a_hand_never_repeats_a_card_read_surely():
    reader = CardReader(detector=TwoFaintCopies(), classifier=SureThenFaint(), detection_sizes=(640,))
    result = reader.read(jpeg(np.full((1500, 2000, 3), 90, np.uint8))).to_dict()
    assert [c["code"] for c in result["cards"]] == ["TS"]
    assert "left out unsure marks: TS? (0.40)" in result["warnings"]


def test_loose_mode(reader):
    rows = deal(12)
    image, _ = render(rows, angle=60)
    result = reader.read(jpeg(image), loose=True).to_dict()
    assert result["rows"] is None
    assert sorted(c["code"] for c in result["cards"]) == sorted(sum(rows, []))
    assert all(c["row"] is None for c in result["cards"])
    assert result["warnings"] == []


class TwoFaintCopies:
    """The same card found twice far apart, named surely once and faintly once."""

    score_threshold = 0.25

    def detect(self, image, long_side, *, score_threshold=None):
        return np.array([[100.0, 100.0, 130.0, 140.0], [1500.0, 1000.0, 1530.0, 1040.0]], np.float32), \
            np.array([0.8, 0.8], np.float32)


def test_a_hand_of_14_naming_a_card_twice_leaves_out_the_less_sure_one(reader):
    rows = deal(11)
    image, where = render(rows)
    # a mark in the middle of a front card's face that reads as a back-row card (face art read as an index)
    top_left, bottom_right = where[rows[0][1]]
    centre = (top_left[:2] + bottom_right[2:]) / 2
    half = (top_left[2:] - top_left[:2]) / 2
    x1, y1 = np.round(centre - half).astype(int)
    x2, y2 = np.round(centre + half).astype(int)
    cv2.rectangle(image, (x1, y1), (x2, y2), code_colour(rows[2][1]), -1)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)
    assert result["warnings"] == [f"card seen twice: {rows[2][1]} far apart in a hand of 14; the less sure (0.97) "
                                  "left out"]
    kept = next(card for card in result["cards"] if card["code"] == rows[2][1])
    assert kept["row"] == "back" and kept["box"][1] > y2  # the card read by both its corners stays


class SureThenFaint:
    def probabilities(self, image, boxes):
        out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
        out[0, CLASS_NAMES.index("TS")], out[0, -1] = 0.95, 0.05
        out[1:, CLASS_NAMES.index("TS")], out[1:, CLASS_NAMES.index("TD")], out[1:, -1] = 0.4, 0.35, 0.25
        return out


def test_a_faint_copy_left_out_does_not_make_a_card_seen_twice():
    reader = CardReader(detector=TwoFaintCopies(), classifier=SureThenFaint(), detection_sizes=(640,))
    result = reader.read(jpeg(np.full((1500, 2000, 3), 90, np.uint8)), loose=True).to_dict()
    assert [c["code"] for c in result["cards"]] == ["TS"]
    assert result["warnings"] == ["left out unsure marks: TS? (0.40)"]


class IndicesAtTheEdge:
    """Four index boxes in a 2000 x 1500 photo: KD's only index cut by the left edge, AS's two corners (one cut by
    the bottom edge, one whole), 7H's whole; nothing in any other picture (a region of it looked at again)."""

    score_threshold = 0.25
    BOXES = {"KD": [[0.0, 300.0, 40.0, 380.0]], "AS": [[900.0, 1440.0, 950.0, 1500.0], [700.0, 1000.0, 750.0, 1080.0]],
             "7H": [[1400.0, 600.0, 1450.0, 680.0]]}

    def detect(self, image, long_side, *, score_threshold=None):
        boxes = [box for boxes in self.BOXES.values() for box in boxes]
        boxes = boxes if image.shape[:2] == (1500, 2000) else []
        return np.array(boxes, np.float32).reshape(-1, 4), np.full(len(boxes), 0.8, np.float32)


class NamedByPlace:
    """Names each of IndicesAtTheEdge's boxes surely (0.95) by where it lies."""

    def probabilities(self, image, boxes):
        out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
        for row, box in zip(out, boxes):
            code = next(c for c, known in IndicesAtTheEdge.BOXES.items() if any(np.allclose(box, k) for k in known))
            row[CLASS_NAMES.index(code)], row[-1] = 0.95, 0.05
        return out


def test_a_card_seen_only_through_an_index_cut_by_the_photo_edge_is_not_named_surely():
    reader = CardReader(detector=IndicesAtTheEdge(), classifier=NamedByPlace(), detection_sizes=(640,))
    photo = jpeg(np.full((1500, 2000, 3), 90, np.uint8))
    loose = reader.read(photo, loose=True)
    assert sorted(c.code for c in loose.cards) == ["7H", "AS"]  # AS's whole corner keeps it sure
    assert "left out unsure marks: KD? (0.69)" in loose.warnings
    assert sorted(r.probability for r in loose.readings) == pytest.approx([0.69, 0.69, 0.95, 0.95])
    rows = reader.read(photo).to_dict()  # a short hand: filled with it, flagged
    assert "low confidence: KD (0.69)" in rows["warnings"]
    lenient = CardReader(detector=IndicesAtTheEdge(), classifier=NamedByPlace(), detection_sizes=(640,),
                         min_card_confidence=0.0)  # every mark kept: nothing to doubt against
    assert sorted(r.probability for r in lenient.read(photo, loose=True).readings) == pytest.approx([0.95] * 4)


def test_a_loose_read_that_finds_no_card_says_so(reader):
    blank = jpeg(np.full((600, 800, 3), 200, np.uint8))
    loose = reader.read(blank, loose=True)
    assert loose.cards == [] and len(loose.warnings) == 1 and loose.warnings[0].startswith(NO_CARDS_WARNING + ": ")
    rows = reader.read(blank).warnings  # rows say it their own way
    assert "expected 13 cards, found 0" in rows and not any(w.startswith(NO_CARDS_WARNING) for w in rows)


def test_the_unsure_threshold_is_a_reader_setting():
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(probability=0.4), min_card_confidence=0.3)
    rows = deal(11)
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)
    assert not any(w.startswith("left out unsure marks") for w in result["warnings"])


def _said_blurred(result) -> list[str]:
    return [w for w in result.warnings if w.startswith(BLURRED_WARNING)]


def test_a_blurred_photo_says_it_looks_blurred_even_when_every_card_is_sure():
    rows = deal(13)
    unsure = SomeUnsure({rows[1][2]: 0.25})  # the card: 1 - 0.75 ** 2 = 0.44, low confidence
    image, _ = render(rows)
    blurred = cv2.GaussianBlur(image, (0, 0), 6)

    def blur_warnings(picture, classifier):
        return _said_blurred(CardReader(detector=MarkerDetector(), classifier=classifier).read(jpeg(picture)))

    assert len(blur_warnings(blurred, unsure)) == 1
    assert blur_warnings(image, unsure) == []  # sharp: the unsure card is the classifier's doing, not the photo's
    assert len(blur_warnings(blurred, ColourClassifier())) == 1  # every card sure: still a blurred photo
    assert blur_warnings(image, ColourClassifier()) == []


def test_a_photo_blurred_past_reading_says_so_though_no_mark_is_named_surely():
    rows = deal(13)
    image, _ = render(rows)
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(probability=0.2))

    def blur_warnings(picture):
        return _said_blurred(reader.read(jpeg(picture)))

    assert len(blur_warnings(cv2.GaussianBlur(image, (0, 0), 6))) == 1
    assert blur_warnings(image) == []


class SureWhenSharp(ColourClassifier):
    """Names a marker surely only when its crop is sharp (a stand-in for a classifier that misses blurred indices)."""

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        for row, box in enumerate(boxes):
            label = int(np.argmax(out[row]))
            if (crop_sharpness(index_crop(image, box)) or 0.0) < BLURRED_BELOW:
                out[row] = 0.7 / (len(CLASS_NAMES) - 1)
                out[row, label] = 0.3  # a card seen at two such corners: 1 - 0.7 ** 2 = 0.51, unsure
        return out


class MisnamesOneCardWhenBlurred(ColourClassifier):
    """Names every corner of one card as another card, surely, when its crop is blurred."""

    def __init__(self, card: str, read_as: str):
        super().__init__()
        self.card, self.read_as = CLASS_NAMES.index(card), CLASS_NAMES.index(read_as)

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        for row, box in enumerate(boxes):
            if np.argmax(out[row]) == self.card and (crop_sharpness(index_crop(image, box)) or 0.0) < BLURRED_BELOW:
                out[row, [self.card, self.read_as]] = out[row, [self.read_as, self.card]]
        return out


@pytest.fixture
def blurred_photo_restored(monkeypatch):
    """A drawn layout, its JPEG blurred past the blur warning, and a reader whose sharpening gives back the layout as
    drawn (a perfect restoration: these tests are about what the reader does with the second read; vision.deblur's
    own tests measure the restorations)."""
    rows = deal(14)
    image, _ = render(rows)
    sharp = decode_photo(jpeg(image)).image
    monkeypatch.setattr("vision.passes.sharpened.restored", lambda picture, line: sharp)
    return rows, jpeg(cv2.GaussianBlur(image, (0, 0), 6))


def test_a_blurred_photo_is_read_again_sharpened_and_that_read_kept_when_it_names_more_cards(blurred_photo_restored):
    rows, blurred = blurred_photo_restored
    plain = CardReader(detector=MarkerDetector(), classifier=SureWhenSharp(), sharpen_blurred=False).read(blurred)
    sharpened = CardReader(detector=MarkerDetector(), classifier=SureWhenSharp()).read(blurred)
    assert all(card.confidence < 0.7 for card in plain.cards)  # filling the hand, flagged low confidence
    assert sum(w.startswith("low confidence") for w in plain.warnings) == 13
    assert sharpened.to_dict()["rows"] == as_rows(rows)
    assert all(card.confidence > 0.9 for card in sharpened.cards)
    # the photo is still blurred: the advice to retake it stays, once
    assert len(_said_blurred(plain)) == len(_said_blurred(sharpened)) == 1
    assert [w for w in sharpened.warnings if not w.startswith(BLURRED_WARNING)] == []
    assert "sharpened read" in sharpened.timings_ms and "sharpened read" not in plain.timings_ms
    assert sharpened.kept_reads == ["sharpened read"] and plain.kept_reads == []


def test_a_sharpened_read_that_names_no_more_cards_is_not_kept_and_a_sharp_photo_is_not_read_twice(
        blurred_photo_restored):
    rows, blurred = blurred_photo_restored
    hopeless = ColourClassifier(probability=0.3)  # unsure of every mark, sharpened or not
    read = CardReader(detector=MarkerDetector(), classifier=hopeless).read(blurred)
    unsharpened = CardReader(detector=MarkerDetector(), classifier=hopeless, sharpen_blurred=False).read(blurred)
    assert "sharpened read" in read.timings_ms and "sharpened read" not in read.kept_reads
    assert read.to_dict() == unsharpened.to_dict()
    image, _ = render(rows)
    sharp = CardReader(detector=MarkerDetector(), classifier=SureWhenSharp()).read(jpeg(image))
    assert "sharpened read" not in sharp.timings_ms
    assert _said_blurred(sharp) == []


def test_a_hand_read_as_surely_sharpened_is_kept_when_it_has_fewer_warnings(blurred_photo_restored):
    rows, blurred = blurred_photo_restored
    classifier = MisnamesOneCardWhenBlurred(rows[0][0], rows[2][4])  # a front card read as a back one
    plain = CardReader(detector=MarkerDetector(), classifier=classifier, sharpen_blurred=False).read(blurred)
    sharpened = CardReader(detector=MarkerDetector(), classifier=classifier).read(blurred)
    assert any(w.startswith("card seen twice") for w in plain.warnings)
    assert sum(card.confidence >= 0.7 for card in plain.cards) == 13  # both reads name 13 cards surely
    assert sharpened.to_dict()["rows"] == as_rows(rows)
    assert [w for w in sharpened.warnings if not w.startswith(BLURRED_WARNING)] == []
    # loose cards: the count of sure cards alone decides; the first read names as many (its misnamed card once)
    loose = CardReader(detector=MarkerDetector(), classifier=classifier).read(blurred, loose=True)
    assert rows[0][0] not in [card.code for card in loose.cards]


def test_a_photo_whose_indices_pass_but_that_shows_a_moved_camera_is_called_blurred_and_read_restored(monkeypatch):
    rows = deal(16)
    image, _ = render(rows)
    photo = jpeg(image)  # sharp indices: the sharpness measure alone passes it
    restored_with = []
    monkeypatch.setattr("vision.passes.sharpened.restored", lambda picture, line: restored_with.append(line) or picture)
    monkeypatch.setattr("vision.reader.motion_line", lambda picture: None)
    still = CardReader(detector=MarkerDetector(), classifier=SureWhenSharp()).read(photo)
    assert _said_blurred(still) == [] and restored_with == []
    line = MotionLine(length=24.0, angle=30.0, depth=6.0)
    monkeypatch.setattr("vision.reader.motion_line", lambda picture: line)
    moved = CardReader(detector=MarkerDetector(), classifier=SureWhenSharp()).read(photo)
    assert len(_said_blurred(moved)) == 1 and "camera moved" in _said_blurred(moved)[0]
    assert restored_with == [line]  # the second read is deconvolved along the line measured
    assert moved.to_dict()["rows"] == still.to_dict()["rows"] == as_rows(rows)


def test_a_photo_showing_a_moved_camera_gets_its_second_look_only_in_the_restored_read(monkeypatch):
    rows = deal(14)
    image, _ = render(rows)
    monkeypatch.setattr("vision.passes.sharpened.restored", lambda picture, line: picture)
    monkeypatch.setattr("vision.reader.motion_line", lambda picture: None)
    detector = BlindToTheRightBelowTheLargerSize()
    still = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image))
    assert len(detector.larger_looks(2000)) == 1 and "sharpened read" not in still.timings_ms
    # a line calls the photo blurred and a restored read follows: the first read's second look would be spent twice
    monkeypatch.setattr("vision.reader.motion_line", lambda picture: MotionLine(length=24.0, angle=30.0, depth=6.0))
    detector = BlindToTheRightBelowTheLargerSize()
    moved = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image))
    assert len(detector.larger_looks(2000)) == 1 and "sharpened read" in moved.timings_ms
    assert moved.to_dict()["rows"] == still.to_dict()["rows"] == as_rows(rows)
    # with no restored read to follow, the first read keeps its second look
    detector = BlindToTheRightBelowTheLargerSize()
    plain = CardReader(detector=detector, classifier=ColourClassifier(), sharpen_blurred=False).read(jpeg(image))
    assert len(detector.larger_looks(2000)) == 1 and plain.to_dict()["rows"] == as_rows(rows)


class UnsureOfFlatMarks(ColourClassifier):
    """Names a marker surely only when its box is at least 1.6 times as tall as wide (the marker drawn is 2.15): a
    stand-in for models that misread indices a steep view has squeezed."""

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        for row, box in enumerate(boxes):
            if (box[3] - box[1]) < 1.6 * (box[2] - box[0]):
                label = int(np.argmax(out[row]))
                out[row] = 0.7 / (len(CLASS_NAMES) - 1)
                out[row, label] = 0.3  # two such corners: 1 - 0.7 ** 2 = 0.51, unsure
        return out


def _squeezed(image: np.ndarray, share: float = 0.5) -> np.ndarray:
    """The picture as a steep view leaves it: its height times `share` (0.5: a phone tilted to 30°)."""
    return cv2.resize(image, (image.shape[1], round(image.shape[0] * share)), interpolation=cv2.INTER_AREA)


def test_a_short_hand_in_a_steep_view_is_read_again_stretched_and_kept_when_it_names_more_cards():
    rows = deal(19)
    image, where = render(rows)
    steep = jpeg(_squeezed(image))
    plain = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks(), unsqueeze_short_reads=False).read(
        steep)
    unsqueezed = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks()).read(steep)
    assert not any(card.confidence >= 0.7 for card in plain.cards)  # every card unsure: flagged low confidence
    assert unsqueezed.to_dict()["rows"] == as_rows(rows)
    assert all(card.confidence > 0.9 for card in unsqueezed.cards) and unsqueezed.warnings == []
    assert "stretched read" in unsqueezed.timings_ms and "stretched read" not in plain.timings_ms
    # the boxes are the squeezed photo's: each card's index boxes lie on its markers as drawn, height halved
    for card in unsqueezed.cards:
        drawn = np.array(where[card.code]) * [1, 0.5, 1, 0.5]
        assert min(np.abs(np.array(i.box) - d).max() for i in card.indices for d in drawn) < 3.0


@pytest.mark.parametrize("corner_probability, kept", [(0.97, True), (0.6, False)])
def test_loose_cards_in_a_blurred_steep_photo_are_read_stretched_only_when_the_added_cards_are_named_plainly(
        monkeypatch, corner_probability, kept):
    """Loose cards: a photo called blurred is stretched too, and the read kept only when every card it adds is named at
    least LOOSE_STRETCH_MIN_ADDED (two corners at 0.6 make a sure card of 0.84, not plain enough)."""
    monkeypatch.setattr("vision.passes.blur.blur_warning", lambda image, readings, line: f"{BLURRED_WARNING} (test)")
    rows = deal(22)
    image, _ = render(rows)
    steep = jpeg(_squeezed(image))
    read = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks(corner_probability),
                      sharpen_blurred=False).read(steep, loose=True)
    assert "stretched read" in read.timings_ms
    codes = sorted(card.code for card in read.cards)
    assert codes == (sorted(code for row in rows for code in row) if kept else [])
    assert _said_blurred(read) == [f"{BLURRED_WARNING} (test)"]


class LooksRecorded(MarkerDetector):
    """MarkerDetector that keeps the shape of every picture it was given."""

    def __init__(self):
        self.shapes = []

    def detect(self, image, long_side, *, score_threshold=None):
        self.shapes.append(image.shape[:2])
        return super().detect(image, long_side, score_threshold=score_threshold)


def test_the_stretched_read_is_one_look_at_the_hands_region_and_none_when_nothing_was_found(monkeypatch):
    # this drawn page, squeezed, shows a false 29 px line when measured at 500 px (session 35); the looks counted
    # here are the stretched read's, so no line is measured
    monkeypatch.setattr("vision.reader.motion_line", lambda picture: None)
    rows = deal(21)
    image, where = render(rows, size=(2000, 1500), scale=0.8, centre=(900, 700))  # a hand in part of the photo
    steep = _squeezed(image)
    plain_looks, looks = LooksRecorded(), LooksRecorded()
    CardReader(detector=plain_looks, classifier=UnsureOfFlatMarks(), unsqueeze_short_reads=False).read(jpeg(steep))
    read = CardReader(detector=looks, classifier=UnsureOfFlatMarks()).read(jpeg(steep))
    assert read.to_dict()["rows"] == as_rows(rows) and "stretched read" in read.timings_ms
    assert looks.shapes[:-1] == plain_looks.shapes  # the first read's looks, then one more
    markers = np.array([box for boxes in where.values() for box in boxes]) * [1, 0.5, 1, 0.5]
    hand_height, hand_width = np.ptp(markers[:, [1, 3]]), np.ptp(markers[:, [0, 2]])
    region_height, region_width = looks.shapes[-1]
    # the hand's region, stretched 1.6 times: taller than the hand stretched, well inside the photo stretched
    assert 1.6 * hand_height < region_height < 0.8 * 1.6 * steep.shape[0]
    assert hand_width < region_width < 0.8 * steep.shape[1]
    blank = CardReader(detector=LooksRecorded(), classifier=UnsureOfFlatMarks()).read(jpeg(np.full_like(steep, 90)))
    assert blank.cards == [] and "stretched read" not in blank.timings_ms  # no region to look at


def test_a_stretched_read_that_names_no_more_cards_is_not_kept_and_a_full_hand_is_read_once():
    rows = deal(20)
    image, _ = render(rows)
    flattest = jpeg(_squeezed(image, 0.3))  # stretched 1.6 times the markers are still flat
    read = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks()).read(flattest)
    plain = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks(), unsqueeze_short_reads=False).read(
        flattest)
    assert "stretched read" in read.timings_ms
    assert read.to_dict() == plain.to_dict()
    full = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks()).read(jpeg(image))
    assert len(full.cards) == 13 and full.warnings == [] and "stretched read" not in full.timings_ms
    # loose cards have no count to check a stretched read against (it named an ace's pip a sure 4 on real photos)
    loose = CardReader(detector=MarkerDetector(), classifier=UnsureOfFlatMarks()).read(jpeg(_squeezed(image)),
                                                                                      loose=True)
    assert "stretched read" not in loose.timings_ms and loose.cards == []



def test_a_reading_keeps_the_classifiers_other_likely_codes_likeliest_first_without_none():
    """A reading keeps the classifier's output for its box; IndexReading.other_codes gives every other card code
    named at least the floor (the evaluation's multi-label mAP), without `none`; the read itself is unchanged."""
    floor = 0.001

    class OneBox:
        def detect(self, image, long_side, *, score_threshold=None):
            return np.array([[100, 100, 160, 180]], np.float32), np.array([0.9], np.float32)

    class DoubtsQH:
        def probabilities(self, image, boxes):
            out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
            for code, p in (("QH", 0.8), ("QD", 0.05), ("KH", 0.15), ("JH", 0.5 * floor)):
                out[:, CLASS_NAMES.index(code)] = p
            out[:, -1] = 0.01  # none
            return out

    read = CardReader(detector=OneBox(), classifier=DoubtsQH()).read(jpeg(np.full((600, 900, 3), 90, np.uint8)),
                                                                      loose=True)
    (reading,) = read.readings
    assert (reading.code, reading.probability) == ("QH", pytest.approx(0.8))
    assert [code for code, _ in reading.other_codes(floor)] == ["KH", "QD"]
    assert [p for _, p in reading.other_codes(floor)] == pytest.approx([0.15, 0.05])
    everything = [code for code, _ in reading.other_codes(0.0)]
    assert everything[:3] == ["KH", "QD", "JH"] and len(everything) == len(CLASS_NAMES) - 2  # all but QH and `none`
    assert [c.code for c in read.cards] == ["QH"]


class CountsProbabilityCalls(ColourClassifier):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def probabilities(self, image, boxes, *args, **kwargs):
        self.calls += 1
        return super().probabilities(image, boxes, *args, **kwargs)


def test_warming_up_runs_the_detector_at_its_first_look_s_size_and_the_classifier_once():
    detector, classifier = SizeRecordingDetector(), CountsProbabilityCalls()
    CardReader(detector=detector, classifier=classifier).warm_up()
    assert detector.sizes == [640] and classifier.calls == 1


def _patch_inks(monkeypatch, name, value):
    """Replaces an ink measure where the first look (its put-off check) and the two-colour read use it."""
    monkeypatch.setattr(f"vision.passes.first_look.{name}", value)
    monkeypatch.setattr(f"vision.passes.two_colour.{name}", value)


def _read_of(readings, loose):
    from vision.results import result_of
    return result_of(readings, (1500, 2000, 3), 1.0, loose, {}, 640)


def test_a_loose_read_naming_one_cards_two_corners_alike_does_not_count_as_naming_fewer_cards():
    """The two-colour read's test (session 47): a first read naming a blue ten of diamonds' corners TD and TS, both
    surely, counts two cards where the two-colour read naming both TD counts one; for loose cards that is no fewer
    (the marks named surely are as many), while a read that loses a mark names fewer. A hand counts cards alone."""
    from vision.cards import IndexReading

    def index(x, y, code, probability=0.9):
        return IndexReading((x, y, x + 30.0, y + 40.0), code, probability, 0.9)

    heart = index(900, 300, "7H", 0.95)
    split = _read_of([index(100, 100, "TD"), index(250, 300, "TS"), heart], loose=True)
    alike = _read_of([index(100, 100, "TD"), index(250, 300, "TD"), heart], loose=True)
    one_corner = _read_of([index(100, 100, "TD"), index(250, 300, "TD", 0.5), heart], loose=True)
    assert [len(read.cards) for read in (split, alike, one_corner)] == [3, 2, 2]
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier())

    def names_fewer(second, first, loose):
        photo = Photo(np.zeros((1500, 2000, 3), np.uint8), 1.0, loose, None, reader.looks, reader.config)
        return two_colour.names_fewer(photo, second, first)

    assert not names_fewer(alike, split, loose=True)
    assert names_fewer(one_corner, split, loose=True)
    assert not names_fewer(split, alike, loose=True)
    hand_split = _read_of([index(100, 100, "TD"), index(250, 300, "TS"), heart], loose=False)
    hand_alike = _read_of([index(100, 100, "TD"), index(250, 300, "TD"), heart], loose=False)
    assert names_fewer(hand_alike, hand_split, loose=False)


def test_under_a_cast_the_two_colour_view_is_made_from_the_balanced_picture_even_when_its_read_is_refused(
        monkeypatch):
    """Session 47: a four-colour deck under a strong lamp: balancing alone leaves its blue diamonds spades, so the
    balanced read may name fewer marks surely and be refused, while the two-colour view of the balanced picture
    reads the layout right (under the lamp itself the inks measure wrongly). The later reads start from the photo
    as taken when neither is kept."""
    rows = deal(17)
    image, _ = render(rows)
    photo = jpeg(image)
    blank = {}

    def balanced(picture, paper):  # a picture whose read names nothing: the balanced read is refused
        blank["picture"] = np.full_like(picture, 255)
        return blank["picture"]

    viewed, later, hues = [], [], []

    def survey(picture, boxes, lamp_hue=None):
        hues.append(lamp_hue)
        return ["black"] * len(list(boxes)), np.full(3, 200.0)

    lamp_paper = np.array([220.0, 80.0, 150.0])  # BGR: white paper under a purple lamp
    monkeypatch.setattr("vision.passes.balanced.paper_colour", lambda picture, boxes: lamp_paper)
    monkeypatch.setattr("vision.passes.balanced.shows_cast", lambda paper: True)
    monkeypatch.setattr("vision.passes.balanced.balanced_to_paper", balanced)
    _patch_inks(monkeypatch, "survey_inks", survey)
    _patch_inks(monkeypatch, "shows_four_colours", lambda names, probabilities=None: True)
    monkeypatch.setattr("vision.passes.two_colour.two_colour_view",
                        lambda picture, paper, boxes: viewed.append(picture) or picture)
    monkeypatch.setattr("vision.passes.two_colour.inks_agree", lambda names, codes: True)
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier())
    blur_warning = reader._blur_warning
    monkeypatch.setattr("vision.passes.blur.blur_warning", lambda picture, *args: later.append(picture) or blur_warning(
        picture, *args))
    read = reader.read(photo)
    assert "balanced read" in read.timings_ms and "two-colour read" in read.timings_ms
    assert read.kept_reads == [] and read.to_dict()["rows"] == as_rows(rows)
    assert len(viewed) == 1 and viewed[0] is blank["picture"]
    assert len(later) == 1 and later[0] is not blank["picture"] and later[0].shape == blank["picture"].shape
    # the two-colour read's ink surveys name the inks knowing the lamp's hue (session 48: its colour bleeds into black
    # ink); the first, before any cast is known, only decides whether the first read's second look waits (session 55)
    assert hues == [None] + [cast_hue(lamp_paper)] * 2


VIEW_SENTINEL = (1, 2, 3)  # the stand-in two-colour view marks its top-left pixel so the classifier can tell


class SpadeForABlueDiamond(ColourClassifier):
    """Names `diamond` the spade of its rank surely in the photo as a four-colour deck's blue diamond would be, and
    right in the two-colour view, where it is unsure of `doubted` instead."""

    def __init__(self, diamond: str, doubted: str):
        super().__init__()
        self.diamond, self.doubted = CLASS_NAMES.index(diamond), CLASS_NAMES.index(doubted)
        self.spade = CLASS_NAMES.index(diamond[0] + "S")

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        viewed = tuple(int(v) for v in image[0, 0]) == VIEW_SENTINEL
        for row in range(len(boxes)):
            if not viewed and np.argmax(out[row]) == self.diamond:
                out[row, [self.diamond, self.spade]] = out[row, [self.spade, self.diamond]]
            if viewed and np.argmax(out[row]) == self.doubted:
                out[row, self.doubted] = 0.4  # both corners: 1 - 0.6 * 0.6 = 0.64, under the unsure threshold
        return out


def test_a_two_colour_read_naming_a_card_less_surely_is_kept_where_the_first_read_names_blue_ink_a_spade(
        monkeypatch):
    """Session 47: the first read names a blue diamond a spade surely and 13 cards in all; the two-colour read names it
    right but is unsure of another card (12 sure). Counting sure cards kept the first read, wrong without any
    warning; its sure indices go against their inks, so the two-colour read is kept, its unsure card flagged."""
    rows = deal(19)
    codes = [code for row in rows for code in row]
    diamond = next(code for code in codes if code.endswith("D") and code[0] + "S" not in codes)
    doubted = next(code for code in codes if code[1] in "HC")
    image, where = render(rows)
    blue = where[diamond]

    def centre(box):
        return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])

    def survey(picture, boxes, lamp_hue=None):  # the diamond's two corners in blue ink, the rest black, on white paper
        on_blue = [any(np.abs(centre(box) - centre(marker)).max() < 5 for marker in blue) for box in boxes]
        return ["blue" if found else "black" for found in on_blue], np.full(3, 250.0)

    def view(picture, paper, boxes):
        out = picture.copy()
        out[0, 0] = VIEW_SENTINEL
        return out

    _patch_inks(monkeypatch, "survey_inks", survey)
    _patch_inks(monkeypatch, "shows_four_colours", lambda names, probabilities=None: True)
    monkeypatch.setattr("vision.passes.two_colour.two_colour_view", view)
    classifier = SpadeForABlueDiamond(diamond, doubted)
    read = CardReader(detector=MarkerDetector(), classifier=classifier, unsqueeze_short_reads=False).read(jpeg(image))
    assert read.kept_reads == ["two-colour read"]
    assert read.to_dict()["rows"] == as_rows(rows)
    assert f"low confidence: {doubted} (0.64)" in read.warnings
    plain = CardReader(detector=MarkerDetector(), classifier=classifier, read_four_colours=False).read(jpeg(image))
    assert diamond[0] + "S" in [card.code for card in plain.cards] and plain.warnings == []


@pytest.mark.parametrize("two_colour_kept", [True, False])
def test_a_four_colour_photo_puts_its_first_reads_second_look_off_until_the_two_colour_read_is_refused(
        monkeypatch, two_colour_kept):
    """Session 55: the two-colour read makes its own second look, so the first read's waits; it is still made, on the
    photo as taken, when the two-colour read is not kept."""
    rows = deal(18)
    image, _ = render(rows)
    _patch_inks(monkeypatch, "survey_inks",
                        lambda picture, boxes, lamp_hue=None: (["blue"] * len(list(boxes)), np.full(3, 200.0)))
    _patch_inks(monkeypatch, "shows_four_colours", lambda names, probabilities=None: True)
    monkeypatch.setattr("vision.passes.two_colour.two_colour_view", lambda picture, paper, boxes: picture.copy())
    monkeypatch.setattr("vision.passes.two_colour.inks_agree", lambda names, codes: two_colour_kept)
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(), balance_casts=False)
    looked_at = []
    second_look = reader.looks.second_look
    monkeypatch.setattr(reader.looks, "second_look", lambda picture, *args: looked_at.append(picture) or second_look(
        picture, *args))
    read = reader.read(jpeg(image))
    assert read.to_dict()["rows"] == as_rows(rows)
    assert len(looked_at) == (1 if two_colour_kept else 2)
    assert looked_at[0].shape == looked_at[-1].shape  # the turned picture first, then (refused) the photo as taken
    assert (read.kept_reads == ["two-colour read"]) == two_colour_kept
