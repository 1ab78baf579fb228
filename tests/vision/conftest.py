"""Helpers for the reader tests: image bytes with EXIF orientation, synthetic card layouts, model paths."""
from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "models"


def exif_block(orientation: int) -> bytes:
    """A minimal little-endian TIFF block holding only the Orientation tag."""
    entry = struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0)
    return b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + entry + struct.pack("<I", 0)


def jpeg_with_orientation(image: np.ndarray, orientation: int, quality: int = 95) -> bytes:
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    payload = b"Exif\x00\x00" + exif_block(orientation)
    data = encoded.tobytes()
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:]


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_with_orientation(image: np.ndarray, orientation: int) -> bytes:
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    data = encoded.tobytes()
    ihdr_end = 8 + 8 + 13 + 4
    return data[:ihdr_end] + png_chunk(b"eXIf", exif_block(orientation)) + data[ihdr_end:]


def marker_image(height: int = 60, width: int = 90) -> np.ndarray:
    """An asymmetric picture (red block top-left, blue bar bottom-right) whose orientation is easy to check."""
    image = np.full((height, width, 3), 255, np.uint8)
    image[:height // 4, :width // 6] = (0, 0, 255)
    image[-height // 4:, width // 2:] = (255, 0, 0)
    return image


@pytest.fixture
def real_models() -> Path:
    """models/ with both reader models, or skip."""
    missing = [name for name in ("cards.onnx", "cards_cls.onnx") if not (MODELS / name).is_file()]
    if missing:
        pytest.skip(f"needs the trained reader models; missing models/{', models/'.join(missing)}")
    return MODELS


@pytest.fixture(scope="session")
def shipped_reader():
    """The reader over the shipped models (loaded once for the run), or skip."""
    from vision.reader import MODELS_DIR, CardReader

    missing = [n for n in ("cards.onnx", "cards_cls.onnx") if not (MODELS_DIR / n).is_file()]
    if missing:
        pytest.skip(f"needs the trained reader models; missing {', '.join(missing)} in {MODELS_DIR}")
    return CardReader(MODELS_DIR)


# Decks for the generator's tests (need the Debian card decks and rsvg-convert)
TEST_TRAIN_DECK, TEST_VAL_DECK = "simplistic", "kde_standard"


def _decks_missing() -> bool:
    from vision.synth.decks import installed_decks

    return shutil.which("rsvg-convert") is None or not {TEST_TRAIN_DECK, TEST_VAL_DECK} <= {
        d.name for d in installed_decks()}


needs_decks = pytest.mark.skipif(
    _decks_missing(), reason="needs rsvg-convert (librsvg2-bin) and the gnome-cards-data / kdegames-card-data-kf5 decks")


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> Path:
    """A deck cache with the two test decks rendered (once per test run)."""
    from vision.synth.decks import DECKS_BY_NAME, render_deck

    folder = tmp_path_factory.mktemp("deck-cache")
    for name in (TEST_TRAIN_DECK, TEST_VAL_DECK):
        render_deck(DECKS_BY_NAME[name], folder)
    return folder
