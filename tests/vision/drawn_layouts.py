"""Drawn card layouts and stand-in models for testing the reader and the evaluation without trained models.

Cards are white rectangles whose two corner indices are coloured markers; the colour encodes the card code.
`MarkerDetector` finds the markers (only at the sizes the real detector was trained for) and
`ColourClassifier` reads the colour in the middle of the crop cut by `vision.crops.index_crop`.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.crops import CARD_CODES, CLASS_NAMES, index_crop

TABLE = (40, 110, 30)
CARD_W, CARD_H = 160.0, 224.0
MARKER = np.array([[5, 6], [31, 6], [31, 62], [5, 62]], np.float64)  # top-left index box, card units
MARKER_RANGE = (8, 45)  # marker heights (letterboxed px) the stand-in detector can see, like the real one


def code_colour(code: str) -> tuple[int, int, int]:
    """BGR: green steps of 14 for the rank, blue steps of 20 for the suit (JPEG moves colours by a few units)."""
    rank, suit = divmod(CARD_CODES.index(code), 4)
    return (10 + 20 * suit, 20 + 14 * rank, 220)


class MarkerDetector:
    score_threshold = 0.25

    def detect(self, image, long_side, *, score_threshold=None):
        scale = min(long_side / max(image.shape[:2]), 1.0)
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
        b, g, r = (small[..., i].astype(int) for i in range(3))
        mask = ((r > 170) & (b < 100) & (g < 240)).astype(np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        boxes = []
        for x, y, w, h, area in stats[1:]:
            if MARKER_RANGE[0] <= max(w, h) <= MARKER_RANGE[1] and area >= 20:
                boxes.append([x / scale, y / scale, (x + w) / scale, (y + h) / scale])
        boxes = np.array(boxes, np.float32).reshape(-1, 4)
        return boxes, np.full(len(boxes), 0.9, np.float32)


class ColourClassifier:
    def __init__(self, probability=0.97):
        self.probability = probability

    def probabilities(self, image, boxes):
        out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
        for row, box in enumerate(boxes):
            b, g, r = (int(v) for v in index_crop(image, box)[24, 24])
            rank, suit = round((g - 20) / 14), round((b - 10) / 20)
            marker = r > 170 and b < 100 and 0 <= rank < 13 and 0 <= suit < 4
            label = rank * 4 + suit if marker else len(CARD_CODES)
            out[row] = (1 - self.probability) / (len(CLASS_NAMES) - 1)
            out[row, label] = self.probability
        return out


def render(rows, *, step=(185.0, 260.0), scale=1.2, angle=0.0, size=(2000, 1500), centre=None):
    """Picture of a layout (rows front→back, codes left→right); returns the image and each code's marker boxes."""
    image = np.full((size[1], size[0], 3), TABLE, np.uint8)
    centre = np.array(centre or (size[0] / 2, size[1] / 2), np.float64)
    theta = np.deg2rad(angle)
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    height = step[1] * (len(rows) - 1) + CARD_H
    where = {}

    def place(points):
        return (np.asarray(points) * scale) @ rotation.T + centre

    for r, row in enumerate(rows):
        width = step[0] * (len(row) - 1) + CARD_W
        for k, code in enumerate(row):
            origin = np.array([-width / 2 + k * step[0], -height / 2 + r * step[1]])
            card = origin + np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
            cv2.fillConvexPoly(image, np.round(place(card)).astype(np.int32), (250, 250, 250), cv2.LINE_AA)
            for marker in (origin + MARKER, origin + np.array([CARD_W, CARD_H]) - MARKER):
                corners = place(marker)
                cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), code_colour(code))
                where.setdefault(code, []).append(np.r_[corners.min(axis=0), corners.max(axis=0)])
    return image, where


def jpeg(image, quality=95) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def deal(seed: int, sizes=(3, 5, 5)):
    codes = list(np.random.default_rng(seed).permutation(CARD_CODES)[:sum(sizes)])
    return [[codes.pop() for _ in range(n)] for n in sizes]
