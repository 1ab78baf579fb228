"""One player's entry in a Big Two round -> the cards left in hand, with errors naming player and card.

Accepted forms:
  "2S KD 5C" (spaces or commas; any spelling scoring.cards accepts), "" for a player who went out
  ["2S", "KD", "5C"] or []
  null                                   no cards (for 名次計分, where cards are not needed)
  {"cards": <text or list>}              the same as the bare cards
  {"cards": <13 cards>, "instant_win": true}   the winner shows an instant-win hand (一條龍 ...)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import CODES, cards_from_value
from ..errors import ScoringError, shown
from ..limits import check_document

ENTRY_KEYS = ("cards", "instant_win")


@dataclass(frozen=True)
class LeftHand:
    """The cards a player has left (card ints, in the order given) and whether they claim an instant win."""

    cards: tuple[int, ...]
    instant_win: bool = False

    @property
    def codes(self) -> list[str]:
        return [CODES[card] for card in self.cards]


def _cards(value: Any, player: str) -> tuple[int, ...]:
    if value is None:
        return ()
    return cards_from_value(value, player, f"{player}: the cards left must be a text like '2S KD 5C' "
                                           f"or a list of cards")


def parse_left_hand(value: Any, player: str) -> LeftHand:
    """Parse one player's entry; ScoringError naming ``player`` for anything that is not cards."""
    check_document(value, f"{player}'s cards")   # the web app's form sends one field straight here
    if isinstance(value, dict):
        unknown = [key for key in value if key not in ENTRY_KEYS]
        if unknown:
            raise ScoringError(f"{player}: unknown key {shown(unknown[0])}; valid keys: {', '.join(ENTRY_KEYS)}")
        instant = value.get("instant_win", False)
        if not isinstance(instant, bool):
            raise ScoringError(f"{player}: instant_win must be true or false, not {shown(instant)}")
        hand = LeftHand(_cards(value.get("cards"), player), instant)
    else:
        hand = LeftHand(_cards(value, player))
    seen: set[int] = set()
    for card in hand.cards:
        if card in seen:
            raise ScoringError(f"{player}: {CODES[card]} appears twice")
        seen.add(card)
    return hand


def check_unique_across(hands: dict[str, LeftHand]) -> None:
    """ScoringError naming the card and both players when two players hold the same card."""
    owner: dict[int, str] = {}
    for name, hand in hands.items():
        for card in hand.cards:
            other = owner.setdefault(card, name)
            if other != name:
                raise ScoringError(f"{CODES[card]} is in both {other}'s and {name}'s cards")
