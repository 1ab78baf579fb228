"""Natural (報到 / 特殊牌型) detection from a player's 13 cards.

Each natural in a preset names a *test* (one of TESTS below) with its parameters; the tests here
are generic so that presets stay data.  Arrangement-dependent naturals (three straights, three
flushes, three straight flushes) search every arrangement of the 13 cards and return one that
works, so it can be shown to the players.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Callable, Optional, Sequence

from .cards import RANKS, SUITS
from .evaluate import RANK_KEY, evaluate_five

Rows = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

# Rank-index triples / quintuples of straights (A plays low in A-2-3 and A-2-3-4-5; no wrap-arounds).
FRONT_STRAIGHTS: dict[str, tuple[int, ...]] = {
    "".join(RANKS[r] for r in ranks): ranks
    for ranks in [(12, 0, 1)] + [(low, low + 1, low + 2) for low in range(11)]
}
FIVE_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    [(12, 0, 1, 2, 3)] + [tuple(range(low, low + 5)) for low in range(9)])
FRONT_STRAIGHT_RULES = {
    "standard": tuple(FRONT_STRAIGHTS),                                   # A-2-3 up to Q-K-A
    "no-qka": tuple(name for name in FRONT_STRAIGHTS if name != "QKA"),   # seeds 000/001: QKA、KA2 除外
}


@dataclass(frozen=True, slots=True)
class HandFeatures:
    """Counts computed once per 13-card hand and shared by every test."""

    cards: tuple[int, ...]
    rank_counts: tuple[int, ...]     # 13 entries, index 0 = twos
    suit_counts: tuple[int, ...]     # 4 entries, S H D C
    count_histogram: tuple[int, ...]  # how many ranks appear 0, 1, 2, 3, 4 times
    rank_key: int                    # 3 bits of count per rank (same key as evaluate.RANK_KEY)


def hand_features(cards: Sequence[int]) -> HandFeatures:
    """Features of a 13-card hand given as card ints."""
    rank_counts = [0] * 13
    suit_counts = [0] * 4
    rank_key = 0
    for card in cards:
        rank_counts[card >> 2] += 1
        suit_counts[card & 3] += 1
        rank_key += RANK_KEY[card]
    histogram = [0] * 5
    for count in rank_counts:
        histogram[count] += 1
    return HandFeatures(tuple(cards), tuple(rank_counts), tuple(suit_counts), tuple(histogram), rank_key)


@dataclass(frozen=True, slots=True)
class Found:
    """A natural that the hand makes; ``rows`` is an arrangement showing it, when it needs one."""

    rows: Optional[Rows] = None


FOUND = Found()
Test = Callable[[HandFeatures, dict], Optional[Found]]


def _is_dragon(f: HandFeatures, params: dict) -> Optional[Found]:
    return FOUND if f.count_histogram[1] == 13 else None


def _is_same_suit_dragon(f: HandFeatures, params: dict) -> Optional[Found]:
    return FOUND if f.count_histogram[1] == 13 and max(f.suit_counts) == 13 else None


def _has_pairs(f: HandFeatures, params: dict) -> Optional[Found]:
    # A quad counts as two pairs and trips as one (seed 000: three quads "等於六對半").
    h = f.count_histogram
    return FOUND if h[2] + h[3] + 2 * h[4] >= params["at_least"] else None


def _has_trips(f: HandFeatures, params: dict) -> Optional[Found]:
    h = f.count_histogram
    return FOUND if h[3] + h[4] >= params["at_least"] else None


def _has_quads(f: HandFeatures, params: dict) -> Optional[Found]:
    return FOUND if f.count_histogram[4] >= params["at_least"] else None


def _is_five_pairs_and_trips(f: HandFeatures, params: dict) -> Optional[Found]:
    # 5 pairs + 3 of a kind: exactly one rank held three times, every other rank an even number of times.
    h = f.count_histogram
    return FOUND if h[3] == 1 and h[1] == 0 else None


def _is_two_full_houses_and_pair(f: HandFeatures, params: dict) -> Optional[Found]:
    # 2 trips + 3 pairs + 1 odd card (seed 002 双怪冲三: "2 对葫芦+1 个对子+任意 1 张杂牌").
    h = f.count_histogram
    if h[3] + h[4] < 2:
        return None
    trips_ranks = [rank for rank, count in enumerate(f.rank_counts) if count >= 3]
    for first, second in combinations(trips_ranks, 2):
        rest = list(f.rank_counts)
        rest[first] -= 3
        rest[second] -= 3
        if sum(count // 2 for count in rest) >= 3:
            return FOUND
    return None


def _cards_in_ranks(f: HandFeatures, params: dict) -> Optional[Found]:
    wanted = sum(f.rank_counts[RANKS.index(rank)] for rank in params["ranks"])
    return FOUND if wanted >= params["at_least"] else None


def _is_one_color(f: HandFeatures, params: dict) -> Optional[Found]:
    held = {SUITS[suit] for suit, count in enumerate(f.suit_counts) if count}
    return FOUND if any(held <= set(group) for group in params["colors"]) else None


def _order_fives(front: Sequence[int], first: Sequence[int], second: Sequence[int]) -> Rows:
    """An arrangement with the weaker five-card row in the middle."""
    if evaluate_five(first) > evaluate_five(second):
        first, second = second, first
    return tuple(sorted(front)), tuple(sorted(first)), tuple(sorted(second))


# Suit-count shapes (largest first) that split into one-suit rows of 3, 5 and 5 cards.
_THREE_FLUSH_SHAPES = {(5, 5, 3, 0), (8, 5, 0, 0), (10, 3, 0, 0), (13, 0, 0, 0)}


def _is_three_flushes(f: HandFeatures, params: dict) -> Optional[Found]:
    if tuple(sorted(f.suit_counts, reverse=True)) not in _THREE_FLUSH_SHAPES:
        return None
    by_suit = [sorted(card for card in f.cards if card & 3 == suit) for suit in range(4)]
    for front_suit, middle_suit, back_suit in product(range(4), repeat=3):
        need = [0, 0, 0, 0]
        need[front_suit] += 3
        need[middle_suit] += 5
        need[back_suit] += 5
        if tuple(need) != f.suit_counts:
            continue
        pools = {suit: list(cards) for suit, cards in enumerate(by_suit)}
        front = [pools[front_suit].pop(0) for _ in range(3)]  # lowest cards of that suit go in front
        middle = [pools[middle_suit].pop(0) for _ in range(5)]
        back = [pools[back_suit].pop(0) for _ in range(5)]
        return Found(_order_fives(front, middle, back))
    return None


@lru_cache(maxsize=None)
def _three_straight_keys(front_rule: str) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Rank key of every 13-card rank multiset that splits into three straights -> one split."""
    keys: dict[int, tuple[tuple[int, ...], ...]] = {}
    for front_name in FRONT_STRAIGHT_RULES[front_rule]:
        front = FRONT_STRAIGHTS[front_name]
        for middle, back in combinations(FIVE_STRAIGHTS + FIVE_STRAIGHTS, 2):
            counts = [0] * 13
            for rank in front + middle + back:
                counts[rank] += 1
            if max(counts) > 4:
                continue
            key = sum(count << (3 * rank) for rank, count in enumerate(counts))
            keys.setdefault(key, (front, middle, back))
    return keys


