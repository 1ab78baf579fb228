"""Standings chart geometry: cumulative points per player as SVG polylines (drawn by a template).

Lines that run together stay visible: each player has a dash pattern of their own as well as a colour, and a
line identical to an earlier one is drawn a few pixels below it. Each line ends with a label (name and
points), the labels pushed apart so equal scores do not print on top of each other."""
from __future__ import annotations

from typing import Any

COLOURS = ("#d62828", "#1d70b8", "#2a9d47", "#8e44ad")
DASHES = ("", "7 4", "2 3", "9 3 2 3")  # solid, dashed, dotted, dash-dot: tell lines apart without colour
WIDTH, HEIGHT, PAD = 320, 180, 28
LABEL_ROOM = 64  # right of the last point: room for "Name 12"
LABEL_GAP = 11  # smallest vertical distance between two end labels (about a line of 9 px text)
SAME_LINE_OFFSET = 2.5  # pixels between identical lines


def standings_chart(players: list[str], series: list[dict[str, Any]]) -> dict[str, Any] | None:
    """None until a round is settled; otherwise lines, end labels, axis ticks and the zero line in a 320×180 box."""
    if not series:
        return None
    points = [[0.0] * len(players)] + [[s["points"][p] for p in players] for s in series]
    labels = [0] + [s["round"] for s in series]
    low = min(0.0, *(v for row in points for v in row))
    high = max(0.0, *(v for row in points for v in row))
    if high == low:
        high, low = high + 1, low - 1
    steps = len(points) - 1 or 1
    right = WIDTH - LABEL_ROOM

    def x(i: int) -> float:
        return round(PAD + i * (right - PAD) / steps, 1)

    def y(v: float) -> float:
        return round(HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / (high - low), 1)

    seen: dict[tuple[float, ...], int] = {}
    lines = []
    for j, name in enumerate(players):
        track = tuple(row[j] for row in points)
        offset = seen.get(track, 0) * SAME_LINE_OFFSET
        seen[track] = seen.get(track, 0) + 1
        coords = " ".join(f"{x(i)},{round(y(row[j]) + offset, 1)}" for i, row in enumerate(points))
        last = points[-1][j]
        lines.append({"name": name, "colour": COLOURS[j % len(COLOURS)], "dash": DASHES[j % len(DASHES)],
                      "points": coords, "end": (x(len(points) - 1), round(y(last) + offset, 1)), "value": last,
                      "label": f"{name} {_short(last)}"})
    _spread_labels(lines)
    return {
        "width": WIDTH, "height": HEIGHT, "lines": lines, "zero": y(0.0), "left": PAD, "right": right,
        # At most about ten round labels, so they stay readable on a phone.
        "ticks": [{"x": x(i), "label": labels[i]} for i in range(len(points))
                  if i % max(1, -(-len(points) // 10)) == 0 or i == len(points) - 1],
        "high": {"y": y(high), "label": _short(high)}, "low": {"y": y(low), "label": _short(low)},
    }


def _spread_labels(lines: list[dict[str, Any]]) -> None:
    """Each line's label_y: at its end point, moved apart (top to bottom) so no two are closer than LABEL_GAP,
    and kept inside the box."""
    order = sorted(range(len(lines)), key=lambda k: (lines[k]["end"][1], k))
    ys = [lines[k]["end"][1] + 3 for k in order]  # +3: the text's middle on the point
    for i in range(1, len(ys)):
        ys[i] = max(ys[i], ys[i - 1] + LABEL_GAP)
    overflow = ys[-1] - (HEIGHT - 14) if ys else 0
    if overflow > 0:  # pushed below the axis labels: move the whole stack up
        ys = [v - overflow for v in ys]
        for i in range(len(ys) - 2, -1, -1):
            ys[i] = min(ys[i], ys[i + 1] - LABEL_GAP)
    for k, label_y in zip(order, ys):
        lines[k]["label_y"] = round(max(label_y, 9.0), 1)


def _short(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"
