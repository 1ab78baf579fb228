"""The whole reader (decode → detect → classify → merge → rows → JSON) without the trained models.

Cards are drawn as white rectangles whose two corner indices are coloured markers; the colour encodes the
card code. A stand-in detector finds the markers (only at the sizes the real detector was trained for) and a
stand-in classifier reads the colour in the middle of the crop cut by `vision.crops.index_crop`.
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import CARD_CODES, CLASS_NAMES, index_crop
from vision.reader import CardReader

from conftest import jpeg_with_orientation

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


@pytest.fixture
def reader():
    return CardReader(detector=MarkerDetector(), classifier=ColourClassifier())


def as_rows(rows):
    return dict(zip(("front", "middle", "back"), rows))


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 37, 201])
def test_layout_rows_at_any_rotation(reader, angle):
    rows = deal(angle)
    image, _ = render(rows, angle=angle)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)
    assert result["warnings"] == []
    assert [c["row"] for c in result["cards"]] == ["front"] * 3 + ["middle"] * 5 + ["back"] * 5
    assert all(c["confidence"] == pytest.approx(0.97) for c in result["cards"])


def test_fanned_rows_where_only_corner_indices_show(reader):
    rows = deal(5)
    image, _ = render(rows, step=(52.0, 120.0), scale=2.0, angle=150)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)


def test_portrait_photo_upside_down(reader):
    rows = deal(6)
    image, _ = render(rows, size=(1500, 2000), angle=180, scale=1.0)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)


def test_exif_rotated_photo(reader):
    rows = deal(7)
    image, _ = render(rows, angle=10)
    stored = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)  # the camera stored it sideways ...
    data = jpeg_with_orientation(stored, 8)  # ... and says "turn me 90° counter-clockwise"
    assert reader.read(data).to_dict()["rows"] == as_rows(rows)


def test_boxes_are_in_photo_pixels_after_reduced_decoding():
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(), crop_source_long_side=900)
    rows = deal(8)
    image, where = render(rows, scale=2.4, size=(4000, 3000))
    read = reader.read(jpeg(image))
    assert read.scale == 4.0  # 4000 px decoded at 1/4 still has a long side ≥ 900
    result = read.to_dict()
    assert result["rows"] == as_rows(rows)
    for card in result["cards"]:
        markers = np.array(where[card["code"]])
        expected = [markers[:, 0].min(), markers[:, 1].min(), markers[:, 2].max(), markers[:, 3].max()]
        assert card["box"] == pytest.approx(expected, abs=8)


def test_close_up_of_one_card_uses_a_smaller_detection_size(reader):
    image, _ = render([["QH"]], scale=6.0, size=(1500, 2000))  # markers ~340 px tall
    read = reader.read(jpeg(image), loose=True)
    assert read.detection_size == 256
    assert [c["code"] for c in read.to_dict()["cards"]] == ["QH"]


def test_missing_card_and_card_seen_twice(reader):
    rows = deal(9)
    rows[0][0] = rows[2][4]  # the same card in the front and the back row, far apart
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    assert any(w.startswith(f"card seen twice: {rows[2][4]}") for w in result["warnings"])
    rows = deal(10)
    del rows[2][0]
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    assert result["rows"] == as_rows(rows)
    assert "expected 13 cards, found 12" in result["warnings"]
    assert "back row has 4 card(s), expected 5" in result["warnings"]


def test_low_confidence_is_reported():
    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(probability=0.4))
    rows = deal(11)
    image, _ = render(rows)
    result = reader.read(jpeg(image)).to_dict()
    low = [w for w in result["warnings"] if w.startswith("low confidence")]
    assert len(low) == 13 and "(0.40)" in low[0]


def test_loose_mode(reader):
    rows = deal(12)
    image, _ = render(rows, angle=60)
    result = reader.read(jpeg(image), loose=True).to_dict()
    assert result["rows"] is None
    assert sorted(c["code"] for c in result["cards"]) == sorted(sum(rows, []))
    assert all(c["row"] is None for c in result["cards"])
    assert result["warnings"] == []
