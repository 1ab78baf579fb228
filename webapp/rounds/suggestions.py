"""Cards to offer with one tap: for a hand's free place, the marks the reader left out as unsure (when a card is
missing from a hand read from a photo, it is most often one of them: a fanned card whose suit is half covered, a
corner read at 0.5); for a card being fixed, the reader's runner-up codes for it. Either is quicker than picking
the card from all 52."""
from __future__ import annotations

import re
from typing import Any

from vision.messages import UNSURE_MARKS_WARNING
from webapp import reader
from webapp.models import Hand, Round
from webapp.rounds.reader_notes import doubted_codes
from webapp.rounds.sets import find_hand
from webapp.rounds.shape import layout

# One mark as the reader lists it: "7H? (0.41)"
_MARK = re.compile(r"(?P<code>[2-9TJQKA][SHDC])\? \((?P<confidence>[\d.]+)\)")


def unsure_suggestions(rnd: Round, player: str, hand_set: int = 0) -> list[dict[str, Any]]:
    """Each unsure mark of the player's photo that no hand of the round holds yet, surest first, with the place it
    would fill: the first row short of its size (Big Two: the cards left). None once the hand is full."""
    hand = find_hand(rnd.hands, player, hand_set)
    if hand is None or hand.upload is None or hand.state != "cards":
        return []
    place = _free_place(hand, layout(rnd.game))
    if place is None:
        return []
    held = {code for h in rnd.hands for row in layout(rnd.game) for code in getattr(h, row)}
    marks: dict[str, float] = {}
    for text in reader.summarise(hand.upload.reading)["warnings"]:
        if text.startswith(UNSURE_MARKS_WARNING):
            for found in _MARK.finditer(text):
                code, confidence = found["code"], float(found["confidence"])
                if code not in held:
                    marks[code] = max(confidence, marks.get(code, 0.0))
    row, index = place
    return [{"code": code, "percent": round(confidence * 100), "row": row, "index": index}
            for code, confidence in sorted(marks.items(), key=lambda item: -item[1])]


def card_alternatives(rnd: Round, player: str, hand_set: int = 0) -> dict[str, list[str]]:
    """Per code the reader named on the player's photo, its first reader.ALTERNATIVES_SHOWN runner-up codes (vision
    read's "alternatives"; for a card the second look doubts, its code first) that no other hand of the round holds
    (one deck holds each card once), likeliest first.
    Codes this hand holds stay: a card whose two corners were read as two codes is in the hand twice, and the true
    code is often the other one (session 53: for 17 of 98 cards read wrong on the synthetic sets)."""
    hand = find_hand(rnd.hands, player, hand_set)
    if hand is None or hand.upload is None:
        return {}
    held = {code for h in rnd.hands if h is not hand for row in layout(rnd.game) for code in getattr(h, row)}
    summary = reader.summarise(hand.upload.reading)
    # a card the second look doubts: its code for it first (it names the true code of most cards it doubts)
    second = {code: other for code, other in doubted_codes(summary["warnings"]).items() if other != "none"}
    offers = {}
    for card in summary["cards"]:
        codes = [second[card["code"]]] if card["code"] in second else []
        codes += [code for code in card["alternatives"] if code not in codes]
        codes = [code for code in codes if code not in held][:reader.ALTERNATIVES_SHOWN]
        if codes:
            offers[card["code"]] = codes
    return offers


def _free_place(hand: Hand, sizes: dict[str, int]) -> tuple[str, int] | None:
    for row, size in sizes.items():
        cards = getattr(hand, row)
        if len(cards) < size:
            return row, len(cards)
    return None
