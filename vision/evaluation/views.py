"""Views of real photos that the dev photos lack, to measure the reader on real cards: steep (re-projected as if the
phone were held low over the table, labelled card boxes moved with the view), blurred (out of focus, moved) and lit
(dim, warm, shadowed, glare; labels unmoved). Used on the real phone singles (a deck the models never trained on) and
the multi-card edje photos.

The view is an approximation, not a camera model: the photo is turned, then its far (top) edge is narrowed and its
height foreshortened, as a flat table looks from a camera at `elevation` degrees above it.
"""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.degrade import motion_blur

# (name, elevation in degrees, quarter turns before tilting, Gaussian blur sigma in pixels): tilts along the photo's
# height and along its width (indices squeezed along both of their axes), down to the 30° the reader must handle
STEEP_VIEWS: tuple[tuple[str, float, int, float], ...] = (
    ("tilted to 45°", 45.0, 0, 0.0),
    ("turned, tilted to 35°", 35.0, 1, 0.0),
    ("upside down, tilted to 30°, blurred", 30.0, 2, 2.0),
)
# Flatter than the 30° the reader is made for (session 45): how fast it falls off, and whether it says so
FLAT_VIEWS: tuple[tuple[str, float, int, float], ...] = (
    ("tilted to 25°", 25.0, 0, 0.0),
    ("turned, tilted to 25°", 25.0, 1, 0.0),
    ("tilted to 20°", 20.0, 0, 0.0),
)
# (name, defocus sigma, motion-line length), both as shares of the photo's long side so that a small webcam photo and
# a large phone photo are blurred alike relative to their cards: a camera out of focus, and one moved while shooting
BLUR_VIEWS: tuple[tuple[str, float, float], ...] = (
    ("out of focus", 0.004, 0.0),
    ("moved", 0.0, 0.015),
)
# Light the dev photos lack (session 15): a dim room, a warm lamp, a hand's shadow, a lamp's glare on glossy cards
LIGHT_VIEWS: tuple[str, ...] = ("dim and noisy", "warm lamp", "hand shadow", "glare spot")
# Coloured lamps (session 46): the light's gains on the photo's blue, green and red, the strongest at 1. A red lamp
# made red diamonds read as spades without any warning (docs/reader-decisions.md@538d56c, "coloured light").
COLOURED_LIGHTS: tuple[tuple[str, tuple[float, float, float]], ...] = (
    ("red lamp", (0.35, 0.5, 1.0)),
    ("amber lamp", (0.3, 0.75, 1.0)),
    ("purple lamp", (1.0, 0.35, 0.7)),
    ("deep blue lamp", (1.0, 0.5, 0.25)),
    ("green lamp", (0.55, 1.0, 0.55)),
)
DIM_GAIN, DIM_NOISE_SIGMA = 3.0, 4.0  # grey levels of noise before the gain
WARM_GAINS = (0.6, 0.85, 1.08)  # B, G, R
SHADOW_DEPTH = 0.6
GLARE_RADIUS, GLARE_PEAK = 0.18, 200.0  # Gaussian sigma as a share of the long side; grey levels added at its centre
JPEG_QUALITY = 90


def _tilt(width: int, height: int, elevation: float) -> tuple[np.ndarray, int]:
    """The perspective that tilts a (turned) picture of this size to `elevation`, and the view's height."""
    if not 10.0 <= elevation <= 90.0:
        raise ValueError(f"elevation must be 10-90 degrees, got {elevation}")
    rise = math.sin(math.radians(elevation))
    out_h = max(1, round(height * rise))
    far = 0.5 + 0.5 * rise  # the far edge's width as a share of the near edge's
    inset = width * (1.0 - far) / 2.0
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    target = np.float32([[inset, 0], [width - inset, 0], [width, out_h], [0, out_h]])
    return cv2.getPerspectiveTransform(source, target), out_h


