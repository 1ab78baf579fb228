"""What one loser's cards left cost: card points, then the multipliers, each with a line a person can check."""

from __future__ import annotations

from dataclasses import dataclass, field
from ..cards import CODES, rank_of
from .instant import NAMES as INSTANT_NAMES
from .instant import TWO
from .monsters import monster_hands
from .rules import BigTwoRules

FOLD_WORDS = {2: "雙", 3: "三", 4: "四"}


@dataclass
class Penalty:
    """A loser's charge: base points of the cards left × every multiplier that applies."""

    cards: tuple[int, ...]
    card_points: list[tuple[str, int]]      # (code, points) per card, in the order given
    base: int
    multipliers: list[dict] = field(default_factory=list)   # {"rule", "term", "factor", "detail"}

    @property
    def multiplier(self) -> int:
        product = 1
        for step in self.multipliers:
            product *= step["factor"]
        return product

    @property
    def points(self) -> int:
        return self.base * self.multiplier

    def explain(self) -> str:
        """'2C 1 + KD 1 + 5C 1 = 3; ×2 (8 or more cards) = 6'."""
        if not self.cards:
            return "no cards left: 0"
        text = " + ".join(f"{code} {points}" for code, points in self.card_points) + f" = {self.base}"
        if self.multipliers:
            text += "; " + " ".join(f"×{step['factor']} ({step['detail']})" for step in self.multipliers)
            text += f" = {self.points}"
        return text


def _count_term(rules: BigTwoRules, factor: int) -> str:
    word = rules.terms["count"]
    return f"{FOLD_WORDS[factor]}{word}" if word == "炒" and factor in FOLD_WORDS else f"{word}{factor}倍"


def _base(rules: BigTwoRules, cards: tuple[int, ...]) -> Penalty:
    points = [(CODES[card], rules.card_points[card]) for card in cards]
    return Penalty(cards, points, sum(value for _, value in points))


def card_penalty(rules: BigTwoRules, cards: tuple[int, ...]) -> Penalty:
    """The penalty for cards left at the end of a normal hand."""
    penalty = _base(rules, cards)
    options = rules.options
    count = len(cards)
    tier, factor = rules.count_multiplier(count)
    if tier is not None and factor > 1:
        penalty.multipliers.append({"rule": "count", "term": _count_term(rules, factor), "factor": factor,
                                    "detail": f"{count} cards left, {tier} or more"})
    if options["even_count_multiplier"] > 1 and count and count % 2 == 0:
        penalty.multipliers.append({"rule": "even-count", "term": rules.terms["even"],
                                    "factor": options["even_count_multiplier"],
                                    "detail": f"{count} cards left is even"})
    twos = [CODES[card] for card in cards if rank_of(card) == TWO]
    if options["two_multiplier"] > 1 and twos:
        per_two = options["two_multiplier_applies"] == "per-two"
        for code in twos if per_two else twos[:1]:
            penalty.multipliers.append({"rule": "two", "term": rules.terms["two"],
                                        "factor": options["two_multiplier"],
                                        "detail": f"holds {code}" if per_two else f"holds a 2 ({' '.join(twos)})"})
    if options["monster_multiplier"] > 1:
        found = [hand for hand in monster_hands(cards) if hand in options["monster_hands"]]
        if found:
            penalty.multipliers.append({"rule": "monster", "term": rules.terms["monster"],
                                        "factor": options["monster_multiplier"],
                                        "detail": f"holds a {' and a '.join(found)}"})
    return penalty


def instant_win_penalty(rules: BigTwoRules, cards: tuple[int, ...], hand: str, factor: int,
                        winner: str) -> Penalty:
    """A loser's charge when the winner shows an instant win: the cards' points × the instant multiplier only."""
    penalty = _base(rules, cards)
    english, chinese = INSTANT_NAMES[hand]
    penalty.multipliers.append({"rule": "instant-win", "term": rules.terms["instant_win"], "factor": factor,
                                "detail": f"{winner}'s {chinese} ({english}) is paid ×{factor}, in place of "
                                          f"every other multiplier"})
    return penalty


def biggest_losers(scores: dict[str, int], losers: list[str]) -> list[str]:
    """The loser(s) with the lowest score (扣分制: 最輸)."""
    if not losers:
        return []
    lowest = min(scores[name] for name in losers)
    return [name for name in losers if scores[name] == lowest]
