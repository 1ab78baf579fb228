"""Instant-win hands (即時勝出, seed 003 lines 142-152): 同花一條龍, 一條龍, four 2s."""

from __future__ import annotations

from typing import Optional

from ..cards import rank_of, suit_of
from .options import INSTANT_WINS

NAMES = {"same-suit-dragon": ("Same-suit dragon (3 to 2 of one suit)", "同花一條龍"),
         "dragon": ("Dragon (one of each rank, 3 to 2)", "一條龍"),
         "four-twos": ("Four 2s", "四條2（四字D）")}
TWO = 0   # rank index of the 2 in scoring.cards
DEALT = 13   # cards dealt to each player (a dragon is all of them)


def instant_hands(cards: tuple[int, ...]) -> list[str]:
    """Every instant-win hand the dealt cards make, best first (a same-suit dragon is also a dragon)."""
    found = []
    ranks = {rank_of(card) for card in cards}
    if len(cards) == DEALT and len(ranks) == DEALT:  # 13 cards, no rank twice
        if len({suit_of(card) for card in cards}) == 1:
            found.append("same-suit-dragon")
        found.append("dragon")
    if sum(1 for card in cards if rank_of(card) == TWO) == 4:
        found.append("four-twos")
    return [hand for hand in INSTANT_WINS if hand in found]


def best_instant_win(cards: tuple[int, ...], multipliers: dict) -> Optional[tuple[str, int]]:
    """(hand id, multiplier) of the best instant win these cards make that the rules pay, or None."""
    for hand in instant_hands(cards):
        if multipliers.get(hand) is not None:
            return hand, multipliers[hand]
    return None


def instant_json(player: str, hand: str, multiplier: int) -> dict:
    """An instant win as the settlement shows it (its "instant_win")."""
    return {"player": player, "hand": hand, "en": NAMES[hand][0], "zh": NAMES[hand][1], "multiplier": multiplier}
