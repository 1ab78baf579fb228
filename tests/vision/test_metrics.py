"""The evaluation's own mAP and matching code."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.cards import Card, IndexReading
from vision.evaluation.evaluators import match_rank_boxes
from vision.evaluation.metrics import (ClassDetectionAccumulator, DetectionAccumulator, average_precision, box_iou,
                                       outside_ignored, per_class_prf, ultralytics_average_precision, worst_confusions)


def test_box_iou():
    iou = box_iou(np.array([[0, 0, 10, 10]]), np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]]))
    assert iou[0].tolist() == pytest.approx([1.0, 1 / 3, 0.0])


def test_perfect_detections_give_map_1():
    acc = DetectionAccumulator()
    gt = np.array([[0, 0, 10, 20], [50, 50, 70, 90]], np.float64)
    acc.add(gt, np.array([0.9, 0.8]), gt)
    acc.add(np.zeros((0, 4)), np.zeros(0), np.zeros((0, 4)))
    assert acc.results()["mAP50"] == pytest.approx(1.0)
    assert acc.results()["mAP50-95"] == pytest.approx(1.0)


def test_shifted_boxes_pass_map50_but_not_strict_thresholds():
    acc = DetectionAccumulator()
    gt = np.array([[0, 0, 100, 100]], np.float64)
    acc.add(gt + [20, 0, 20, 0], np.array([0.9]), gt)  # IoU = 80/120 = 0.667
    result = acc.results()
    assert result["mAP50"] == pytest.approx(1.0)
    assert result["mAP50-95"] == pytest.approx(0.4)  # thresholds 0.50..0.65 of 10


def test_class_map_counts_a_right_box_with_the_wrong_class_as_a_miss_and_a_false_positive():
    gt = np.array([[0, 0, 10, 20], [50, 50, 70, 90]], np.float64)
    right = ClassDetectionAccumulator()
    right.add(gt, [0.9, 0.8], ["AS", "7D"], gt, ["AS", "7D"])
    assert right.results() == {"mAP50": pytest.approx(1.0), "mAP50-95": pytest.approx(1.0), "classes": 2}
    wrong = ClassDetectionAccumulator()
    wrong.add(gt, [0.9, 0.8], ["AS", "7H"], gt, ["AS", "7D"])
    assert wrong.results()["classes"] == 2  # 7H has no label so is not averaged; 7D is never found
    assert wrong.results()["mAP50"] == pytest.approx(0.5)
    # per class: AS found, 7D never (the 7H reading has no label of its own, so no AP)
    assert wrong.class_ap50() == {"AS": (pytest.approx(1.0), 1), "7D": (0.0, 1)}


def test_an_ignored_label_is_neither_required_nor_a_false_positive_when_named_right():
    legible = np.array([[0, 0, 10, 20]], np.float64)
    covered = np.array([[50, 50, 70, 90]], np.float64)
    found_both = ClassDetectionAccumulator()
    found_both.add(np.vstack([legible, covered]), [0.9, 0.95], ["AS", "7D"], legible, ["AS"], covered, ["7D"])
    assert found_both.results() == {"mAP50": pytest.approx(1.0), "mAP50-95": pytest.approx(1.0), "classes": 1}
    missed_it = ClassDetectionAccumulator()
    missed_it.add(legible, [0.9], ["AS"], legible, ["AS"], covered, ["7D"])
    assert missed_it.results()["mAP50"] == pytest.approx(1.0)
    counted = ClassDetectionAccumulator()  # the same reading with the covered label counted: a miss
    counted.add(legible, [0.9], ["AS"], np.vstack([legible, covered]), ["AS", "7D"])
    assert counted.results()["mAP50"] == pytest.approx(0.5)


def test_a_wrong_name_on_an_ignored_label_still_counts_as_a_false_positive():
    legible = np.array([[0, 0, 10, 20]], np.float64)
    covered = np.array([[50, 50, 70, 90]], np.float64)
    acc = ClassDetectionAccumulator()
    acc.add(np.vstack([covered, legible]), [0.95, 0.9], ["AS", "AS"], legible, ["AS"], covered, ["7D"])
    assert acc.results()["mAP50"] == pytest.approx(0.5, abs=0.01)  # the 7D named AS ranks first and is wrong


def test_outside_ignored_keeps_a_prediction_closer_to_a_counted_box():
    gt = np.array([[0, 0, 10, 10]], np.float64)
    ignored = np.array([[0, 0, 12, 12]], np.float64)
    keep = outside_ignored(np.array([[0, 0, 10, 10], [0, 0, 12, 12], [100, 100, 110, 110]], np.float64), gt, ignored)
    assert keep.tolist() == [True, False, True]


def test_false_positive_ranked_first_lowers_ap():
    tp = np.array([False, True])
    assert average_precision(tp, np.array([0.9, 0.8]), n_gt=1) == pytest.approx(0.5, abs=0.01)
    assert average_precision(np.array([True, False]), np.array([0.9, 0.8]), n_gt=1) == pytest.approx(1.0)
    assert average_precision(np.array([True]), np.array([0.9]), n_gt=2) == pytest.approx(51 / 101, abs=1e-6)


def test_per_class_prf_and_confusions():
    table = per_class_prf(Counter({"A": 3}), Counter({"A": 4, "K": 1}), Counter({"A": 3, "K": 2}))
    assert table["A"]["precision"] == pytest.approx(0.75) and table["A"]["recall"] == 1.0
    assert table["K"]["recall"] == 0.0
    assert worst_confusions(Counter({("A", "A"): 5, ("K", "A"): 2, ("Q", "K"): 1})) == [("K", "A", 2), ("Q", "K", 1)]


def card(code: str, *boxes) -> Card:
    return Card(code, [IndexReading(tuple(map(float, b)), code, 0.9, 0.9) for b in boxes])


def test_rank_box_matching_prefers_same_rank_and_reports_misses_and_extras():
    labels = [{"rank": "K", "box": [0, 0, 100, 150]}, {"rank": "Q", "box": [80, 0, 180, 150]},
              {"rank": "9", "box": [500, 500, 600, 650]}]
    cards = [card("QS", (100, 5, 115, 35)),  # inside both K's and Q's box: must go to Q
             card("KH", (5, 5, 20, 35), (80, 110, 95, 140)),
             card("AD", (300, 300, 315, 330))]  # outside every label
    pairs = set(match_rank_boxes(cards, labels))
    assert pairs == {(0, 1), (1, 0), (2, None), (None, 2)}


def test_ultralytics_integration_caps_a_class_found_whole_at_0995_and_falls_after_the_last_recall():
    """The figures ultralytics.utils.metrics.compute_ap (8.4.190) gives for the same curves: 0.995, 0.828333, 0.495."""
    assert ultralytics_average_precision(np.array([1, 1]), np.array([0.9, 0.8]), 2) == pytest.approx(0.995)
    assert average_precision(np.array([1, 1]), np.array([0.9, 0.8]), 2) == pytest.approx(1.0)  # COCO's: 1
    assert ultralytics_average_precision(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7]), 2) == pytest.approx(
        0.8283333, abs=1e-6)
    assert ultralytics_average_precision(np.array([1]), np.array([0.9]), 2) == pytest.approx(0.495)  # half found
    assert ultralytics_average_precision(np.zeros(0, bool), np.zeros(0), 3) == 0.0  # nothing predicted
    assert np.isnan(ultralytics_average_precision(np.array([0]), np.array([0.5]), 0))


def test_an_accumulator_integrates_with_the_ap_it_is_given():
    acc = ClassDetectionAccumulator()
    acc.add(np.array([[0, 0, 10, 10]]), [0.9], ["AS"], np.array([[0, 0, 10, 10]]), ["AS"])
    assert acc.results()["mAP50"] == pytest.approx(1.0)
    assert acc.results(ultralytics_average_precision)["mAP50"] == pytest.approx(0.995)
