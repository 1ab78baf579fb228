"""Small helpers shared by the scoring tests."""

from __future__ import annotations

import itertools
import random
from typing import Optional

import numpy as np

import scoring
from scoring.cards import CODES, card_from_text
from scoring.evaluate import evaluate_five_batch
from scoring_reference import reference_fouled

_FIVE_OF_13 = np.array(list(itertools.combinations(range(13), 5)))
_FIVE_OF_8 = np.array(list(itertools.combinations(range(8), 5)))


def settle(rules: str, players: dict, banker: Optional[str] = None, options: Optional[dict] = None,
           **extra) -> dict:
    round_ = {"rules": rules, "players": players, **extra}
    if banker is not None:
        round_["banker"] = banker
    if options:
        round_["options"] = options
    return scoring.settle(round_)


def pair_net(result: dict, first: str, second: str) -> object:
    """What ``first`` won from ``second`` in a settlement."""
    for pair in result["pairs"]:
        if pair["players"] == [first, second]:
            return pair["net"][first]
        if pair["players"] == [second, first]:
            return pair["net"][first]
    raise KeyError((first, second))


def random_deal(rng: random.Random, players: int = 4) -> list[list[str]]:
    deck = list(CODES)
    rng.shuffle(deck)
    return [deck[i * 13:(i + 1) * 13] for i in range(players)]


def as_rows(cards: list[str]) -> str:
    """13 cards in the given order as 'front / middle / back' text."""
    return f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:])}"


def strongest_back_arrangement(cards: list[str]) -> str:
    """A legal arrangement under every preset's row order (front < middle < back, strictly): the best five cards
    at the back, the best five of the rest in the middle; when those two tie (two straights of one rank) or the
    middle ties the front, the next best middle, then the next best back."""
    ints = np.array([card_from_text(card) for card in cards])
    for back in _FIVE_OF_13[np.argsort(-evaluate_five_batch(ints[_FIVE_OF_13]), kind="stable")]:
        rest = np.delete(ints, back)
        for middle in _FIVE_OF_8[np.argsort(-evaluate_five_batch(rest[_FIVE_OF_8]), kind="stable")]:
            rows = ([CODES[c] for c in np.delete(rest, middle)], [CODES[c] for c in rest[middle]],
                    [CODES[c] for c in ints[back]])
            if not reference_fouled(*rows, strict=True):
                return as_rows(rows[0] + rows[1] + rows[2])
    raise AssertionError(f"no strictly legal arrangement of {cards}")


def rest_of_deck(*hands: str) -> list[str]:
    used = {scoring.cards.parse_card(token) for hand in hands for token in hand.replace("/", " ").split()}
    return [code for code in CODES if code not in used]


def filler(rules: str, *hands: str, count: int = 1) -> list[str]:
    """Ordinary hands (no natural under ``rules``) from the cards the given hands leave, arranged legally."""
    rest = rest_of_deck(*hands)
    rng = random.Random(1)
    for _ in range(500):
        rng.shuffle(rest)
        picks = [rest[i * 13:(i + 1) * 13] for i in range(count)]
        if not any(scoring.detect_naturals(pick, rules) for pick in picks):
            return [strongest_back_arrangement(pick) for pick in picks]
    raise AssertionError("no ordinary hands left in the deck")


def assert_swap_mirrors(round_: dict, first: str, second: str) -> None:
    """Giving `first` the hand of `second` and back swaps their results and leaves everyone else's alone."""
    swapped = dict(round_, players=dict(round_["players"]))
    swapped["players"][first], swapped["players"][second] = round_["players"][second], round_["players"][first]
    before, after = scoring.settle(round_)["net"], scoring.settle(swapped)["net"]
    assert after[first] == before[second] and after[second] == before[first]
    assert all(after[name] == before[name] for name in round_["players"] if name not in (first, second))
