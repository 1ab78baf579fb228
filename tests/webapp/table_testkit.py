"""Helpers for the table-photo tests: a table reading as vision.read_table gives it (the reader's contract), without
the reader, and the photo form's post."""
from __future__ import annotations

import io

from webapp_testkit import csrf_token, jpeg_bytes

ROWS = ("front", "middle", "back")
# Where each seat's hand lies on a 1600 x 1200 photo: (x, y) of its first card's corner (0 bottom, 1 left, 2 top,
# 3 right, clockwise from the bottom edge); each card 60 x 85, 66 apart, rows 90 apart.
SIZE = (1600, 1200)
ORIGINS = {0: (600, 900), 1: (40, 420), 2: (600, 20), 3: (1180, 420)}
CARD_W, CARD_H, STEP_X, STEP_Y = 60, 85, 66, 90


def hand_entry(seat: int, rows_text: str, warnings: list[str] | None = None, confidence: float = 0.97) -> dict:
    """One seat's hand: rows "AS KS QS / … / …" (Chinese poker) or loose cards "2S KD" (Big Two, no "/")."""
    x0, y0 = ORIGINS[seat]
    loose = "/" not in rows_text
    rows = {"cards": rows_text.split()} if loose else dict(zip(ROWS, (r.split() for r in rows_text.split("/"))))
    cards = []
    for r, (row, codes) in enumerate(rows.items()):
        for i, code in enumerate(codes):
            box = [x0 + i * STEP_X, y0 + r * STEP_Y, x0 + i * STEP_X + CARD_W, y0 + r * STEP_Y + CARD_H]
            cards.append({"code": code, "confidence": confidence, "box": box, "row": None if loose else row,
                          "sure": confidence >= 0.7, "alternatives": []})
    return {"seat": seat, "cards": cards, "rows": None if loose else rows, "warnings": warnings or []}


def table_reading(hands: dict[int, str], warnings: list[str] | None = None,
                  hand_warnings: dict[int, list[str]] | None = None) -> dict:
    """A whole-table reading: seat -> rows text."""
    return {"hands": [hand_entry(seat, text, (hand_warnings or {}).get(seat)) for seat, text in sorted(hands.items())],
            "warnings": warnings or []}


class FakeTableReader:
    """Stands in for vision.read_table (webapp.reader._read_table): returns `reading`, remembers each call's mode."""

    def __init__(self, reading: dict) -> None:
        self.reading = reading
        self.calls: list[bool] = []

    def __call__(self, data: bytes, loose: bool) -> dict:
        self.calls.append(loose)
        return self.reading


def use_table_reader(monkeypatch, reading: dict) -> FakeTableReader:
    from webapp import reader

    fake = FakeTableReader(reading)
    monkeypatch.setattr(reader, "_read_table", fake)
    return fake


def post_table_photo(client, token: str, number: int, data: bytes | None = None, **headers):
    """The table photo page's form, as a browser without JavaScript sends it."""
    return client.post(f"/g/{token}/r/{number}/table/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(data if data is not None else jpeg_bytes()), "t.jpg")},
        content_type="multipart/form-data", headers=headers)
