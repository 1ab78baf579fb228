"""Render a layout into a photo-like image and work out which corner indices are visible.

The table plane is seen by a pinhole camera tilted 30..90 degrees from the table (90 = top-down) and
rotated by any angle about the vertical. Each card is warped from its face image straight into the
photo with one homography (face -> table -> image); an owner map records which card is on top at
every pixel, so an index is labelled only where >= 60 % of it is uncovered and inside the image.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import paper, textures
from vision.synth.bank import LEVELS, DeckFaces
from vision.synth.layouts import Layout

Rng = np.random.Generator
VISIBLE_FRACTION = 0.6
SUIT_BAND = 0.4  # the suit glyph's share of an upright index's height (rank above, suit below)
PROP_OWNER = -2
TABLE_OWNER = -1


@dataclass
class IndexLabel:
    code: str
    card: int  # position of the card in the layout
    corner: int  # 0 = top-left, 1 = bottom-right (2 = top-right, 3 = bottom-left: decks with four indices)
    box: tuple[float, float, float, float]  # axis-aligned box of the index ink, image pixels, clipped
    visible: float  # fraction of the index uncovered and inside the image
    suit_visible: float = 1.0  # the same for the suit's band (the index's lower SUIT_BAND, read upright)


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    labels: list[IndexLabel]  # every index of every card, visible or not
    card_polygons: list[np.ndarray]  # card outlines in image pixels
    owner: np.ndarray  # int16: card number on top at each pixel, -1 table, -2 prop

    def visible_labels(self) -> list[IndexLabel]:
        return [lab for lab in self.labels if lab.visible >= VISIBLE_FRACTION]


def camera_homography(yaw: float, elevation: float, distance: float, focal: float, centre: tuple[float, float]) -> np.ndarray:
    """Table plane (X, Y) -> image pixels for a camera looking at the table origin."""
    e = np.radians(elevation)
    cam = np.array([0.0, -distance * np.cos(e), distance * np.sin(e)])
    x_axis = np.array([1.0, 0.0, 0.0])
    z_axis = -cam / np.linalg.norm(cam)
    y_axis = np.cross(z_axis, x_axis)
    rot = np.stack([x_axis, y_axis, z_axis])
    extrinsic = np.column_stack([rot[:, 0], rot[:, 1], -rot @ cam])
    k = np.array([[focal, 0, centre[0]], [0, focal, centre[1]], [0, 0, 1.0]])
    a = np.radians(yaw)
    spin = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    # Table coordinates run like image coordinates (y down); the world is right-handed (Y away
    # from the camera), so flip y, or every card would come out mirrored.
    flip = np.diag([1.0, -1.0, 1.0])
    return k @ extrinsic @ spin @ flip


def local_scale(h: np.ndarray, x: float = 0.0, y: float = 0.0) -> float:
    """Pixels per table unit around a table point (square root of the Jacobian determinant)."""
    pts = np.array([[[x, y], [x + 1e-3, y], [x, y + 1e-3]]], np.float64)
    p = cv2.perspectiveTransform(pts, h)[0]
    j = np.column_stack([p[1] - p[0], p[2] - p[0]]) / 1e-3
    return float(np.sqrt(abs(np.linalg.det(j))))


def make_camera(rng: Rng, layout_size: float, card_px: float, image_size: tuple[int, int],
                elevation_range: tuple[float, float] = (30, 90), yaw: float | None = None,
                centre: tuple[float, float] | None = None, elevation: float | None = None) -> np.ndarray:
    """A camera homography with about card_px pixels per table unit at the table origin; `elevation` (degrees)
    fixes the tilt instead of drawing it."""
    yaw = rng.uniform(0, 360) if yaw is None else yaw
    if elevation is None:
        # Favour near top-down views; steep views are rarer in practice.
        elevation = float(np.clip(90 - abs(rng.normal(0, 25)), *elevation_range))
    distance = layout_size * rng.uniform(1.5, 5.0)
    w, h = image_size
    centre = (w / 2, h / 2) if centre is None else centre
    h1 = camera_homography(yaw, elevation, distance, 1.0, centre)
    # Scale about the image centre so the origin keeps mapping to `centre`.
    s = card_px / local_scale(h1)
    shift = np.array([[s, 0, centre[0] * (1 - s)], [0, s, centre[1] * (1 - s)], [0, 0, 1.0]])
    return shift @ h1


def card_affine(face_w: int, face_h: int, x: float, y: float, angle: float) -> np.ndarray:
    """Face pixels (level 0) -> table units: scale to 1.0 tall, rotate about the centre, move to (x, y)."""
    s = 1.0 / face_h
    a = np.radians(-angle)
    c, sn = np.cos(a) * s, np.sin(a) * s
    cx, cy = face_w / 2, face_h / 2
    return np.array([[c, -sn, x - c * cx + sn * cy], [sn, c, y - sn * cx - c * cy], [0, 0, 1.0]])


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(1, -1, 2).astype(np.float64), h)[0]


def _roi(poly: np.ndarray, shape: tuple[int, int], margin: int = 0) -> tuple[int, int, int, int] | None:
    x0 = max(0, int(np.floor(poly[:, 0].min())) - margin)
    y0 = max(0, int(np.floor(poly[:, 1].min())) - margin)
    x1 = min(shape[1], int(np.ceil(poly[:, 0].max())) + margin + 1)
    y1 = min(shape[0], int(np.ceil(poly[:, 1].max())) + margin + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def render_layout(rng: Rng, layout: Layout, deck: DeckFaces, cam: np.ndarray, image_size: tuple[int, int],
                  background: np.ndarray | None = None, text_sheets: float = 0.0, text_fonts: tuple = ()) -> Scene:
    """text_sheets: chance of a paper sheet with text (in text_fonts) on the table near the cards;
    with 0 no random number is drawn for it, so older seeds give the same pictures."""
    w, h = image_size
    img = textures.table(rng, h, w) if background is None else background.astype(np.float32)
    owner = np.full((h, w), TABLE_OWNER, np.int16)
    if rng.random() < 0.35:
        drawn = textures.draw_clutter(rng, img, int(rng.integers(1, 4)))
        owner[drawn > 0] = PROP_OWNER
    if text_sheets > 0 and text_fonts and rng.random() < text_sheets:
        for _ in range(1 if rng.random() < 0.7 else 2):
            _text_sheet(rng, img, owner, layout, cam, text_fonts)
    light_dir = rng.normal(0, 1, 2)
    light_dir /= np.linalg.norm(light_dir) + 1e-9
    shadow_len = rng.uniform(0.005, 0.03)
    shadow_strength = rng.uniform(0.2, 0.6)
    polygons: list[np.ndarray] = []
    homographies: list[np.ndarray] = []
    for number, placed in enumerate(layout.cards):
        face = deck.faces[placed.code]
        fw, fh = face.size
        h_face = cam @ card_affine(fw, fh, placed.x, placed.y, placed.angle)
        corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float64)
        poly = _project(h_face, corners)
        polygons.append(poly)
        homographies.append(h_face)
        card_px = np.sqrt(abs(cv2.contourArea(poly.astype(np.float32)))) + 1
        margin = int(card_px * (shadow_len + 0.05)) + 2
        roi = _roi(poly, (h, w), margin)
        if roi is None:
            continue
        x0, y0, x1, y1 = roi
        scale = card_px / np.sqrt(fw * fh)
        level = int(np.clip(np.floor(np.log2(1 / max(scale, 1e-6))), 0, LEVELS - 1))
        src = face.pyramid[level]
        lv = 2.0 ** level
        to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ h_face @ np.diag([lv, lv, 1.0])
        warped = cv2.warpPerspective(src, to_roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        alpha = warped[:, :, 3].astype(np.float32) / 255.0
        patch = img[y0:y1, x0:x1]
        # Soft drop shadow: the card's alpha blurred and shifted away from the light.
        sigma = max(0.8, card_px * shadow_len)
        off = light_dir * card_px * shadow_len
        shadow = cv2.warpAffine(alpha, np.array([[1, 0, off[0]], [0, 1, off[1]]], np.float32), (x1 - x0, y1 - y0))
        shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
        patch *= (1 - shadow_strength * shadow)[:, :, None]
        # Thin darker card edge (card thickness / outline) under the face.
        edge = cv2.GaussianBlur(alpha, (0, 0), max(0.5, card_px * 0.003))
        patch *= (1 - 0.35 * np.clip(edge - alpha, 0, 1) * 2)[:, :, None]
        tint = rng.uniform(0.9, 1.04)
        patch[:] = patch * (1 - alpha[:, :, None]) + warped[:, :, :3].astype(np.float32) * tint * alpha[:, :, None]
        owner[y0:y1, x0:x1][alpha > 0.5] = number
    for prop in layout.props:
        poly = _project(cam, prop.polygon)
        roi = _roi(poly, (h, w), 2)
        if roi is None:
            continue
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round(poly * 4).astype(np.int32)], 255, lineType=cv2.LINE_AA, shift=2)
        x0, y0, x1, y1 = roi
        m = mask[y0:y1, x0:x1].astype(np.float32) / 255.0
        yy = np.linspace(1 - prop.shade, 1 + prop.shade * 0.3, y1 - y0, dtype=np.float32)[:, None]
        colour = np.array(prop.colour, np.float32)[None, None, :] * yy[:, :, None]
        colour = colour * (0.92 + 0.16 * textures.smooth_noise(rng, y1 - y0, x1 - x0, 20))[:, :, None]
        patch = img[y0:y1, x0:x1]
        patch[:] = patch * (1 - m[:, :, None]) + colour * m[:, :, None]
        owner[y0:y1, x0:x1][m > 0.5] = PROP_OWNER
    labels = _index_labels(layout, deck, homographies, owner)
    return Scene(np.clip(img, 0, 255).astype(np.uint8), labels, polygons, owner)


MAX_SHEET_PX = 1400
MAX_SHEET_GLYPHS = 2500  # bounds the drawing time: small text on a big sheet is drawn a little larger


def _text_sheet(rng: Rng, img: np.ndarray, owner: np.ndarray, layout: Layout, cam: np.ndarray, fonts: tuple) -> None:
    """A sheet of paper with text (book page, notes, score sheet, receipt...) lying on the table beside
    the cards, under any that overlap it. Background only: never labelled."""
    h, w = owner.shape
    if layout.cards and rng.random() < 0.8:
        card = layout.cards[rng.integers(len(layout.cards))]
        a, d = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 2.0)
        cx, cy = card.x + d * np.cos(a), card.y + d * np.sin(a)
    else:
        cx, cy = rng.uniform(-2, 2, 2)
    kind = None
    if rng.random() < 0.15:
        kind, size = "receipt", (rng.uniform(0.5, 0.8), rng.uniform(1.5, 3.0))
    else:
        size = (rng.uniform(0.8, 3.0), rng.uniform(0.8, 3.0))
    res = local_scale(cam, cx, cy) * rng.uniform(1.0, 1.4)  # sheet pixels per table unit
    res = min(res, MAX_SHEET_PX / max(size))
    sw, sh = int(size[0] * res), int(size[1] * res)
    cap = float(np.exp(rng.uniform(np.log(0.03), np.log(0.15)))) * res
    cap = max(cap, np.sqrt(sw * sh / (0.9 * MAX_SHEET_GLYPHS)))
    if min(sw, sh) < 16 or cap < 3:
        return
    angle = np.radians(rng.uniform(0, 360))
    c, s = np.cos(angle) / res, np.sin(angle) / res
    to_table = np.array([[c, -s, cx - c * sw / 2 + s * sh / 2], [s, c, cy - s * sw / 2 - c * sh / 2], [0, 0, 1.0]])
    h_sheet = cam @ to_table
    poly = _project(h_sheet, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64))
    roi = _roi(poly, (h, w), 4)
    if roi is None:
        return
    sheet = paper.document(rng, fonts, sh, sw, cap, kind)
    x0, y0, x1, y1 = roi
    to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ h_sheet
    warped = cv2.warpPerspective(sheet.image, to_roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpPerspective(np.ones((sh, sw), np.float32), to_roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    patch = img[y0:y1, x0:x1]
    patch *= (1 - 0.25 * cv2.GaussianBlur(alpha, (0, 0), 1.5))[:, :, None]  # the sheet's faint shadow
    patch[:] = patch * (1 - alpha[:, :, None]) + warped.astype(np.float32) * alpha[:, :, None]
    owner[y0:y1, x0:x1][alpha > 0.5] = PROP_OWNER


def _index_labels(layout: Layout, deck: DeckFaces, homographies: list[np.ndarray], owner: np.ndarray) -> list[IndexLabel]:
    labels = []
    for number, (placed, h_face) in enumerate(zip(layout.cards, homographies)):
        face = deck.faces[placed.code]
        for corner, hull in enumerate(face.hulls):
            poly = _project(h_face, hull)
            area = abs(cv2.contourArea(poly.astype(np.float32)))
            if area < 1:
                continue
            visible = _visible_fraction(poly, area, owner, number)
            suit = _project(h_face, _suit_band(hull, corner))
            suit_visible = _visible_fraction(suit, abs(cv2.contourArea(suit.astype(np.float32))), owner, number)
            box = (float(poly[:, 0].min()), float(poly[:, 1].min()), float(poly[:, 0].max()), float(poly[:, 1].max()))
            labels.append(IndexLabel(placed.code, number, corner, box, visible, suit_visible))
    return labels


def _visible_fraction(poly: np.ndarray, area: float, owner: np.ndarray, number: int) -> float:
    """Share of the polygon (image pixels) where card `number` is on top, of its whole area (parts outside count
    as covered)."""
    roi = _roi(poly, owner.shape[:2])
    if roi is None or area < 1:
        return 0.0
    x0, y0, x1, y1 = roi
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((poly - [x0, y0]) * 4).astype(np.int32)], 1, shift=2)
    mine = (owner[y0:y1, x0:x1][mask > 0] == number).sum()
    return float(mine) / max(area, float(mask.sum()), 1.0)


def _suit_band(hull: np.ndarray, corner: int) -> np.ndarray:
    """The suit's band of an index, face coordinates: the lower SUIT_BAND of its box for the top-left (and top-right)
    index, the upper for the bottom-right (and bottom-left) one (the same index turned 180°)."""
    x0, y0 = hull.min(axis=0)
    x1, y1 = hull.max(axis=0)
    top, bottom = (y1 - SUIT_BAND * (y1 - y0), y1) if corner % 2 == 0 else (y0, y0 + SUIT_BAND * (y1 - y0))
    return np.array([[x0, top], [x1, top], [x1, bottom], [x0, bottom]], np.float32)


def contrast_kept(clean: np.ndarray, final: np.ndarray, label: IndexLabel, owner: np.ndarray) -> float:
    """How much of an index's ink contrast the photo effects left: the Michelson contrast of grey (95th and 5th
    percentile over the index box's pixels of its own card), after / before the effects. Glare adds light and takes
    it away; dim light scales ink and paper alike and keeps it (1.0 when there was none to lose)."""
    h, w = owner.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in clip_box(label.box, w, h))
    mine = owner[y0:y1, x0:x1] == label.card
    if mine.sum() < 4:
        return 0.0
    spreads = []
    for image in (clean, final):
        grey = cv2.cvtColor(np.clip(image[y0:y1, x0:x1], 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)[mine]
        low, high = np.percentile(grey, [5, 95])
        spreads.append(float(high - low) / float(high + low + 1.0))
    return 1.0 if spreads[0] < 0.01 else min(1.0, spreads[1] / spreads[0])


def clip_box(box: tuple[float, float, float, float], w: int, h: int) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (max(0.0, x1), max(0.0, y1), min(float(w), x2), min(float(h), y2))


# ----------------------------------------------------------------------------------------------
# Photographic degradations, applied to the whole rendered image.

def photo_effects(rng: Rng, image: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Uneven light, cast shadows, colour cast, glare, gamma, blur, noise and vignetting.

    The smooth fields (light, shadows, glare, vignette) are built at 1/8 resolution and scaled up:
    they have no fine detail, and this keeps the whole step cheap on large pictures.
    """
    h, w = image.shape[:2]
    sh, sw = max(8, h // 8), max(8, w // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    yy *= h / sh
    xx *= w / sw
    gain = 1 + strength * rng.uniform(0.1, 0.6) * (textures.smooth_noise(rng, sh, sw, max(sh, sw) / rng.uniform(1, 3)) - 0.5)
    d = rng.normal(0, 1, 2)
    ramp = (xx * d[0] + yy * d[1]) / (np.hypot(*d) * max(h, w) + 1e-6)
    gain *= 1 + strength * rng.uniform(0, 0.35) * ramp
    # Cast shadows of things outside the picture (a phone, an arm).
    if rng.random() < 0.4 * strength:
        pts = np.stack([rng.uniform(-0.2, 1.2, 4) * sw, rng.uniform(-0.2, 1.2, 4) * sh], axis=1).astype(np.int32)
        mask = np.zeros((sh, sw), np.float32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.4, 0.006 * max(h, w) + 0.5))
        gain *= 1 - rng.uniform(0.2, 0.55) * mask
    # Vignetting (webcams, phone lenses).
    if rng.random() < 0.5:
        r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
        gain *= 1 - rng.uniform(0.1, 0.45) * strength * np.clip(r2 / 2, 0, 1)
    # Glare: bright soft blobs (glossy card surface under a lamp).
    glare = np.zeros((sh, sw), np.float32)
    if rng.random() < 0.35 * strength:
        for _ in range(int(rng.integers(1, 3))):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            sx, sy = rng.uniform(0.03, 0.25) * w, rng.uniform(0.03, 0.25) * h
            glare += rng.uniform(40, 160) * np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2))
    # Colour cast / white balance and exposure.
    channel = (rng.uniform(0.8, 1.2, 3) ** strength * rng.uniform(0.7, 1.25) ** strength).astype(np.float32)
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    img = image.astype(np.float32)
    img *= gain[:, :, None]
    img *= channel[None, None, :]
    if glare.any():
        img += cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]
    np.clip(img, 0, 255, out=img)
    out = img.astype(np.uint8)
    # Contrast / gamma through a lookup table.
    gamma = rng.uniform(0.75, 1.3)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    out = cv2.LUT(out, lut)
    # Blur: defocus, motion, or a low-resolution camera (down and up again); sometimes sharpening.
    r = rng.random()
    if r < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.6) * strength + 0.01)
    elif r < 0.42:
        k = int(rng.integers(3, 8))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    elif r < 0.52:
        f = rng.uniform(0.4, 0.8)
        small = cv2.resize(out, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.2:  # phone-style sharpening halo
        blur = cv2.GaussianBlur(out, (0, 0), rng.uniform(1, 2.5))
        out = cv2.addWeighted(out, 1 + rng.uniform(0.3, 1.0), blur, -rng.uniform(0.3, 1.0), 0)
    # Sensor noise (sometimes coloured, sometimes luminance only).
    sigma = rng.uniform(0, 9) * strength
    if sigma > 0.5:
        channels = 1 if rng.random() < 0.5 else 3
        noise = rng.standard_normal((h, w, channels), dtype=np.float32) * sigma
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    return out


def jpeg_roundtrip(rng: Rng, image: np.ndarray, quality_range: tuple[int, int] = (35, 95)) -> np.ndarray:
    quality = int(rng.integers(*quality_range))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image
