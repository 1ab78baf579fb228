"""Hostile photos through the upload paths (issue 64, items 2, 3 and 10): a 4xx with the reader's typed one-line
message, and nothing stored (no file, no photo row, no upload row, the hand untouched)."""
from __future__ import annotations

import io
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from sqlalchemy import func, select

from adversaries.images import PNG_SIGNATURE, png_chunk, scan_data_start
from webapp.db import get_session
from webapp.models import Photo, Upload
from webapp_testkit import create_game, csrf_token, jpeg_bytes, new_round


def _png_claiming_2_gb() -> bytes:
    ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    return PNG_SIGNATURE + ihdr + struct.pack(">I", 0x7FFFFFFF) + b"tEXtabc" + png_chunk(b"IEND", b"")


def _thin(ext: str, width: int, height: int) -> bytes:
    return cv2.imencode(ext, np.full((height, width, 3), 90, np.uint8))[1].tobytes()


def _damaged_scan_jpeg() -> bytes:
    """Sound markers, damaged scan data (cut short, padded with bytes free of 0xFF, ended): only libjpeg's strict
    decode sees it, and OpenCV decodes it without a word."""
    jpeg = jpeg_bytes(seed=5)
    cut = (scan_data_start(jpeg) + len(jpeg)) // 2
    padding = np.random.default_rng(5).integers(0, 255, 400, dtype=np.uint8).tobytes()
    return jpeg[:cut] + padding + b"\xff\xd9"


def _arithmetic_frame() -> bytes:
    jpeg = jpeg_bytes(seed=6)
    sof = jpeg.find(b"\xff\xc0")
    return jpeg[:sof + 1] + b"\xc9" + jpeg[sof + 2:]


def _bomb() -> bytes:
    jpeg = bytearray(jpeg_bytes(seed=7))
    sof = jpeg.find(b"\xff\xc0")
    jpeg[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    return bytes(jpeg)


HOSTILE = [
    ("png-claiming-2-GB", _png_claiming_2_gb, 400, "tEXt chunk claims"),
    ("jpeg-40000x1", lambda: _thin(".jpg", 40000, 1), 400, "photo of cards"),
    ("png-16x16000", lambda: _thin(".png", 16, 16000), 400, "photo of cards"),
    ("webp-2x8000", lambda: _thin(".webp", 2, 8000), 400, "photo of cards"),
    ("damaged-scan-jpeg", _damaged_scan_jpeg, 400, "Corrupt JPEG data"),
    ("arithmetic-frame", _arithmetic_frame, 415, "arithmetic-coded"),
    ("header-bomb", _bomb, 413, "60000x60000"),
]


def _nothing_stored(app) -> bool:
    with app.app_context():
        session = get_session()
        rows = [session.scalar(select(func.count()).select_from(model)) for model in (Upload, Photo)]
    return rows == [0, 0] and not [p for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()]


@pytest.mark.parametrize("name, make, status, reason", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_photo_gets_its_typed_message_and_is_not_stored(client, app, name, make, status, reason):
    token = create_game(client)
    number = new_round(client, token)
    body = {"csrf_token": csrf_token(client), "photo": (io.BytesIO(make()), "hand.jpg")}
    response = client.post(f"/g/{token}/r/{number}/p/0/photo", data=body, content_type="multipart/form-data",
                           headers={"X-Requested-With": "fetch"})
    assert response.status_code == status, response.get_data(as_text=True)
    message = response.get_json()["error"]
    assert reason in message and "\n" not in message
    assert _nothing_stored(app)


@pytest.mark.parametrize("name, make, status, reason", HOSTILE[:2] + HOSTILE[4:5], ids=["png", "thin", "damaged"])
def test_the_api_refuses_them_too(client, app, name, make, status, reason):
    token = create_game(client)
    new_round(client, token)
    response = client.post(f"/api/games/{token}/rounds/1/hands/Bob/photo",
                           data={"photo": (io.BytesIO(make()), "b.jpg")}, content_type="multipart/form-data")
    assert response.status_code == status, response.get_data(as_text=True)
    assert reason in response.get_json()["error"]
    assert _nothing_stored(app)
