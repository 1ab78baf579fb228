"""Corner-index detector: letterbox, ONNX Runtime (YOLO11 export, one class `index`), decode, NMS."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.onnx_session import create_session

STRIDE = 32
PAD_VALUE = 114
MAX_CANDIDATES = 3000  # best-scoring boxes considered by NMS (bounds time at very low thresholds)
MAX_DETECTIONS = 300


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the network input: input = image * scale + (pad_x, pad_y)."""
    scale: float
    pad_x: int
    pad_y: int

    def to_image(self, boxes: np.ndarray) -> np.ndarray:
        """Boxes (N,4 x1y1x2y2) from network-input pixels back to image pixels."""
        out = boxes.astype(np.float32).copy()
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        return out


def letterbox(image: np.ndarray, long_side: int, *, fixed: tuple[int, int] | None = None
              ) -> tuple[np.ndarray, Letterbox]:
    """Resize so the long side is `long_side` (never enlarging; a fixed-size model gets its own size),
    pad with gray 114 to a multiple of 32 (or to the model's `fixed` (h, w)), centred like ultralytics."""
    h, w = image.shape[:2]
    if fixed is not None:
        scale = min(fixed[0] / h, fixed[1] / w)
    else:
        scale = min(long_side / max(h, w), 1.0)
    new_w, new_h = max(1, round(w * scale)), max(1, round(h * scale))
    if fixed is not None:
        out_h, out_w = fixed
    else:
        out_h, out_w = (-(-new_h // STRIDE) * STRIDE, -(-new_w // STRIDE) * STRIDE)
    resized = image if (new_w, new_h) == (w, h) else cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_AREA)
    pad_x, pad_y = (out_w - new_w) // 2, (out_h - new_h) // 2
    canvas = cv2.copyMakeBorder(resized, pad_y, out_h - new_h - pad_y, pad_x, out_w - new_w - pad_x,
                                cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3)
    return canvas, Letterbox(new_w / w, pad_x, pad_y)


def to_network_input(letterboxed_bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 HxWx3 → RGB float32 1x3xHxW in 0..1 (what ultralytics exports expect)."""
    rgb = letterboxed_bgr[:, :, ::-1]
    return np.ascontiguousarray(rgb.transpose(2, 0, 1)[None], dtype=np.float32) / np.float32(255.0)


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best score first."""
    order = np.argsort(-scores)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    keep: list[int] = []
    while order.size:
        best, rest = order[0], order[1:]
        keep.append(int(best))
        xx1 = np.maximum(boxes[best, 0], boxes[rest, 0])
        yy1 = np.maximum(boxes[best, 1], boxes[rest, 1])
        xx2 = np.minimum(boxes[best, 2], boxes[rest, 2])
        yy2 = np.minimum(boxes[best, 3], boxes[rest, 3])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        iou = inter / (areas[best] + areas[rest] - inter + 1e-9)
        order = rest[iou <= iou_threshold]
    return np.array(keep, dtype=np.int64)


def decode_output(output: np.ndarray, score_threshold: float, iou_threshold: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """YOLO output [1, 4+1, A] (cx, cy, w, h, score; no NMS) → boxes (N,4 x1y1x2y2), scores (N,)."""
    pred = output[0]
    if pred.shape[0] != 5 and (pred.shape[1] == 5 or pred.shape[0] > pred.shape[1]):
        pred = pred.T  # some exports put anchors first
    scores = pred[4:].max(axis=0) if pred.shape[0] > 5 else pred[4]
    mask = scores >= score_threshold
    if not mask.any():
        return np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)
    candidates = np.flatnonzero(mask)
    if candidates.size > MAX_CANDIDATES:
        candidates = candidates[np.argsort(-scores[candidates])[:MAX_CANDIDATES]]
    cx, cy, w, h = pred[:4, candidates]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1).astype(np.float32)
    scores = scores[candidates].astype(np.float32)
    keep = nms(boxes, scores, iou_threshold)[:MAX_DETECTIONS]
    return boxes[keep], scores[keep]


class IndexDetector:
    """Finds corner indices (rank + suit glyph) in a BGR image; thread-safe."""

    def __init__(self, model_path: Path, *, score_threshold: float = 0.25, iou_threshold: float = 0.5):
        self.session = create_session(model_path)
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        height, width = model_input.shape[2], model_input.shape[3]
        self.fixed_size = (height, width) if isinstance(height, int) and isinstance(width, int) else None
        self.score_threshold = score_threshold
        self.iou_threshold = iou_threshold

    def detect(self, image: np.ndarray, long_side: int, *, score_threshold: float | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """Index boxes (N,4 x1y1x2y2, image pixels) and scores (N,) found at the given input size."""
        canvas, box = letterbox(image, long_side, fixed=self.fixed_size)
        (output,) = self.session.run(None, {self.input_name: to_network_input(canvas)})[:1]
        threshold = self.score_threshold if score_threshold is None else score_threshold
        boxes, scores = decode_output(output, threshold, self.iou_threshold)
        boxes = box.to_image(boxes)
        h, w = image.shape[:2]
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        return boxes, scores
