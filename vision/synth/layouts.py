"""Card arrangements on the table, in table units where a card is 1.0 tall.

A layout is a list of placed cards (drawn in list order, later on top) plus optional props (a
hand holding a fan) and, for 3/5/5 layouts, the rows. Rows are given in canonical orientation:
front row (3 cards) at the top, then middle, then back; codes left to right.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.crops import CARD_CODES

Rng = np.random.Generator


@dataclass
class Placed:
    code: str
    x: float  # card centre, table units
    y: float
    angle: float  # degrees, counter-clockwise as seen on the image (y down)


@dataclass
class Prop:
    polygon: np.ndarray  # (N, 2) table units
    colour: tuple[float, float, float]
    shade: float = 0.0  # strength of a soft shading gradient across the prop


@dataclass
class Layout:
    cards: list[Placed]
    aspect: float
    props: list[Prop] = field(default_factory=list)
    rows: dict[str, list[str]] | None = None


def deal(rng: Rng, n: int) -> list[str]:
    return [CARD_CODES[i] for i in rng.permutation(52)[:n]]


def rows_335(rng: Rng, aspect: float, codes: list[str] | None = None, overlapped: bool | None = None) -> Layout:
    """13 cards in rows of 3/5/5, spread apart or overlapped so only the left indices of covered cards show."""
    codes = deal(rng, 13) if codes is None else codes
    groups = {"front": codes[:3], "middle": codes[3:8], "back": codes[8:13]}
    overlapped = bool(rng.random() < 0.5) if overlapped is None else overlapped
    if overlapped:
        step = aspect * rng.uniform(0.28, 0.65)
    else:
        step = aspect * (1 + rng.uniform(0.03, 0.5))
    row_gap = 1 + rng.uniform(0.05, 0.6)
    if overlapped and rng.random() < 0.25:
        # Rows overlapping vertically too: only the top strip of upper rows stays visible.
        row_gap = rng.uniform(0.4, 0.75)
    align = rng.choice(["left", "centre"])
    jitter = rng.uniform(0, 1)
    cards = []
    for r, (name, row) in enumerate(groups.items()):
        width = step * (len(row) - 1)
        x0 = -width / 2 if align == "centre" else -step * 2
        for i, code in enumerate(row):
            cards.append(Placed(
                code,
                x0 + i * step + rng.normal(0, 0.02 * jitter),
                r * row_gap + rng.normal(0, 0.02 * jitter),
                float(rng.normal(0, 3 * jitter)),
            ))
    return Layout(cards, aspect, rows={k: list(v) for k, v in groups.items()})


def _skin(rng: Rng) -> tuple[float, float, float]:
    tones = [(95, 130, 190), (120, 160, 220), (70, 100, 150), (50, 70, 110), (140, 180, 235), (100, 140, 205)]
    base = np.array(tones[rng.integers(len(tones))], np.float32) * rng.uniform(0.85, 1.15)
    return tuple(float(c) for c in np.clip(base, 0, 255))


def _ellipse(cx: float, cy: float, rx: float, ry: float, angle: float, n: int = 32) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    pts = np.stack([rx * np.cos(t), ry * np.sin(t)], axis=1)
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return pts @ rot.T + np.array([cx, cy])


def _capsule(p1: np.ndarray, p2: np.ndarray, radius: float, n: int = 12) -> np.ndarray:
    d = p2 - p1
    ang = np.arctan2(d[1], d[0])
    arc1 = [p2 + radius * np.array([np.cos(ang + t), np.sin(ang + t)]) for t in np.linspace(-np.pi / 2, np.pi / 2, n)]
    arc2 = [p1 + radius * np.array([np.cos(ang + t), np.sin(ang + t)]) for t in np.linspace(np.pi / 2, 3 * np.pi / 2, n)]
    return np.array(arc1 + arc2)


def hand_fan(rng: Rng, aspect: float) -> Layout:
    """A fan of cards held in a hand: cards rotate about a pivot near their bottom ends."""
    n = int(rng.integers(3, 14))
    codes = deal(rng, n)
    step = rng.uniform(5, 13)
    radius = rng.uniform(0.55, 0.85)
    start = -step * (n - 1) / 2
    cards = []
    for i, code in enumerate(codes):
        theta = start + i * step
        t = np.radians(theta)
        cards.append(Placed(code, radius * np.sin(t), -radius * np.cos(t) + 0.5, -theta))
    skin = _skin(rng)
    props = [Prop(_ellipse(0.05, 0.65, 0.42, 0.3, rng.uniform(-20, 20)), skin, 0.3)]
    # Thumb across the front of the fan's base.
    base = np.array([rng.uniform(-0.25, -0.1), 0.62])
    tip = base + np.array([rng.uniform(0.15, 0.35), rng.uniform(-0.35, -0.15)])
    props.append(Prop(_capsule(base, tip, rng.uniform(0.07, 0.1)), skin, 0.4))
    if rng.random() < 0.5:  # wrist / forearm
        props.append(Prop(_capsule(np.array([0.05, 0.7]), np.array([rng.uniform(-0.4, 0.4), 1.8]), 0.22), skin, 0.3))
    return Layout(cards, aspect, props=props)


def scattered(rng: Rng, aspect: float) -> Layout:
    n = int(rng.integers(2, 16))
    spread = rng.uniform(1.0, 3.5)
    cards = [Placed(code, rng.uniform(-spread, spread), rng.uniform(-spread, spread) * 0.8, rng.uniform(-180, 180))
             for code in deal(rng, n)]
    return Layout(cards, aspect)


def single(rng: Rng, aspect: float) -> Layout:
    n = int(rng.integers(1, 4))
    cards = [Placed(code, rng.uniform(-0.8, 0.8) * i, rng.uniform(-0.5, 0.5) * i, rng.uniform(-180, 180))
             for i, code in enumerate(deal(rng, n))]
    return Layout(cards, aspect)


def empty(rng: Rng, aspect: float) -> Layout:
    return Layout([], aspect)


KINDS = {"rows": rows_335, "hand": hand_fan, "scattered": scattered, "single": single, "empty": empty}
