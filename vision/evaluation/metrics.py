"""Small, dependency-free metrics: box IoU, average precision integrated as COCO does (and as ultralytics does),
per-class precision/recall/F1."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

COCO_IOU_THRESHOLDS = np.round(np.arange(0.5, 0.951, 0.05), 2)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix (len(a), len(b)) of x1y1x2y2 boxes."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-12)


def match_detections(pred_boxes: np.ndarray, pred_scores: np.ndarray, gt_boxes: np.ndarray,
                     thresholds: np.ndarray = COCO_IOU_THRESHOLDS) -> np.ndarray:
    """True-positive flags (len(thresholds), len(pred)) by greedy matching, best score first (COCO rule)."""
    tp = np.zeros((len(thresholds), len(pred_boxes)), bool)
    if len(pred_boxes) == 0 or len(gt_boxes) == 0:
        return tp
    order = np.argsort(-np.asarray(pred_scores))
    ious = box_iou(pred_boxes, gt_boxes)
    for t, threshold in enumerate(thresholds):
        taken = np.zeros(len(gt_boxes), bool)
        for p in order:
            candidates = np.where(~taken, ious[p], -1.0)
            g = int(np.argmax(candidates))
            if candidates[g] >= threshold:
                taken[g] = True
                tp[t, p] = True
    return tp


def outside_ignored(pred_boxes: np.ndarray, gt_boxes: np.ndarray, ignore_boxes: np.ndarray,
                    threshold: float = 0.5) -> np.ndarray:
    """Mask of the predictions to keep: those not lying on an ignored truth box (IoU >= threshold with it and at
    least their IoU with any counted box), which are neither right nor wrong (COCO's "ignore" regions)."""
    pred_boxes = np.asarray(pred_boxes, np.float64).reshape(-1, 4)
    keep = np.ones(len(pred_boxes), bool)
    if len(pred_boxes) == 0 or len(ignore_boxes) == 0:
        return keep
    on_ignored = box_iou(pred_boxes, ignore_boxes).max(axis=1)
    on_counted = box_iou(pred_boxes, gt_boxes).max(axis=1) if len(gt_boxes) else np.zeros(len(pred_boxes))
    return ~((on_ignored >= threshold) & (on_ignored >= on_counted))


def _curve(tp: np.ndarray, scores: np.ndarray, n_gt: int) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision after each prediction, likeliest first (stable for equal scores)."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    hits = np.cumsum(np.asarray(tp, bool)[order])
    return hits / n_gt, hits / np.arange(1, len(hits) + 1)


def average_precision(tp: np.ndarray, scores: np.ndarray, n_gt: int) -> float:
    """COCO 101-point interpolated AP from TP flags and scores of all predictions of one class."""
    if n_gt == 0:
        return float("nan")
    if len(scores) == 0:
        return 0.0
    recall, precision = _curve(tp, scores, n_gt)
    precision = np.maximum.accumulate(precision[::-1])[::-1]  # monotone envelope
    points = np.linspace(0, 1, 101)
    at = np.searchsorted(recall, points, side="left")
    return float(np.mean(np.where(at < len(precision), precision[np.minimum(at, len(precision) - 1)], 0.0)))


def ultralytics_average_precision(tp: np.ndarray, scores: np.ndarray, n_gt: int) -> float:
    """AP as ultralytics integrates it (`ultralytics.utils.metrics.compute_ap`, 8.4): the precision envelope
    interpolated linearly at 101 recall points and integrated by the trapezoid rule, falling to 0 after the last
    recall reached, so a class found whole scores 0.995, not 1 (COCO's step envelope, average_precision, gives 1).
    A class without predictions scores 0, as in its `ap_per_class`."""
    if n_gt == 0:
        return float("nan")
    if len(scores) == 0:
        return 0.0
    recall, precision = _curve(tp, scores, n_gt)
    recall_points = np.concatenate(([0.0], recall, [recall[-1]], [1.0]))
    envelope = np.concatenate(([1.0], precision, [0.0], [0.0]))
    envelope = np.flip(np.maximum.accumulate(np.flip(envelope)))
    points = np.linspace(0, 1, 101)
    values = np.interp(points, recall_points, envelope)
    return float(np.sum((values[1:] + values[:-1]) / 2 * np.diff(points)))


@dataclass
class DetectionAccumulator:
    """Collects one-class detections over images and gives mAP50 and mAP50-95."""

    def __post_init__(self):
        self.tp: list[np.ndarray] = []
        self.scores: list[np.ndarray] = []
        self.n_gt = 0

    def add(self, pred_boxes: np.ndarray, pred_scores: np.ndarray, gt_boxes: np.ndarray,
            ignore_boxes: np.ndarray | None = None) -> None:
        """One image; `ignore_boxes` are truth that is not counted (see outside_ignored)."""
        if ignore_boxes is not None and len(ignore_boxes):
            keep = outside_ignored(pred_boxes, gt_boxes, np.asarray(ignore_boxes, np.float64).reshape(-1, 4))
            pred_boxes, pred_scores = np.asarray(pred_boxes).reshape(-1, 4)[keep], np.asarray(pred_scores)[keep]
        self.tp.append(match_detections(pred_boxes, pred_scores, gt_boxes))
        self.scores.append(np.asarray(pred_scores, np.float64))
        self.n_gt += len(gt_boxes)

    def results(self, ap: Callable[[np.ndarray, np.ndarray, int], float] = average_precision) -> dict[str, float]:
        """mAP50 and mAP50-95, each AP integrated by `ap` (COCO's by default)."""
        tp = np.concatenate(self.tp, axis=1) if self.tp else np.zeros((len(COCO_IOU_THRESHOLDS), 0), bool)
        scores = np.concatenate(self.scores) if self.scores else np.zeros(0)
        aps = [ap(tp[t], scores, self.n_gt) for t in range(len(COCO_IOU_THRESHOLDS))]
        return {"mAP50": aps[0], "mAP50-95": float(np.mean(aps)), "images": len(self.tp), "boxes": self.n_gt}


@dataclass
class ClassDetectionAccumulator:
    """Detections with class labels: AP per class, averaged over the classes that occur (COCO mAP)."""

    def __post_init__(self):
        self.by_class: dict[str, DetectionAccumulator] = {}

    def add(self, pred_boxes: np.ndarray, pred_scores: np.ndarray, pred_classes: list[str],
            gt_boxes: np.ndarray, gt_classes: list[str], ignore_boxes: np.ndarray | None = None,
            ignore_classes: list[str] = ()) -> None:
        """One image; an ignored box excuses only predictions of its own class (a wrong name there still counts)."""
        pred_boxes, gt_boxes = np.asarray(pred_boxes).reshape(-1, 4), np.asarray(gt_boxes).reshape(-1, 4)
        ignore_boxes = np.asarray(ignore_boxes if ignore_boxes is not None else [], np.float64).reshape(-1, 4)
        pred_scores = np.asarray(pred_scores, np.float64)
        for label in set(pred_classes) | set(gt_classes):
            p = np.array([c == label for c in pred_classes], bool).reshape(-1)
            g = np.array([c == label for c in gt_classes], bool).reshape(-1)
            i = np.array([c == label for c in ignore_classes], bool).reshape(-1)
            self.by_class.setdefault(label, DetectionAccumulator()).add(pred_boxes[p], pred_scores[p], gt_boxes[g],
                                                                         ignore_boxes[i])

    def class_ap50(self) -> dict[str, tuple[float, int]]:
        """Each class with labelled boxes: its AP50 and how many boxes it has."""
        return {label: (acc.results()["mAP50"], acc.n_gt) for label, acc in self.by_class.items() if acc.n_gt}

    def results(self, ap: Callable[[np.ndarray, np.ndarray, int], float] = average_precision) -> dict[str, float]:
        """mAP50 and mAP50-95 over the classes with labelled boxes, each AP integrated by `ap`."""
        per_class = [acc.results(ap) for acc in self.by_class.values() if acc.n_gt]
        if not per_class:
            return {"mAP50": float("nan"), "mAP50-95": float("nan"), "classes": 0}
        return {"mAP50": float(np.mean([r["mAP50"] for r in per_class])),
                "mAP50-95": float(np.mean([r["mAP50-95"] for r in per_class])), "classes": len(per_class)}


def per_class_prf(true_positive: Counter, predicted: Counter, actual: Counter) -> dict[str, dict[str, float]]:
    """Precision, recall, F1 and support per class from counts."""
    table = {}
    for label in sorted(set(predicted) | set(actual)):
        tp, p, a = true_positive[label], predicted[label], actual[label]
        precision = tp / p if p else float("nan")
        recall = tp / a if a else float("nan")
        f1 = 2 * tp / (p + a) if (p + a) else float("nan")
        table[label] = {"precision": precision, "recall": recall, "f1": f1, "support": a, "predicted": p}
    return table


def worst_confusions(confusion: Counter, limit: int = 10) -> list[tuple[str, str, int]]:
    """Most frequent (truth, prediction) pairs where they differ."""
    wrong = [(t, p, n) for (t, p), n in confusion.items() if t != p]
    return sorted(wrong, key=lambda x: (-x[2], x[0], x[1]))[:limit]
