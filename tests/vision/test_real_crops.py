"""The labelling rule that mines classifier crops from real single-card photos."""
from __future__ import annotations

import numpy as np

from vision.crops import CLASS_NAMES
from vision.training.real_crops import label_boxes


def probabilities(**named: float) -> np.ndarray:
    prob = np.full(len(CLASS_NAMES), 0.001, np.float32)
    for name, value in named.items():
        prob[CLASS_NAMES.index(name)] = value
    return prob


def test_a_box_gets_the_photos_card_only_when_the_classifier_half_agrees():
    boxes = np.stack([
        probabilities(**{"6C": 0.6, "6S": 0.3}),   # right rank on top, truth second: 6S
        probabilities(**{"8S": 0.5, "6S": 0.2}),   # right suit on top: 6S
        probabilities(**{"6S": 0.9}),              # already right: 6S
        probabilities(**{"KH": 0.8, "6S": 0.1}),   # nothing in common on top: skipped
        probabilities(none=0.7, **{"6S": 0.2}),    # `none` on top: skipped
        probabilities(**{"6C": 0.9, "6H": 0.05, "6D": 0.02, "9C": 0.01, "5C": 0.01, "8C": 0.008}),  # truth not in top 5
    ])
    assert label_boxes(boxes, "6S") == ["6S", "6S", "6S", None, None, None]


def test_the_held_out_webcam_photos_are_every_fourth_by_number():
    from vision.evaluation.datasets import is_heldout_webcam

    assert [is_heldout_webcam(f"webcam-singles/KH_{n:02d}.jpg") for n in (1, 4, 8, 19, 20)] == \
        [False, True, True, False, True]
    assert not is_heldout_webcam("phone-singles/KH.jpg")
