"""Random draws shared by the parts."""
from __future__ import annotations

import math

import numpy as np

Box = tuple[float, float, float, float]


def choose(rng: np.random.Generator, table: list[tuple[str, float]]) -> str:
    """A name from (name, weight) pairs."""
    names, weights = zip(*table)
    return str(rng.choice(names, p=np.array(weights) / sum(weights)))


def log_uniform(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def jitter(rng: np.random.Generator, box: Box, shift: float = 0.1, size: tuple[float, float] = (0.85, 1.15)) -> Box:
    """Mimic detector error: shift by up to 10 % and resize by up to 15 % (by default)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-shift, shift) * w
    cy = (y1 + y2) / 2 + rng.uniform(-shift, shift) * h
    w *= rng.uniform(*size)
    h *= rng.uniform(*size)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
