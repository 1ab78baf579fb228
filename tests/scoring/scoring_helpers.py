"""Small helpers shared by the scoring tests."""

from __future__ import annotations

import random
from typing import Optional

from scoring.cards import CODES

NAMES = ("Ann", "Bob", "Cy", "Dee")


def settle_net(scoring_module, rules: str, players: dict, banker: Optional[str] = None,
               options: Optional[dict] = None, **extra) -> dict:
    round_ = {"rules": rules, "players": players, **extra}
    if banker is not None:
        round_["banker"] = banker
    if options:
        round_["options"] = options
    return scoring_module.settle(round_)


def random_deal(rng: random.Random, players: int = 4) -> list[list[str]]:
    deck = list(CODES)
    rng.shuffle(deck)
    return [deck[i * 13:(i + 1) * 13] for i in range(players)]


def as_rows(cards: list[str]) -> str:
    """13 cards in the given order as 'front / middle / back' text."""
    return f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:])}"
