"""Card codes: parsing people's spellings into canonical codes and a compact int encoding.

A card is an int ``rank_index * 4 + suit_index`` (0..51): rank_index 0..12 stands for 2..A and
suit_index 0..3 for S, H, D, C.  Canonical text codes are rank then suit: ``"TS"``, ``"AH"``.
"""

from __future__ import annotations

from typing import Any

from .errors import ScoringError, shown

RANKS = "23456789TJQKA"
SUITS = "SHDC"
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
                "Jacks", "Queens", "Kings", "Aces")
RANK_SHORT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

_RANK_SPELLINGS = {r: i for i, r in enumerate(RANKS)} | {"10": 8}
_SUIT_SPELLINGS = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"

CODES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
CARD_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}


def _all_spellings() -> dict[str, int]:
    """Every accepted spelling -> card int, so that the common path is one dict look-up."""
    table: dict[str, int] = {}
    for rank_text, rank in _RANK_SPELLINGS.items():
        for suit_text, suit in _SUIT_SPELLINGS.items():
            card = rank * 4 + suit
            for text in (rank_text + suit_text, suit_text + rank_text):
                table[text] = card
                table[text.lower()] = card
    return table


SPELLINGS = _all_spellings()


def card_from_text(text: str) -> int:
    """Card int for one spelling (``"AS"``, ``"10s"``, ``"♠A"``, ``"a♠"``); ScoringError if it is none."""
    try:
        return SPELLINGS[text]
    except (KeyError, TypeError):  # TypeError: an unhashable value such as a list
        pass
    if not isinstance(text, str):
        raise ScoringError(f"a card must be text like 'AS' or '10♠', not {shown(text)}")
    # The longest spelling with spaces and variation selectors is a few characters: no need to clean more.
    cleaned = text.strip().upper() if len(text) <= 16 else "?"
    for selector in _VARIATION_SELECTORS:
        cleaned = cleaned.replace(selector, "")
    card = SPELLINGS.get(cleaned)
    if card is None:
        raise ScoringError(
            f"{shown(text)} is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit "
            f"(S H D C or ♠ ♥ ♦ ♣), e.g. 'AS', '10♥'")
    return card


def parse_card(text: str) -> str:
    """Normalise one card spelling to its canonical code: ``"10s"`` -> ``"TS"``, ``"♠A"`` -> ``"AS"``."""
    return CODES[card_from_text(text)]


def code(card: int) -> str:
    """Canonical text code of a card int."""
    return CODES[card]


def rank_of(card: int) -> int:
    """Rank index 0..12 (2..A)."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0..3 (S, H, D, C)."""
    return card & 3


def split_card_text(text: str) -> list[str]:
    """Split a written row or hand ("AS KS, QS") into card spellings."""
    return text.replace(",", " ").split()


def cards_from_value(value: Any, error_prefix: str, shape_error: str) -> tuple[int, ...]:
    """Card ints from a text ('AS KS QS', '10s ♠A') or a list of card texts.

    A value of another type raises ``ScoringError(f"{shape_error}, not {shown(value)}")``; a bad card raises
    ``ScoringError(f"{error_prefix}: <what is wrong>")``, so each caller's messages name its player and place.
    """
    if isinstance(value, str) and "," not in value:
        try:
            return tuple(map(SPELLINGS.__getitem__, value.split()))  # the common case, all in C
        except KeyError:
            pass
    texts = split_card_text(value) if isinstance(value, str) else value
    if not isinstance(texts, (list, tuple)):
        raise ScoringError(f"{shape_error}, not {shown(value)}")
    try:
        return tuple(card_from_text(text) for text in texts)
    except ScoringError as err:
        raise ScoringError(f"{error_prefix}: {err}") from None
