"""A whole-table photo's reading (vision.read_table) as the web app uses it: each seat's hand, with the outline the
seat page draws around it and the hand's own reading (the shape a single-hand photo gives, so the usual summary and
review apply to it unchanged), and the photo's own warnings (a card between two hands, …)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# vision numbers the seats clockwise from the photo's bottom edge.
SIDES = ("bottom", "left", "top", "right")
# Added around a hand's card boxes, as a share of its largest box's longer side: a card overlapped by the next one is
# boxed at its index only, so the outline must reach past the boxes to clear the cards themselves.
OUTLINE_MARGIN = 0.5


@dataclass(frozen=True)
class TableHand:
    """One seat's hand on the photo."""

    seat: int
    reading: dict[str, Any]  # {"cards", "rows", "warnings"}: what vision.read_photo gives for one hand
    outline: tuple[float, float, float, float] | None  # x0, y0, x1, y1 on the photo; None without card boxes

    @property
    def side(self) -> str:
        return SIDES[self.seat]

    @property
    def card_count(self) -> int:
        return len(self.reading["cards"])


def table_hands(reading: dict[str, Any]) -> list[TableHand]:
    """The hands of a table reading in seat order (entries without a valid seat 0–3, or repeating one, are left
    out: the photo's warnings still say what the reader saw)."""
    hands: dict[int, TableHand] = {}
    for entry in reading.get("hands") or []:
        if not isinstance(entry, dict):
            continue
        seat = entry.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(SIDES) or seat in hands:
            continue
        cards = [c for c in entry.get("cards") or [] if isinstance(c, dict)]
        rows = entry.get("rows") if isinstance(entry.get("rows"), dict) else None
        warnings = [w for w in entry.get("warnings") or [] if isinstance(w, (str, dict))]
        hands[seat] = TableHand(seat, {"cards": cards, "rows": rows, "warnings": warnings},
                                _outline(entry.get("box"), cards))
    return [hands[seat] for seat in sorted(hands)]


def photo_warnings(reading: dict[str, Any]) -> list[str]:
    """The photo's own warnings (not any one hand's), as lines."""
    lines = []
    for warning in reading.get("warnings") or []:
        if isinstance(warning, dict):
            warning = warning.get("message") or warning.get("text") or ""
        if str(warning).strip():
            lines.append(str(warning))
    return lines


def _box(value: Any) -> tuple[float, float, float, float] | None:
    if not isinstance(value, (list, tuple)) or len(value) < 4:
        return None
    try:
        x0, y0, x1, y1 = (float(v) for v in value[:4])
    except (TypeError, ValueError):
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _outline(given: Any, cards: list[dict[str, Any]]) -> tuple[float, float, float, float] | None:
    """The reader's box around the hand when it gives one, else the box around its cards' boxes with a margin."""
    box = _box(given)
    if box is not None:
        return box
    boxes = [b for b in (_box(card.get("box")) for card in cards) if b is not None]
    if not boxes:
        return None
    margin = OUTLINE_MARGIN * max(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
    return (max(0.0, min(b[0] for b in boxes) - margin), max(0.0, min(b[1] for b in boxes) - margin),
            max(b[2] for b in boxes) + margin, max(b[3] for b in boxes) + margin)
