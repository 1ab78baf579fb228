"""The classifier's votes: only unsure crops are classified again at quarter turns, and averaged; fairly sure ones are
turned as a check and take the turns' mean only where it names another class; those still unsure can be classified
again from boxes scaled about their centres (the scale vote, off by default)."""
import numpy as np

from vision.classifier import ROTATION_CHECK_BELOW, SCALE_VOTE, SCALE_VOTE_MIN_PX, IndexClassifier, scaled_boxes
from vision.crops import CLASS_NAMES

N = len(CLASS_NAMES)


class NamingSession:
    """A stand-in ONNX session that records its batch sizes and names each crop by `classes(crop)`: one class
    surely, or two at even odds (unsure)."""

    def __init__(self):
        self.batch_sizes = []

    def run(self, _outputs, feeds):
        batch = next(iter(feeds.values()))
        self.batch_sizes.append(len(batch))
        logits = np.full((len(batch), N), -20.0, np.float32)
        for i, crop in enumerate(batch):
            classes = list(self.classes(crop))
            logits[i, classes] = 10 if len(classes) == 1 else 5
        return [logits]


class MarkedCornerSession(NamingSession):
    """A white crop is surely class 0; a dark crop with a white bottom-right corner (upright) is unsure between
    1 and 2; the same crop turned (the white corner elsewhere) is surely 2."""

    @staticmethod
    def classes(crop):
        if crop.mean() > 0.9:
            return (0,)
        return (1, 2) if crop[0, -1, -1] > 0.5 else (2,)  # upright: the marked pixel is still bottom-right


def make_classifier(session, scale_vote: tuple[float, ...] = SCALE_VOTE,
                    scale_vote_min_px: float = SCALE_VOTE_MIN_PX) -> IndexClassifier:
    classifier = IndexClassifier.__new__(IndexClassifier)
    classifier.session, classifier.input_name, classifier.scale_vote = session, "input", scale_vote
    classifier.scale_vote_min_px = scale_vote_min_px
    classifier.rotation_check_below = ROTATION_CHECK_BELOW
    classifier.partner = None
    return classifier


def image_with_two_indices() -> tuple[np.ndarray, np.ndarray]:
    image = np.zeros((200, 400, 3), np.uint8)
    image[:, 200:] = 255  # the second index sits on white: sure
    boxes = np.array([[60, 60, 140, 140], [260, 60, 340, 140]], np.float32)
    image[135:200, 135:200] = 255  # bottom-right of the first crop marked, top-left stays dark
    return image, boxes


def test_unsure_crops_take_the_mean_of_four_quarter_turns():
    session = MarkedCornerSession()
    image, boxes = image_with_two_indices()
    probs = make_classifier(session).probabilities(image, boxes)
    assert probs[1].argmax() == 0 and probs[1, 0] > 0.99  # sure: untouched
    # upright says 1 and 2 half each, the three turns say 2: mean = (0.5 + 3) / 4 for 2
    assert abs(probs[0, 2] - 3.5 / 4) < 1e-3
    assert abs(probs[0, 1] - 0.5 / 4) < 1e-3
    assert session.batch_sizes == [2, 3]  # one run for all, one run for the three turns of the unsure crop
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_rotation_vote_can_be_turned_off():
    session = MarkedCornerSession()
    image, boxes = image_with_two_indices()
    probs = make_classifier(session).probabilities(image, boxes, rotation_vote_below=0.0)
    assert abs(probs[0, 1] - 0.5) < 1e-3 and session.batch_sizes == [2]


class WhiteShareSession(NamingSession):
    """Names a crop by its share of white: over 0.6 surely class 5, 0.45-0.6 unsure between 1 and 2, else surely 2.
    Turning a crop does not change the share, so the rotation vote cannot settle it."""

    @staticmethod
    def classes(crop):
        share = float((crop > 0.5).mean())
        return (5,) if share > 0.6 else (1, 2) if share >= 0.45 else (2,)


def test_scaled_boxes_keep_their_centres():
    boxes = scaled_boxes(np.array([[10, 20, 30, 60]], np.float32), 1.5)
    assert np.allclose(boxes, [[5, 10, 35, 70]])


