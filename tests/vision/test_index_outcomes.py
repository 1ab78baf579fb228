"""Where the index mAP is lost: each labelled index's outcome, the scores that rank right readings first, and the
readings a perfect classifier or a perfect detector would give."""
import numpy as np
import pytest

from vision.evaluation.index_outcomes import (BOX_OFF, NAMED_ANOTHER_CODE, NAMED_RIGHT_SURELY, NAMED_RIGHT_UNSURE,
                                             NO_BOX, index_outcomes, named_by_a_perfect_classifier,
                                             right_first_scores, unfound_indices)

TRUTH = np.array([[0, 0, 10, 20], [100, 0, 110, 20], [200, 0, 210, 20], [300, 0, 310, 20], [400, 0, 410, 20]],
                 np.float64)
TRUTH_CODES = ["AS", "KH", "QD", "JC", "TS"]
# on AS: itself surely; on KH: itself unsurely and a sure 3H; on QD: only QH; beside JC (IoU 1/3); nothing near TS
READINGS = np.array([[0, 0, 10, 20], [100, 0, 110, 21], [100, 0, 110, 20], [200, 1, 210, 20], [305, 0, 315, 20]],
                    np.float64)
READING_CODES = ["AS", "KH", "3H", "QH", "JC"]
PROBABILITIES = [0.95, 0.6, 0.9, 0.99, 0.99]


def test_each_labelled_index_gets_what_the_reader_made_of_it():
    outcomes = index_outcomes(READINGS, READING_CODES, PROBABILITIES, TRUTH, TRUTH_CODES, sure=0.7)
    assert outcomes == [NAMED_RIGHT_SURELY, NAMED_RIGHT_UNSURE, NAMED_ANOTHER_CODE, BOX_OFF, NO_BOX]
    # the sure threshold decides between the first two
    assert index_outcomes(READINGS, READING_CODES, PROBABILITIES, TRUTH, TRUTH_CODES, sure=0.5)[1] == NAMED_RIGHT_SURELY
    assert index_outcomes(READINGS, READING_CODES, PROBABILITIES, TRUTH, TRUTH_CODES, sure=0.96)[0] == NAMED_RIGHT_UNSURE


def test_a_photo_without_readings_or_labels():
    assert index_outcomes(np.zeros((0, 4)), [], [], TRUTH[:2], TRUTH_CODES[:2], sure=0.7) == [NO_BOX, NO_BOX]
    assert index_outcomes(READINGS, READING_CODES, PROBABILITIES, np.zeros((0, 4)), [], sure=0.7) == []
    assert right_first_scores(np.zeros((0, 4)), [], [], TRUTH, TRUTH_CODES).shape == (0,)
    assert list(right_first_scores(READINGS[:1], ["AS"], [0.3], np.zeros((0, 4)), [])) == [0.3]


def test_right_readings_rank_above_every_wrong_one_keeping_their_order():
    scores = [0.2, 0.5, 0.9, 0.95, 0.8]
    raised = right_first_scores(READINGS, READING_CODES, scores, TRUTH, TRUTH_CODES)
    assert list(raised) == pytest.approx([1.2, 1.5, 0.9, 0.95, 0.8])  # only AS and KH lie on their own code
    assert min(raised[:2]) > max(raised[2:])


def test_a_perfect_classifier_renames_the_readings_on_an_index_and_names_them_surely():
    detector_scores = [0.9, 0.8, 0.7, 0.6, 0.5]
    scores = [0.2, 0.5, 0.9, 0.95, 0.8]
    codes, named = named_by_a_perfect_classifier(READINGS, READING_CODES, detector_scores, scores, TRUTH, TRUTH_CODES)
    # the sure 3H on KH and the QH on QD take their index's code; the JC beside its index (IoU 1/3) is left as it is
    assert codes == ["AS", "KH", "KH", "QD", "JC"]
    assert list(named) == pytest.approx([0.9, 0.8, 0.7, 0.6, 0.8])
    assert READING_CODES == ["AS", "KH", "3H", "QH", "JC"]  # the caller's lists are not changed


def test_a_perfect_classifier_without_readings_or_labels_changes_nothing():
    codes, named = named_by_a_perfect_classifier(READINGS[:1], ["2C"], [0.9], [0.4], np.zeros((0, 4)), [])
    assert codes == ["2C"] and list(named) == [0.4]
    codes, named = named_by_a_perfect_classifier(np.zeros((0, 4)), [], [], [], TRUTH, TRUTH_CODES)
    assert codes == [] and named.shape == (0,)


def test_a_perfect_detector_adds_the_indices_no_reading_lies_on():
    assert list(unfound_indices(READINGS, TRUTH)) == [3, 4]  # JC has a box off it, TS none near
    assert list(unfound_indices(np.zeros((0, 4)), TRUTH[:2])) == [0, 1]
    assert list(unfound_indices(READINGS, np.zeros((0, 4)))) == []
