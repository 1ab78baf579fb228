"""Names of evaluated rows in English and Chinese, decoded from the strength int."""

from __future__ import annotations

from .cards import RANK_NAMES, RANK_PLURALS, RANK_SHORT
from .evaluate import (CATEGORIES, FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, STRAIGHT,
                       STRAIGHT_FLUSH, TRIPS, TWO_PAIR, category_of, digits_of)

CATEGORY_NAMES_EN = {
    "high-card": "High card", "pair": "Pair", "two-pair": "Two pair", "trips": "Three of a kind",
    "straight": "Straight", "flush": "Flush", "full-house": "Full house", "quads": "Four of a kind",
    "straight-flush": "Straight flush",
}
# Traditional Chinese names used by seeds 000/001; a preset may replace them (seed 002 is simplified).
CATEGORY_NAMES_ZH = {
    "high-card": "烏龍", "pair": "一對", "two-pair": "兩對", "trips": "三條", "straight": "順子",
    "flush": "同花", "full-house": "葫蘆", "quads": "鐵支", "straight-flush": "同花順",
}


def _rank_index(digit: int) -> int:
    return digit - 2


def _is_wheel(digits: tuple[int, ...]) -> bool:
    return digits[0] == 5 or (digits[0] == 13 and digits[1] == 1)


def describe_en(strength: int) -> str:
    """English description, e.g. "Pair of Aces", "Full house, Threes full of Twos"."""
    category = category_of(strength)
    digits = digits_of(strength)
    first = _rank_index(digits[0])
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        label = "Straight" if category == STRAIGHT else "Straight flush"
        if _is_wheel(digits):
            return f"{label}, Five high (wheel)"
        return f"{label}, {RANK_NAMES[first]} high"
    if category in (HIGH_CARD, FLUSH):
        label = f"{RANK_NAMES[first]} high"
        return label if category == HIGH_CARD else f"Flush, {label}"
    if category == PAIR:
        return f"Pair of {RANK_PLURALS[first]}"
    if category == TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[first]} and {RANK_PLURALS[_rank_index(digits[1])]}"
    if category == TRIPS:
        return f"Three {RANK_PLURALS[first]}"
    if category == FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[first]} full of {RANK_PLURALS[_rank_index(digits[1])]}"
    if category == QUADS:
        return f"Four {RANK_PLURALS[first]}"
    raise AssertionError(f"unknown category {category}")


def describe_zh(strength: int, names_zh: dict[str, str] | None = None) -> str:
    """Chinese description: category name with the deciding ranks, e.g. "一對（A）", "順子（A大）"."""
    names = names_zh or CATEGORY_NAMES_ZH
    category = category_of(strength)
    digits = digits_of(strength)
    label = names[CATEGORIES[category]]
    if category in (STRAIGHT, STRAIGHT_FLUSH) and _is_wheel(digits):
        return f"{label}（5大）"
    top = RANK_SHORT[_rank_index(digits[0])]
    if category in (HIGH_CARD, FLUSH, STRAIGHT, STRAIGHT_FLUSH):
        return f"{label}（{top}大）"
    if category in (TWO_PAIR, FULL_HOUSE):
        return f"{label}（{top}、{RANK_SHORT[_rank_index(digits[1])]}）"
    return f"{label}（{top}）"


def category_name(strength: int) -> str:
    """Category id ("pair", "straight-flush", ...) of a strength."""
    return CATEGORIES[category_of(strength)]
