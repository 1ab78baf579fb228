"""Standings chart geometry: cumulative points per player as SVG polylines (drawn by a template)."""
from __future__ import annotations

from typing import Any

COLOURS = ("#d62828", "#1d70b8", "#2a9d47", "#8e44ad")
WIDTH, HEIGHT, PAD = 320, 180, 28


def standings_chart(players: list[str], series: list[dict[str, Any]]) -> dict[str, Any] | None:
    """None until a round is settled; otherwise lines, axis ticks and the zero line in a 320×180 box."""
    if not series:
        return None
    points = [[0.0] * len(players)] + [[s["points"][p] for p in players] for s in series]
    labels = [0] + [s["round"] for s in series]
    low = min(0.0, *(v for row in points for v in row))
    high = max(0.0, *(v for row in points for v in row))
    if high == low:
        high, low = high + 1, low - 1
    steps = len(points) - 1 or 1

    def x(i: int) -> float:
        return round(PAD + i * (WIDTH - 2 * PAD) / steps, 1)

    def y(v: float) -> float:
        return round(HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / (high - low), 1)

    lines = []
    for j, name in enumerate(players):
        coords = " ".join(f"{x(i)},{y(row[j])}" for i, row in enumerate(points))
        last = points[-1][j]
        lines.append({"name": name, "colour": COLOURS[j % len(COLOURS)], "points": coords,
                      "end": (x(len(points) - 1), y(last)), "value": last})
    return {
        "width": WIDTH, "height": HEIGHT, "lines": lines, "zero": y(0.0), "left": PAD, "right": WIDTH - PAD,
        # At most about ten round labels, so they stay readable on a phone.
        "ticks": [{"x": x(i), "label": labels[i]} for i in range(len(points))
                  if i % max(1, -(-len(points) // 10)) == 0 or i == len(points) - 1],
        "high": {"y": y(high), "label": _short(high)}, "low": {"y": y(low), "label": _short(low)},
    }


def _short(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"
