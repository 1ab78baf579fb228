"""Detector plumbing without a model: letterbox geometry, YOLO output decoding, NMS."""
from __future__ import annotations

import numpy as np
import pytest

from vision.detector import Letterbox, decode_output, letterbox, nms, to_network_input


def test_letterbox_keeps_aspect_and_pads_to_stride():
    image = np.zeros((3000, 4000, 3), np.uint8)
    canvas, box = letterbox(image, 960)
    assert canvas.shape == (736, 960, 3)  # 720 padded up to a multiple of 32
    assert box.scale == pytest.approx(0.24)
    assert (box.pad_x, box.pad_y) == (0, 8)
    assert (canvas[:8] == 114).all() and (canvas[-8:] == 114).all()


def test_letterbox_never_enlarges():
    canvas, box = letterbox(np.zeros((504, 378, 3), np.uint8), 960)
    assert box.scale == 1.0
    assert canvas.shape == (512, 384, 3)


def test_letterbox_boxes_map_back_to_the_image():
    image = np.zeros((1500, 2000, 3), np.uint8)
    image[600:700, 800:860] = 255
    canvas, box = letterbox(image, 640)
    ys, xs = np.nonzero(canvas[:, :, 0] > 128)
    found = box.to_image(np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32))[0]
    assert found == pytest.approx([800, 600, 860, 700], abs=4)


def test_fixed_size_models_get_their_size():
    canvas, _ = letterbox(np.zeros((300, 500, 3), np.uint8), 960, fixed=(320, 320))
    assert canvas.shape == (320, 320, 3)


def test_network_input_is_rgb_float_nchw():
    bgr = np.zeros((32, 64, 3), np.uint8)
    bgr[..., 0] = 255  # blue
    tensor = to_network_input(bgr)
    assert tensor.shape == (1, 3, 32, 64) and tensor.dtype == np.float32
    assert tensor[0, 2].max() == 1.0 and tensor[0, 0].max() == 0.0  # blue is the last RGB channel


def test_decode_output_thresholds_and_suppresses():
    # columns: cx, cy, w, h, score
    anchors = np.array([
        [100, 100, 20, 40, 0.9],
        [101, 101, 20, 40, 0.8],  # duplicate of the first
        [300, 100, 20, 40, 0.6],
        [500, 500, 20, 40, 0.1],  # below threshold
    ], np.float32)
    boxes, scores = decode_output(anchors.T[None], score_threshold=0.25, iou_threshold=0.5)
    assert scores.tolist() == pytest.approx([0.9, 0.6])
    assert boxes[0].tolist() == pytest.approx([90, 80, 110, 120])


def test_decode_output_accepts_anchor_first_layout():
    anchors = np.array([[100, 100, 20, 40, 0.9]] + [[0, 0, 1, 1, 0.0]] * 10, np.float32)
    boxes, scores = decode_output(anchors[None], 0.25, 0.5)
    assert len(boxes) == 1 and scores[0] == pytest.approx(0.9)


def test_nms_keeps_separate_boxes():
    boxes = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [1, 1, 11, 11]], np.float32)
    keep = nms(boxes, np.array([0.5, 0.7, 0.6], np.float32), 0.5)
    assert keep.tolist() == [1, 2]


def test_letterbox_inverse_is_exact():
    box = Letterbox(0.5, 10, 20)
    assert box.to_image(np.array([[10, 20, 60, 70]], np.float32))[0].tolist() == [0, 0, 100, 100]
