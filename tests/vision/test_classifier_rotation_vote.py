"""The classifier's rotation vote: only unsure crops are classified again at quarter turns, and averaged."""
import numpy as np

from vision.classifier import IndexClassifier
from vision.crops import CLASS_NAMES

N = len(CLASS_NAMES)


class MarkedCornerSession:
    """A white crop is surely class 0; a dark crop with a white bottom-right corner (upright) is unsure between
    1 and 2; the same crop turned (the white corner elsewhere) is surely 2."""

    def __init__(self):
        self.batch_sizes = []

    def run(self, _outputs, feeds):
        batch = next(iter(feeds.values()))
        self.batch_sizes.append(len(batch))
        logits = np.full((len(batch), N), -20.0, np.float32)
        for i, crop in enumerate(batch):
            if crop.mean() > 0.9:
                logits[i, 0] = 10
            elif crop[0, -1, -1] > 0.5:  # upright: the marked pixel is still bottom-right
                logits[i, 1] = logits[i, 2] = 5
            else:
                logits[i, 2] = 10
        return [logits]


def make_classifier(session) -> IndexClassifier:
    classifier = IndexClassifier.__new__(IndexClassifier)
    classifier.session, classifier.input_name = session, "input"
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
