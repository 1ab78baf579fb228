"""Where a set's 52-class index mAP is lost: what the whole reader made of each labelled index, and the mAP its
readings would give if every right reading were ranked above every other (the most that re-scoring the same readings
could reach: what is left under it is recall, not ranking), if a perfect classifier named its boxes, or if a perfect
detector had found every index it missed (which model the target waits for)."""
from __future__ import annotations

import numpy as np

from vision.evaluation.metrics import box_iou

MATCH_IOU = 0.5  # mAP50's own overlap: a reading this close to a labelled index is on it
OFF_IOU = 0.1  # a reading overlapping less than MATCH_IOU but this much is a box off the index
NAMED_RIGHT_SURELY = "named right surely"
NAMED_RIGHT_UNSURE = "named right, unsure"
NAMED_ANOTHER_CODE = "named another code"
BOX_OFF = f"box off (IoU {OFF_IOU}–{MATCH_IOU})"
NO_BOX = "no box"
OUTCOMES = (NAMED_RIGHT_SURELY, NAMED_RIGHT_UNSURE, NAMED_ANOTHER_CODE, BOX_OFF, NO_BOX)


def index_outcomes(pred_boxes: np.ndarray, pred_codes: list[str], pred_probabilities: list[float],
                   true_boxes: np.ndarray, true_codes: list[str], sure: float) -> list[str]:
    """One OUTCOMES name per labelled index: a reading on it (IoU >= MATCH_IOU) of its own code named with at least
    `sure`, or only below it; only readings of other codes on it; a reading overlapping it less; nothing near it."""
    true_boxes = np.asarray(true_boxes, np.float64).reshape(-1, 4)
    if len(true_boxes) == 0:
        return []
    ious = box_iou(true_boxes, pred_boxes)
    codes = np.array(pred_codes, dtype=object)
    probabilities = np.asarray(pred_probabilities, np.float64)
    outcomes = []
    for g, code in enumerate(true_codes):
        on_it = ious[g] >= MATCH_IOU
        right = on_it & (codes == code)
        if right.any():
            outcomes.append(NAMED_RIGHT_SURELY if probabilities[right].max() >= sure else NAMED_RIGHT_UNSURE)
        elif on_it.any():
            outcomes.append(NAMED_ANOTHER_CODE)
        elif ious.shape[1] and ious[g].max() >= OFF_IOU:
            outcomes.append(BOX_OFF)
        else:
            outcomes.append(NO_BOX)
    return outcomes


def right_first_scores(pred_boxes: np.ndarray, pred_codes: list[str], scores: list[float],
                       true_boxes: np.ndarray, true_codes: list[str]) -> np.ndarray:
    """The scores raised by 1 for the readings that lie on a labelled index of their own code (IoU >= MATCH_IOU), so
    that every right reading ranks above every wrong one and each group keeps its own order."""
    scores = np.asarray(scores, np.float64).reshape(-1)
    true_boxes = np.asarray(true_boxes, np.float64).reshape(-1, 4)
    if len(scores) == 0 or len(true_boxes) == 0:
        return scores.copy()
    same_code = np.array([[p == t for t in true_codes] for p in pred_codes], bool).reshape(len(scores), -1)
    right = ((box_iou(pred_boxes, true_boxes) >= MATCH_IOU) & same_code).any(axis=1)
    return scores + right


def named_by_a_perfect_classifier(pred_boxes: np.ndarray, pred_codes: list[str], detector_scores: list[float],
                                  scores: list[float], true_boxes: np.ndarray, true_codes: list[str]
                                  ) -> tuple[list[str], np.ndarray]:
    """The readings as a perfect classifier would name them: each one on a labelled index (IoU >= MATCH_IOU; the one
    it overlaps most) takes that index's code and is scored by its detector score alone (named surely); the others
    keep their codes and `scores`."""
    codes = list(pred_codes)
    named = np.asarray(scores, np.float64).reshape(-1).copy()
    true_boxes = np.asarray(true_boxes, np.float64).reshape(-1, 4)
    if len(codes) == 0 or len(true_boxes) == 0:
        return codes, named
    ious = box_iou(pred_boxes, true_boxes)
    for p in np.flatnonzero(ious.max(axis=1) >= MATCH_IOU):
        codes[p] = true_codes[int(ious[p].argmax())]
        named[p] = detector_scores[p]
    return codes, named


def unfound_indices(pred_boxes: np.ndarray, true_boxes: np.ndarray) -> np.ndarray:
    """Positions of the labelled indices that no reading lies on (IoU under MATCH_IOU with every one): what a
    perfect detector would add."""
    true_boxes = np.asarray(true_boxes, np.float64).reshape(-1, 4)
    pred_boxes = np.asarray(pred_boxes, np.float64).reshape(-1, 4)
    if len(pred_boxes) == 0:
        return np.arange(len(true_boxes))
    return np.flatnonzero(box_iou(true_boxes, pred_boxes).max(axis=1) < MATCH_IOU)
