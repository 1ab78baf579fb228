"""Procedural table surfaces and clutter: wood, felt, cloth, patterned fabric, noise, keyboards."""
from __future__ import annotations

import cv2
import numpy as np

Rng = np.random.Generator


def smooth_noise(rng: Rng, h: int, w: int, cell: float) -> np.ndarray:
    """Value noise in 0..1 with features about `cell` pixels large."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def fractal_noise(rng: Rng, h: int, w: int, cell: float, octaves: int = 4) -> np.ndarray:
    total = np.zeros((h, w), np.float32)
    amp, norm = 1.0, 0.0
    for _ in range(octaves):
        total += amp * smooth_noise(rng, h, w, max(cell, 2.0))
        norm += amp
        amp *= 0.5
        cell /= 2
    return total / norm


def _colourise(gray: np.ndarray, dark: np.ndarray, light: np.ndarray) -> np.ndarray:
    g = gray[:, :, None]
    return (dark[None, None, :] * (1 - g) + light[None, None, :] * g).astype(np.float32)


def _random_colour(rng: Rng, lo: int = 0, hi: int = 255) -> np.ndarray:
    return rng.integers(lo, hi, 3).astype(np.float32)


def wood(rng: Rng, h: int, w: int) -> np.ndarray:
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    warp = fractal_noise(rng, h, w, rng.uniform(80, 300)) * rng.uniform(20, 80)
    period = rng.uniform(6, 30)
    rings = 0.5 + 0.5 * np.sin((v + warp) * 2 * np.pi / period + 0.002 * u)
    grain = fractal_noise(rng, h, w, 6, 2)
    gray = (0.55 * rings + 0.3 * grain + 0.15 * smooth_noise(rng, h, w, 200)).astype(np.float32)
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)], np.float32)  # BGR browns
    dark = base * rng.uniform(0.4, 0.7)
    img = _colourise(gray, dark, np.minimum(base * rng.uniform(1.1, 1.5), 255))
    if rng.random() < 0.4:  # planks
        plank = rng.uniform(80, 250)
        seams = (np.abs(((v + 0.0) % plank)) < rng.uniform(1, 3))
        img[seams] *= 0.5
    return img


def felt(rng: Rng, h: int, w: int) -> np.ndarray:
    palette = [(40, 110, 30), (90, 60, 20), (40, 40, 140), (60, 60, 60), (100, 90, 30), (30, 80, 90)]
    base = np.array(palette[rng.integers(len(palette))], np.float32)[::-1].copy() * rng.uniform(0.7, 1.3)
    fine = rng.random((h, w), dtype=np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.8)
    gray = 0.7 + 0.3 * fine + 0.15 * (smooth_noise(rng, h, w, 150) - 0.5)
    return np.clip(base[None, None, :] * gray[:, :, None], 0, 255)


def cloth(rng: Rng, h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.5, 6)
    weave = 0.5 + 0.25 * np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period)
    gray = weave + 0.2 * (fractal_noise(rng, h, w, 40, 3) - 0.5)
    colour = _random_colour(rng, 30, 240)
    return np.clip(colour[None, None, :] * (0.6 + 0.6 * gray[:, :, None]), 0, 255)


def fabric(rng: Rng, h: int, w: int) -> np.ndarray:
    """Checks, stripes, dots or a paisley-ish blob pattern in two to three colours."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    period = rng.uniform(10, 70)
    kind = rng.integers(4)
    if kind == 0:
        pattern = ((u // period + v // period) % 2).astype(np.float32)
    elif kind == 1:
        pattern = ((u // period) % 2).astype(np.float32)
    elif kind == 2:
        pattern = ((((u % period) - period / 2) ** 2 + ((v % period) - period / 2) ** 2) < (period / 4) ** 2).astype(np.float32)
    else:
        pattern = (fractal_noise(rng, h, w, period * 2, 3) > 0.5).astype(np.float32)
    a, b = _random_colour(rng), _random_colour(rng)
    img = _colourise(pattern, a, b)
    img *= (0.85 + 0.3 * fractal_noise(rng, h, w, 4, 1))[:, :, None]
    return np.clip(img, 0, 255)


def plain(rng: Rng, h: int, w: int) -> np.ndarray:
    colour = _random_colour(rng, 10, 250)
    gray = 0.8 + 0.4 * fractal_noise(rng, h, w, rng.uniform(20, 300), 4)
    return np.clip(colour[None, None, :] * gray[:, :, None], 0, 255)


def marble(rng: Rng, h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    turb = fractal_noise(rng, h, w, 120, 5)
    veins = np.abs(np.sin((xx * 0.01 + yy * 0.006 + turb * 6.0)))
    gray = 0.6 + 0.4 * veins ** 0.3
    colour = _random_colour(rng, 150, 255)
    return np.clip(colour[None, None, :] * gray[:, :, None], 0, 255)


def light(rng: Rng, h: int, w: int) -> np.ndarray:
    """White or pale surfaces (paper, white tablecloth, light desk): little contrast with the cards."""
    colour = np.array([rng.uniform(170, 250)] * 3, np.float32) + rng.normal(0, 8, 3).astype(np.float32)
    gray = 0.92 + 0.1 * fractal_noise(rng, h, w, rng.uniform(30, 300), 3)
    return np.clip(colour[None, None, :] * gray[:, :, None], 0, 255)


def carpet(rng: Rng, h: int, w: int) -> np.ndarray:
    """Speckled loop-pile carpet or coarse upholstery in two colours."""
    a, b = _random_colour(rng, 40, 200), _random_colour(rng, 40, 200)
    speck = cv2.GaussianBlur(rng.random((h, w), dtype=np.float32), (0, 0), rng.uniform(0.7, 1.8))
    speck = np.clip((speck - speck.mean()) * rng.uniform(4, 9) + 0.5, 0, 1)
    return _colourise(speck, a, b) * (0.85 + 0.3 * smooth_noise(rng, h, w, 200))[:, :, None]


TEXTURES = [wood, wood, felt, felt, cloth, fabric, plain, marble, light, carpet]


def table(rng: Rng, h: int, w: int) -> np.ndarray:
    """A random table surface, float32 BGR 0..255."""
    return TEXTURES[rng.integers(len(TEXTURES))](rng, h, w).astype(np.float32)


def draw_clutter(rng: Rng, img: np.ndarray, count: int) -> np.ndarray:
    """Objects on the table: keyboards with letter keys, phones, coins, paper, pens. Mask of drawn pixels."""
    target = img
    img = np.clip(target, 0, 255).astype(np.uint8)  # OpenCV text drawing needs 8-bit images
    h, w = img.shape[:2]
    drawn = np.zeros((h, w), np.uint8)
    for _ in range(count):
        kind = rng.integers(5)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        size = rng.uniform(0.1, 0.5) * min(h, w)
        angle = rng.uniform(0, 180)
        layer = np.zeros((h, w), np.uint8)
        colour = tuple(float(c) for c in _random_colour(rng))
        if kind == 0:  # keyboard: dark slab with light keys carrying letters
            box = cv2.boxPoints(((cx, cy), (size * 1.6, size * 0.6), angle)).astype(np.int32)
            cv2.fillPoly(img, [box], (30, 30, 30) if rng.random() < 0.7 else (200, 200, 200))
            cv2.fillPoly(layer, [box], 255)
            rot = cv2.getRotationMatrix2D((cx, cy), -angle, 1.0)
            key = size * 0.11
            for r in range(4):
                for c in range(12):
                    kx = cx - size * 0.75 + c * key * 1.15 + key / 2
                    ky = cy - size * 0.25 + r * key * 1.15 + key / 2
                    px, py = rot @ np.array([kx, ky, 1.0])
                    k = cv2.boxPoints(((px, py), (key, key), angle)).astype(np.int32)
                    shade = rng.uniform(50, 90) if img[int(np.clip(py, 0, h - 1)), int(np.clip(px, 0, w - 1))].mean() < 100 else rng.uniform(220, 250)
                    cv2.fillPoly(img, [k], (shade, shade, shade))
                    if key > 8:
                        ch = chr(rng.integers(65, 91))
                        cv2.putText(img, ch, (int(px - key * 0.3), int(py + key * 0.3)), cv2.FONT_HERSHEY_SIMPLEX,
                                    key / 40.0, (255 - shade,) * 3, max(1, int(key / 20)), cv2.LINE_AA)
        elif kind == 1:  # phone / box
            box = cv2.boxPoints(((cx, cy), (size * 0.5, size), angle)).astype(np.int32)
            cv2.fillPoly(img, [box], colour)
            cv2.fillPoly(layer, [box], 255)
        elif kind == 2:  # coins / chips
            for _ in range(rng.integers(1, 6)):
                r = int(size * rng.uniform(0.05, 0.15))
                p = (int(cx + rng.normal(0, size * 0.3)), int(cy + rng.normal(0, size * 0.3)))
                cv2.circle(img, p, r, colour, -1, cv2.LINE_AA)
                cv2.circle(img, p, max(1, int(r * 0.7)), tuple(c * 0.8 for c in colour), 2, cv2.LINE_AA)
                cv2.circle(layer, p, r, 255, -1)
        elif kind == 3:  # paper with scribbles / printed text
            box = cv2.boxPoints(((cx, cy), (size * 0.7, size), angle)).astype(np.int32)
            cv2.fillPoly(img, [box], (235, 240, 240))
            cv2.fillPoly(layer, [box], 255)
            for i in range(int(rng.integers(3, 10))):
                text = "".join(chr(c) for c in rng.integers(48, 91, rng.integers(3, 10)))
                cv2.putText(img, text, (int(cx - size * 0.3), int(cy - size * 0.4 + i * size * 0.09)),
                            cv2.FONT_HERSHEY_SIMPLEX, size / 400, (40, 40, 40), 1, cv2.LINE_AA)
        else:  # pen / cable
            p1 = (int(cx), int(cy))
            p2 = (int(cx + size * np.cos(angle)), int(cy + size * np.sin(angle)))
            cv2.line(img, p1, p2, colour, max(2, int(size * 0.04)), cv2.LINE_AA)
            cv2.line(layer, p1, p2, 255, max(2, int(size * 0.04)))
        drawn |= layer
    target[:] = img
    return drawn
