"""A player's entry in a round -> HandInput (card ints), with errors that name the player and card.

Accepted forms:
  "AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7H"     front / middle / back ("|" also separates rows)
  "AS KS QS 2C ..." (13 cards, no separators)         unarranged: only for a natural or a surrender
  [front, middle, back] or a list of 13 cards          each row a list of cards or a text
  {"front": ..., "middle": ..., "back": ..., "cards": [...13], "surrender": bool, "natural": ...}
"natural" is true (claim the best natural; error if there is none), false (decline), or a natural's
id; left out, the best natural is claimed when the hand has one.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from .cards import CODES, SPELLINGS, cards_from_value
from .errors import ScoringError, shown
from .options import ROWS

ROW_SIZES = (3, 5, 5)
HAND_KEYS = ("front", "middle", "back", "cards", "surrender", "natural")
Rows = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class HandInput:
    """One player's entry as card ints (rows and/or the 13 cards) with its surrender / natural flags."""

    __slots__ = ("rows", "cards", "surrender", "natural")

    def __init__(self, rows: Optional[Rows], cards: Optional[tuple[int, ...]], surrender: bool = False,
                 natural: Union[None, bool, str] = None) -> None:
        self.rows = rows
        self.cards = cards
        self.surrender = surrender
        self.natural = natural


def _cards(value: Any, player: str, where: str) -> tuple[int, ...]:
    return cards_from_value(value, f"{player}: {where}",
                            f"{player}: {where} must be a list of cards or a text like 'AS KS QS'")


def _check_rows(rows: Rows, player: str) -> None:
    if len(rows[0]) == 3 and len(rows[1]) == 5 and len(rows[2]) == 5:
        return
    for row, cards, size in zip(ROWS, rows, ROW_SIZES):
        if len(cards) != size:
            shown = " ".join(CODES[card] for card in cards) or "nothing"
            raise ScoringError(f"{player}: the {row} row needs {size} cards, got {len(cards)} ({shown})")


def _check_no_repeats(cards: tuple[int, ...], player: str) -> None:
    if len(frozenset(cards)) != len(cards):
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise ScoringError(f"{player}: {CODES[card]} appears twice in the hand")
            seen.add(card)


def _rows_from_text(text: str, player: str) -> Optional[Rows]:
    for separator in ("/", "|"):
        if separator in text:
            parts = text.split(separator)
            if len(parts) != 3:
                raise ScoringError(f"{player}: write the hand as 'front / middle / back' "
                                   f"(3 rows), not {len(parts)} parts")
            return tuple(_cards(part, player, row) for part, row in zip(parts, ROWS))  # type: ignore
    return None


def _from_dict(value: dict, player: str) -> HandInput:
    unknown = [key for key in value if key not in HAND_KEYS]
    if unknown:
        raise ScoringError(f"{player}: unknown key {shown(unknown[0])} in the hand; "
                           f"valid keys: {', '.join(HAND_KEYS)}")
    surrender = value.get("surrender", False)
    if not isinstance(surrender, bool):
        raise ScoringError(f"{player}: surrender must be true or false, not {shown(surrender)}")
    natural = value.get("natural")
    if natural is not None and not isinstance(natural, (bool, str)):
        raise ScoringError(f"{player}: natural must be true, false or a natural's id, not {shown(natural)}")
    given_rows = [row for row in ROWS if row in value]
    rows = None
    if given_rows:
        if len(given_rows) != 3:
            missing = [row for row in ROWS if row not in value]
            raise ScoringError(f"{player}: the hand has {', '.join(given_rows)} but no {', '.join(missing)}")
        rows = tuple(_cards(value[row], player, row) for row in ROWS)
        _check_rows(rows, player)  # type: ignore[arg-type]
    cards = None
    if "cards" in value:
        cards = _cards(value["cards"], player, "cards")
        if len(cards) != 13:
            raise ScoringError(f"{player}: cards must be the 13 cards of the hand, got {len(cards)}")
        if rows is not None and sorted(cards) != sorted(rows[0] + rows[1] + rows[2]):
            raise ScoringError(f"{player}: cards and the rows hold different cards")
    elif rows is not None:
        cards = rows[0] + rows[1] + rows[2]
    if cards is None and not surrender:
        raise ScoringError(f"{player}: the hand needs front, middle and back rows (or cards), "
                           f"or surrender: true")
    return HandInput(rows, cards, surrender, natural)  # type: ignore[arg-type]


_CARD = SPELLINGS.__getitem__


def _quick_text_hand(value: str) -> Optional[HandInput]:
    """The common 'AS KS QS / 2C 2D 9H 9S 4C / ...' text with canonical codes and spaced slashes, or None
    to take the careful path.  Repeated cards are left to the round's check across all hands."""
    tokens = value.split()
    if len(tokens) != 15 or tokens[3] != "/" or tokens[9] != "/":
        return None
    try:
        front = tuple(map(_CARD, tokens[:3]))
        middle = tuple(map(_CARD, tokens[4:9]))
        back = tuple(map(_CARD, tokens[10:]))
    except KeyError:
        return None
    return HandInput((front, middle, back), front + middle + back)


def parse_hand_input(value: Any, player: str = "hand", check_repeats: bool = True) -> HandInput:
    """Parse one player's entry; ScoringError (naming ``player``) when it is not a valid hand.

    ``check_repeats=False`` leaves repeated cards to the caller (a round checks all hands at once)."""
    if value.__class__ is str:
        quick = _quick_text_hand(value)
        if quick is not None:
            if check_repeats:
                _check_no_repeats(quick.cards, player)
            return quick
    if isinstance(value, str):
        rows = _rows_from_text(value, player)
        if rows is not None:
            _check_rows(rows, player)
            hand = HandInput(rows, rows[0] + rows[1] + rows[2])
        else:
            cards = _cards(value, player, "hand")
            if len(cards) != 13:
                raise ScoringError(f"{player}: a hand has 13 cards, got {len(cards)}; write it as "
                                   f"'front / middle / back'")
            hand = HandInput(None, cards)
    elif isinstance(value, (list, tuple)):
        if len(value) == 3:
            rows = tuple(_cards(part, player, row) for part, row in zip(value, ROWS))
            _check_rows(rows, player)  # type: ignore[arg-type]
            hand = HandInput(rows, rows[0] + rows[1] + rows[2])  # type: ignore[arg-type]
        elif len(value) == 13:
            hand = HandInput(None, _cards(value, player, "hand"))
        else:
            raise ScoringError(f"{player}: a hand is [front, middle, back] or a list of 13 cards, "
                               f"not a list of {len(value)}")
    elif isinstance(value, dict):
        hand = _from_dict(value, player)
    else:
        raise ScoringError(f"{player}: a hand is a text, a list or an object, not {type(value).__name__}")
    if hand.cards is not None and check_repeats:
        _check_no_repeats(hand.cards, player)
    return hand


def hand_to_json(hand: HandInput) -> dict:
    """Canonical JSON form of a parsed hand (codes like "TS")."""
    result: dict[str, Any] = {}
    if hand.rows is not None:
        for row, cards in zip(ROWS, hand.rows):
            result[row] = [CODES[card] for card in cards]
    if hand.cards is not None:
        result["cards"] = [CODES[card] for card in hand.cards]
    if hand.surrender:
        result["surrender"] = True
    if hand.natural is not None:
        result["natural"] = hand.natural
    return result
