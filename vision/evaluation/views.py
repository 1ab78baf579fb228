"""Steep views of real photos: the real phone singles (a deck the models never trained on) re-projected as if the
phone were held low over the table, to measure the reader on real cards at angles the dev photos lack.

The view is an approximation, not a camera model: the photo is turned, then its far (top) edge is narrowed and its
height foreshortened, as a flat table looks from a camera at `elevation` degrees above it.
"""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

# (name, elevation in degrees, quarter turns before tilting, Gaussian blur sigma in pixels): tilts along the photo's
# height and along its width (indices squeezed along both of their axes), down to the 30° the reader must handle
STEEP_VIEWS: tuple[tuple[str, float, int, float], ...] = (
    ("tilted to 45°", 45.0, 0, 0.0),
    ("turned, tilted to 35°", 35.0, 1, 0.0),
    ("upside down, tilted to 30°, blurred", 30.0, 2, 2.0),
)
JPEG_QUALITY = 90


def steep_view(image: np.ndarray, elevation: float, quarter_turns: int = 0, blur: float = 0.0) -> np.ndarray:
    """The image turned by `quarter_turns` x 90° counter-clockwise, then seen from `elevation` degrees (and blurred
    with a Gaussian of sigma `blur` pixels, as an unsteady hand would)."""
    if not 10.0 <= elevation <= 90.0:
        raise ValueError(f"elevation must be 10-90 degrees, got {elevation}")
    turned = np.ascontiguousarray(np.rot90(image, quarter_turns))
    h, w = turned.shape[:2]
    rise = math.sin(math.radians(elevation))
    out_h = max(1, round(h * rise))
    far = 0.5 + 0.5 * rise  # the far edge's width as a share of the near edge's
    inset = w * (1.0 - far) / 2.0
    source = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    target = np.float32([[inset, 0], [w - inset, 0], [w, out_h], [0, out_h]])
    warp = cv2.getPerspectiveTransform(source, target)
    view = cv2.warpPerspective(turned, warp, (w, out_h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(view, (0, 0), blur) if blur > 0 else view


def steep_view_bytes(path: Path, elevation: float, quarter_turns: int, blur: float = 0.0) -> bytes:
    """JPEG bytes of a steep view of the photo at `path` (EXIF orientation applied first, as the reader does)."""
    from vision.decode import decode_photo

    image = decode_photo(path.read_bytes()).image
    ok, data = cv2.imencode(".jpg", steep_view(image, elevation, quarter_turns, blur), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError(f"could not encode a view of {path}")
    return data.tobytes()
