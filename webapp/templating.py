"""Template helpers: card faces and short dates."""
from __future__ import annotations

from datetime import datetime

from flask import Flask

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = {"T": "10"}
ALL_CODES = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def card_face(code: str) -> dict[str, object]:
    """'TH' -> {'rank': '10', 'suit': '♥', 'red': True}; unreadable codes are shown as they are."""
    code = str(code)
    if len(code) == 2 and code[1] in SUIT_SYMBOLS:
        return {"rank": RANK_TEXT.get(code[0], code[0]), "suit": SUIT_SYMBOLS[code[1]], "red": code[1] in "HD",
                "code": code}
    return {"rank": code, "suit": "", "red": False, "code": code}


def short_time(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else ""


def init_app(app: Flask) -> None:
    app.jinja_env.filters["card"] = card_face
    app.jinja_env.filters["short_time"] = short_time
    app.jinja_env.globals["ALL_CODES"] = ALL_CODES
