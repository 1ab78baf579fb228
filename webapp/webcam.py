"""The overhead webcam attached to the server: one JPEG shot through OpenCV's VideoCapture."""
from __future__ import annotations

import threading

import cv2

WARMUP_FRAMES = 5  # webcams need a few frames before exposure and focus settle
_lock = threading.Lock()  # one shot at a time: a camera cannot be opened twice


class WebcamUnavailable(RuntimeError):
    """No camera configured, or it cannot be opened or read; `str(err)` is one line for a person."""


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
