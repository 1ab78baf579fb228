"""What a hand looks like in each game: Chinese poker's three rows (3/5/5 cards) or Big Two's cards
left (one row, at most the rules' max_cards)."""
from __future__ import annotations

from typing import Any

from webapp import rules
from webapp.models import Game

ROWS = ("front", "middle", "back")
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
CARDS_LEFT = "cards"  # a Big Two hand's only row


def layout(game: Game) -> dict[str, int]:
    """A hand's rows and their sizes: front/middle/back 3/5/5, or Big Two's cards left (at most max_cards)."""
    if game.is_bigtwo:
        return {CARDS_LEFT: bigtwo_rules(game)["max_cards"]}
    return dict(ROW_SIZES)


def bigtwo_rules(game: Game) -> dict[str, Any]:
    """scheme (cards | rank), max_cards, block_rule and the instant wins paid of a Big Two game's rules."""
    return rules.bigtwo_rules(game.preset, game.options)
