"""The overhead webcam attached to the server: one JPEG shot through OpenCV's VideoCapture."""
from __future__ import annotations

import os
import sys
import threading

# OpenCV reads its bound on the pixels one decode may allocate once, when it loads: the web app loads it here, before
# the reader does, so the reader's bound (vision/__init__.py, docs/reader.md "hostile images") is set here too.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "50000000")

import cv2  # noqa: E402

WARMUP_FRAMES = 5  # webcams need a few frames before exposure and focus settle
_lock = threading.Lock()  # one shot at a time: a camera cannot be opened twice


class WebcamUnavailable(RuntimeError):
    """No camera configured, or it cannot be opened or read; `str(err)` is one line for a person."""


def available(device: str) -> bool:
    """Whether the page should offer the overhead-webcam button: a camera is configured and found. Cheap (asked on
    every hand page): a device index is looked up under /dev on Linux (elsewhere it is opened once and the answer
    kept), a path must exist, and a video URL only a shot can tell, so it is offered."""
    device = str(device).strip()
    if device == "" or device.lower() == "none":
        return False
    if device.isdigit():
        if sys.platform.startswith("linux"):
            return os.path.exists(f"/dev/video{device}")
        if device not in _opened:
            with _lock:
                capture = cv2.VideoCapture(int(device))
                _opened[device] = capture.isOpened()
                capture.release()
        return _opened[device]
    if "://" in device:
        return True
    return os.path.exists(device)  # a device node or a video file


_opened: dict[str, bool] = {}  # non-Linux: whether each device index opened


def capture_jpeg(device: str, *, quality: int = 92) -> bytes:
    device = str(device).strip()
    if device == "" or device.lower() == "none":
        raise WebcamUnavailable("No overhead webcam is configured on the server (set WEBAPP_WEBCAM_DEVICE).")
    source: int | str = int(device) if device.isdigit() else device
    with _lock:
        capture = cv2.VideoCapture(source)
        try:
            if not capture.isOpened():
                raise WebcamUnavailable(
                    f"No overhead webcam found at '{device}'. Plug it in or set WEBAPP_WEBCAM_DEVICE.")
            frame = None
            for _ in range(WARMUP_FRAMES):
                ok, latest = capture.read()
                if ok and latest is not None:
                    frame = latest
            if frame is None:
                raise WebcamUnavailable(f"The overhead webcam at '{device}' opened but sent no picture.")
        finally:
            capture.release()
    ok, buffer = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise WebcamUnavailable("The webcam picture could not be encoded as JPEG.")
    return buffer.tobytes()
