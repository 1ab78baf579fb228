"""Looks the reader spares (ReaderConfig.spare_looks, vision.looks; issue 66 item 5): a close-up named plainly at the
first size is not looked at again at the smaller sizes, and a far hand the first size names whole gets no closer
look. Without the trained models: stand-in detectors and classifiers that record every look."""
from __future__ import annotations

import numpy as np
import pytest

from vision.crops import CLASS_NAMES
from vision.looks import DETECTION_SIZES
from vision.reader import CardReader

from drawn_layouts import ColourClassifier, MarkerDetector, deal, jpeg, render


class CountingMarkers(MarkerDetector):
    def __init__(self):
        self.looks = []

    def detect(self, image, long_side, *, score_threshold=None):
        self.looks.append(long_side)
        return super().detect(image, long_side)


class CloseUpCorners:
    """A close-up of one card: its two corners, ~80 px tall at the first size (twice the trained-for size), at every
    size, plus (`stray`) a third box on the card's face, as a detector fires on pips and art at a too-large size."""

    score_threshold = 0.25

    def __init__(self, stray: bool):
        self.stray, self.looks = stray, []

    def detect(self, image, long_side, *, score_threshold=None):
        self.looks.append(long_side)
        boxes = [[300.0, 200.0, 450.0, 450.0], [1400.0, 1000.0, 1550.0, 1250.0]]
        if self.stray:
            boxes.append([900.0, 650.0, 960.0, 700.0])  # much smaller than the corners: a part of the card
        return np.array(boxes, np.float32), np.full(len(boxes), 0.8, np.float32)


class NamesCornersPlainly:
    """Names a box of a close-up's corner size QH at `probability`, a smaller one 4C at 0.3 (unsure, not `none`)."""

    def __init__(self, probability: float = 0.97):
        self.probability = probability

    def probabilities(self, image, boxes):
        out = np.full((len(boxes), len(CLASS_NAMES)), 0.001, np.float32)
        for row, box in enumerate(boxes):
            corner = box[3] - box[1] > 100
            out[row, CLASS_NAMES.index("QH" if corner else "4C")] = self.probability if corner else 0.3
        return out


@pytest.mark.parametrize("spare", [True, False])
def test_a_close_up_named_plainly_in_two_corners_is_read_in_one_look(spare):
    detector = CloseUpCorners(stray=False)
    read = CardReader(detector=detector, classifier=NamesCornersPlainly(), spare_looks=spare).read(
        jpeg(np.full((1500, 2000, 3), 90, np.uint8)), loose=True)
    assert [c.code for c in read.cards] == ["QH"]
    assert detector.looks == ([DETECTION_SIZES[0]] if spare else list(DETECTION_SIZES))


@pytest.mark.parametrize("probability, looks", [(0.85, 1), (0.75, 3)])
def test_a_close_up_named_less_plainly_than_the_clean_probability_is_looked_at_the_smaller_sizes(probability, looks):
    detector = CloseUpCorners(stray=False)
    CardReader(detector=detector, classifier=NamesCornersPlainly(probability)).read(
        jpeg(np.full((1500, 2000, 3), 90, np.uint8)), loose=True)
    assert len(detector.looks) == looks  # CLEAN_INDEX_PROBABILITY is 0.8


def test_a_close_up_with_a_mark_besides_its_corners_is_still_looked_at_the_smaller_sizes():
    detector = CloseUpCorners(stray=True)
    read = CardReader(detector=detector, classifier=NamesCornersPlainly()).read(
        jpeg(np.full((1500, 2000, 3), 90, np.uint8)), loose=True)
    assert detector.looks == list(DETECTION_SIZES)  # the part could be a card the smaller sizes read
    assert [c.code for c in read.cards] == ["QH"]


@pytest.mark.parametrize("spare", [True, False])
def test_a_far_hand_the_first_look_names_whole_gets_no_closer_look(spare):
    rows = deal(13)
    image, _ = render(rows, scale=0.7, angle=20)  # markers ~12 px at 640: a far layout, in the trained range
    detector = CountingMarkers()
    read = CardReader(detector=detector, classifier=ColourClassifier(), spare_looks=spare).read(jpeg(image))
    assert read.to_dict()["rows"] == dict(zip(("front", "middle", "back"), rows))
    assert len(detector.looks) == (1 if spare else 2)


def test_a_far_layout_read_loose_still_gets_its_closer_look():
    """Loose, the number of cards is not known: the closer look may find cards the first look missed."""
    image, _ = render(deal(13), scale=0.7, angle=20)
    detector = CountingMarkers()
    read = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image), loose=True)
    assert len(read.cards) == 13 and len(detector.looks) == 2


def test_a_far_hand_below_the_trained_index_size_gets_its_closer_look():
    """Markers ~8 px at 640, under the detector's trained range: the first look's coarse boxes are not trusted."""
    rows = deal(13)
    image, _ = render(rows, scale=0.45, angle=20)
    detector = CountingMarkers()
    read = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image))
    assert read.to_dict()["rows"] == dict(zip(("front", "middle", "back"), rows))
    assert read.detection_size > DETECTION_SIZES[0] and len(detector.looks) == 2


def test_a_far_hand_short_of_cards_at_the_first_look_gets_its_closer_look():
    rows = deal(13)
    image, _ = render(rows, scale=0.7, angle=20)

    class MissesOneCardAtTheFirstLook(CountingMarkers):
        def detect(self, picture, long_side, *, score_threshold=None):
            boxes, scores = super().detect(picture, long_side)
            if picture.shape[:2] == image.shape[:2]:  # the whole photo: the rightmost cards' corners missed
                keep = boxes[:, 0] < boxes[:, 0].max() - 150
                boxes, scores = boxes[keep], scores[keep]
            return boxes, scores

    detector = MissesOneCardAtTheFirstLook()
    read = CardReader(detector=detector, classifier=ColourClassifier()).read(jpeg(image))
    assert len(detector.looks) == 2 and read.to_dict()["rows"] == dict(zip(("front", "middle", "back"), rows))