def white_square() -> tuple[np.ndarray, np.ndarray]:
    """A white square and a box on it: its 1.4x crop is ~51 % white."""
    image = np.zeros((300, 300, 3), np.uint8)
    image[100:200, 100:200] = 255
    return image, np.array([[100, 100, 200, 200]], np.float32)


def test_crops_unsure_at_every_turn_take_the_mean_over_their_box_scales():
    image, boxes = white_square()
    session = WhiteShareSession()
    probs = make_classifier(session, scale_vote=(0.85, 1.2)).probabilities(image, boxes)
    # own box: 1 and 2 half each; scaled 0.85 (more white) surely 5; scaled 1.2 (less white) surely 2
    assert abs(probs[0, 2] - 1.5 / 3) < 1e-3 and abs(probs[0, 5] - 1 / 3) < 1e-3 and abs(probs[0, 1] - 0.5 / 3) < 1e-3
    assert session.batch_sizes == [1, 3, 1, 1]  # first look, its turns, then one run per scale (sure there)


def test_the_scale_vote_leaves_boxes_under_its_minimum_length_as_the_turns_left_them():
    image, boxes = white_square()  # a 100 px box
    session = WhiteShareSession()
    probs = make_classifier(session, scale_vote=(0.85, 1.2), scale_vote_min_px=101).probabilities(image, boxes)
    assert abs(probs[0, 1] - 0.5) < 1e-3 and session.batch_sizes == [1, 3]  # no run for the scales
    session = WhiteShareSession()
    probs = make_classifier(session, scale_vote=(0.85, 1.2), scale_vote_min_px=100).probabilities(image, boxes)
    assert abs(probs[0, 5] - 1 / 3) < 1e-3 and session.batch_sizes == [1, 3, 1, 1]


def test_the_reader_has_no_scale_vote_by_default():
    image, boxes = white_square()
    session = WhiteShareSession()
    probs = make_classifier(session).probabilities(image, boxes)
    assert SCALE_VOTE == () and abs(probs[0, 1] - 0.5) < 1e-3 and session.batch_sizes == [1, 3]


class FairlySureSession(NamingSession):
    """A white crop is surely class 0; a dark crop with a white bottom-right corner (upright) is class 3 at 0.85
    (class 4 the rest); the same crop turned is surely `turned_class`."""

    def __init__(self, turned_class: int):
        super().__init__()
        self.turned_class = turned_class

    def run(self, _outputs, feeds):
        batch = next(iter(feeds.values()))
        self.batch_sizes.append(len(batch))
        logits = np.full((len(batch), N), -20.0, np.float32)
        for i, crop in enumerate(batch):
            if crop.mean() > 0.9:
                logits[i, 0] = 10
            elif crop[0, -1, -1] > 0.5:
                logits[i, 3], logits[i, 4] = np.log(0.85), np.log(0.15)
            else:
                logits[i, self.turned_class] = 10
        return [logits]


def test_fairly_sure_crops_whose_turns_name_another_class_take_the_turns_mean():
    session = FairlySureSession(turned_class=4)
    image, boxes = image_with_two_indices()
    probs = make_classifier(session).probabilities(image, boxes)
    assert probs[0].argmax() == 4 and abs(probs[0, 4] - (0.15 + 3) / 4) < 1e-3  # renamed, and unsure at 0.79
    assert probs[1, 0] > 0.99 and session.batch_sizes == [2, 3]  # the sure crop is not turned


def test_fairly_sure_crops_whose_turns_agree_keep_their_reading():
    session = FairlySureSession(turned_class=3)
    image, boxes = image_with_two_indices()
    probs = make_classifier(session).probabilities(image, boxes)
    assert abs(probs[0, 3] - 0.85) < 1e-3  # checked (three more crops run), not averaged down
    assert session.batch_sizes == [2, 3]


def test_the_rotation_check_is_off_with_the_vote():
    session = FairlySureSession(turned_class=4)
    image, boxes = image_with_two_indices()
    probs = make_classifier(session).probabilities(image, boxes, rotation_vote_below=0.0)
    assert abs(probs[0, 3] - 0.85) < 1e-3 and session.batch_sizes == [2]