def _take_ranks(pool: list[int], ranks: Sequence[int]) -> list[int]:
    taken = []
    for rank in ranks:
        card = next(card for card in pool if card >> 2 == rank)
        pool.remove(card)
        taken.append(card)
    return taken


def _is_three_straights(f: HandFeatures, params: dict) -> Optional[Found]:
    split = _three_straight_keys(params["front_straights"]).get(f.rank_key)
    if split is None:
        return None
    pool = sorted(f.cards)
    front, middle, back = (_take_ranks(pool, ranks) for ranks in split)
    return Found(_order_fives(front, middle, back))


def _is_three_straight_flushes(f: HandFeatures, params: dict) -> Optional[Found]:
    # Every row a straight flush implies both of these cheap conditions; check them first.
    if _is_three_flushes(f, params) is None or _is_three_straights(f, params) is None:
        return None
    held = set(f.cards)
    for front_name in FRONT_STRAIGHT_RULES[params["front_straights"]]:
        for suit in range(4):
            front = [rank * 4 + suit for rank in FRONT_STRAIGHTS[front_name]]
            if not held.issuperset(front):
                continue
            rest = held.difference(front)
            for ranks, middle_suit in product(FIVE_STRAIGHTS, range(4)):
                middle = [rank * 4 + middle_suit for rank in ranks]
                if not rest.issuperset(middle):
                    continue
                back = sorted(rest.difference(middle))
                if len({card & 3 for card in back}) == 1 and \
                        sorted(card >> 2 for card in back) in [sorted(s) for s in FIVE_STRAIGHTS]:
                    return Found(_order_fives(front, middle, back))
    return None


TESTS: dict[str, Test] = {
    "same-suit-dragon": _is_same_suit_dragon,
    "dragon": _is_dragon,
    "pairs": _has_pairs,
    "trips": _has_trips,
    "quads": _has_quads,
    "five-pairs-and-trips": _is_five_pairs_and_trips,
    "two-full-houses-and-pair": _is_two_full_houses_and_pair,
    "cards-in-ranks": _cards_in_ranks,
    "one-color": _is_one_color,
    "three-flushes": _is_three_flushes,
    "three-straights": _is_three_straights,
    "three-straight-flushes": _is_three_straight_flushes,
}

# Parameters each test needs; the rules loader checks preset data against this.
TEST_PARAMETERS: dict[str, frozenset[str]] = {
    "same-suit-dragon": frozenset(), "dragon": frozenset(),
    "pairs": frozenset({"at_least"}), "trips": frozenset({"at_least"}), "quads": frozenset({"at_least"}),
    "five-pairs-and-trips": frozenset(), "two-full-houses-and-pair": frozenset(),
    "cards-in-ranks": frozenset({"ranks", "at_least"}), "one-color": frozenset({"colors"}),
    "three-flushes": frozenset(), "three-straights": frozenset({"front_straights"}),
    "three-straight-flushes": frozenset({"front_straights"}),
}