def _turn(width: int, height: int, quarter_turns: int) -> np.ndarray:
    """np.rot90(image, quarter_turns)'s map of pixel coordinates (x right, y down) as a 3x3 matrix."""
    k = quarter_turns % 4
    return {0: np.eye(3),
            1: np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, width], [0.0, 0.0, 1.0]]),
            2: np.array([[-1.0, 0.0, width], [0.0, -1.0, height], [0.0, 0.0, 1.0]]),
            3: np.array([[0.0, -1.0, height], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])}[k]


def steep_view(image: np.ndarray, elevation: float, quarter_turns: int = 0, blur: float = 0.0) -> np.ndarray:
    """The image turned by `quarter_turns` x 90° counter-clockwise, then seen from `elevation` degrees (and blurred
    with a Gaussian of sigma `blur` pixels, as an unsteady hand would)."""
    turned = np.ascontiguousarray(np.rot90(image, quarter_turns))
    h, w = turned.shape[:2]
    warp, out_h = _tilt(w, h, elevation)
    view = cv2.warpPerspective(turned, warp, (w, out_h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(view, (0, 0), blur) if blur > 0 else view


def blurred(image: np.ndarray, defocus_share: float, motion_share: float, motion_angle: float = 30.0) -> np.ndarray:
    """The image seen top-down but blurred: Gaussian defocus and a motion line (at `motion_angle` degrees), each
    sized as a share of its long side."""
    long_side = max(image.shape[:2])
    if defocus_share > 0:
        image = cv2.GaussianBlur(image, (0, 0), defocus_share * long_side)
    return motion_blur(image, motion_share * long_side, motion_angle)


# Synthetic photos of every kind seen by a moved camera (`--sets photos-moved`): every second photo smeared this share
# of its long side, at an angle that steps by MOVED_ANGLE_STEP degrees from photo to photo (session 35; the set of
# session 34's /work/notes/s34/synth_moved.py, made on the fly)
MOVED_SHARE, MOVED_ANGLE_STEP = 0.015, 37


def moved_photo_bytes(path: Path, order: int) -> bytes:
    """JPEG bytes of the photo at `path` smeared MOVED_SHARE of its long side at (order x MOVED_ANGLE_STEP) mod 180
    degrees; its labels stay where they are (a smear moves no index)."""
    from vision.decode import decode_photo

    angle = (order * MOVED_ANGLE_STEP) % 180
    return _jpeg(blurred(decode_photo(path.read_bytes()).image, 0.0, MOVED_SHARE, angle), path)


def blurred_view_with_boxes(path: Path, labels: list[dict], defocus_share: float, motion_share: float
                            ) -> tuple[bytes, list[dict]]:
    """JPEG bytes of a blurred view of the photo at `path` (EXIF orientation applied first) and its labels, which
    stay where they were."""
    from vision.decode import decode_photo

    return _jpeg(blurred(decode_photo(path.read_bytes()).image, defocus_share, motion_share), path), labels


def blurred_view_bytes(path: Path, defocus_share: float, motion_share: float) -> bytes:
    return blurred_view_with_boxes(path, [], defocus_share, motion_share)[0]


def lit(image: np.ndarray, light: str) -> np.ndarray:
    """The image as if taken in other light (one of LIGHT_VIEWS' names); deterministic, so sets compare run to run."""
    picture = image.astype(np.float32)
    h, w = picture.shape[:2]
    if light == "dim and noisy":  # a third of the light, sensor noise, then the phone's gain of 3 amplifies both
        noise = np.random.default_rng(0).normal(0.0, DIM_NOISE_SIGMA, picture.shape).astype(np.float32)
        picture = (picture / DIM_GAIN + noise) * DIM_GAIN
    elif light == "warm lamp":  # tungsten light: blue weak, red strong (BGR gains)
        picture *= np.float32(WARM_GAINS)
    elif light in ("hand shadow", "glare spot"):
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        long_side = float(max(h, w))
        if light == "hand shadow":  # a soft diagonal edge; beyond it 60 % of the light is gone
            edge = (xx - 0.45 * w) * 0.8 + (yy - 0.5 * h) * 0.6
            picture *= (1.0 - SHADOW_DEPTH / (1.0 + np.exp(-edge / (0.02 * long_side))))[..., None]
        else:  # a lamp's reflection on glossy cards: a bright spot near the middle washes out what lies under it
            radius = GLARE_RADIUS * long_side
            spot = np.exp(-((xx - 0.4 * w) ** 2 + (yy - 0.45 * h) ** 2) / (2.0 * radius * radius))
            picture += GLARE_PEAK * spot[..., None]
    else:
        raise ValueError(f"unknown light {light!r}; choose from {', '.join(LIGHT_VIEWS)}")
    return np.clip(picture, 0, 255).astype(np.uint8)


def lit_view_with_boxes(path: Path, labels: list[dict], light: str) -> tuple[bytes, list[dict]]:
    """JPEG bytes of a lit view of the photo at `path` (EXIF orientation applied first) and its labels, which stay
    where they were."""
    from vision.decode import decode_photo

    return _jpeg(lit(decode_photo(path.read_bytes()).image, light), path), labels


def coloured(image: np.ndarray, light: str) -> np.ndarray:
    """The image as if taken under one of COLOURED_LIGHTS (by name): each channel scaled by the light's gain."""
    gains = dict(COLOURED_LIGHTS).get(light)
    if gains is None:
        raise ValueError(f"unknown coloured light {light!r}; choose from {', '.join(dict(COLOURED_LIGHTS))}")
    return np.clip(image.astype(np.float32) * np.float32(gains), 0, 255).astype(np.uint8)


def coloured_view_with_boxes(path: Path, labels: list[dict], light: str) -> tuple[bytes, list[dict]]:
    """JPEG bytes of the photo at `path` (EXIF orientation applied first) under a coloured light, and its labels,
    which stay where they were."""
    from vision.decode import decode_photo

    return _jpeg(coloured(decode_photo(path.read_bytes()).image, light), path), labels


def coloured_view_bytes(path: Path, light: str) -> bytes:
    return coloured_view_with_boxes(path, [], light)[0]


def _jpeg(image: np.ndarray, path: Path) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError(f"could not encode a view of {path}")
    return data.tobytes()


def steep_view_homography(width: int, height: int, elevation: float, quarter_turns: int = 0) -> np.ndarray:
    """The 3x3 map from pixels of a width x height image to pixels of its steep_view."""
    turned_w, turned_h = (height, width) if quarter_turns % 2 else (width, height)
    return _tilt(turned_w, turned_h, elevation)[0] @ _turn(width, height, quarter_turns)


def moved_box(box: list[float], homography: np.ndarray) -> list[float]:
    """The axis-aligned box around a box's four corners mapped by `homography`."""
    x1, y1, x2, y2 = box
    corners = cv2.perspectiveTransform(np.float32([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]]), homography)[0]
    return [float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()), float(corners[:, 1].max())]


def steep_view_bytes(path: Path, elevation: float, quarter_turns: int, blur: float = 0.0) -> bytes:
    """JPEG bytes of a steep view of the photo at `path` (EXIF orientation applied first, as the reader does)."""
    return steep_view_with_boxes(path, [], elevation, quarter_turns, blur)[0]


def steep_view_with_boxes(path: Path, labels: list[dict], elevation: float, quarter_turns: int, blur: float = 0.0
                          ) -> tuple[bytes, list[dict]]:
    """JPEG bytes of a steep view of the photo at `path` and its labels ({"box": [x1, y1, x2, y2], ...}, in pixels
    of the photo after EXIF orientation) with each box moved to the view (the box around its mapped corners)."""
    from vision.decode import decode_photo

    image = decode_photo(path.read_bytes()).image
    homography = steep_view_homography(image.shape[1], image.shape[0], elevation, quarter_turns)
    return (_jpeg(steep_view(image, elevation, quarter_turns, blur), path),
            [{**label, "box": moved_box(label["box"], homography)} for label in labels])
