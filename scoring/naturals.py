"""Natural (報到 / 特殊牌型) detection from a player's 13 cards.

Each natural in a preset names a *test* (one of TESTS below) with its parameters; the tests here
are generic so that presets stay data.  Arrangement-dependent naturals (three straights, three
flushes, three straight flushes) search every arrangement of the 13 cards and return one that
works, so it can be shown to the players.
"""

from __future__ import annotations

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


_SUIT_KEY = tuple(1 << (4 * (card & 3)) for card in range(52))   # 4 bits of count per suit
# Both keys in one int per card, so one sum gives both (the 39-bit rank key never carries into bit 40).
_BOTH_KEYS = tuple(RANK_KEY[card] | (_SUIT_KEY[card] << 40) for card in range(52))
_RANK_KEY_MASK = (1 << 39) - 1
_RANK_SHIFTS = tuple(3 * rank for rank in range(13))


def _histogram_table() -> list[int]:
    """Packed histogram (4 bits each: ranks held once, twice, three and four times) of every
    12-bit slice of a rank key (four ranks of 3 bits)."""
    table = []
    for chunk in range(1 << 12):
        packed = 0
        for position in range(4):
            count = (chunk >> (3 * position)) & 7
            if 1 <= count <= 4:
                packed += 1 << (4 * (count - 1))
        table.append(packed)
    return table


_HISTOGRAM = _histogram_table()


class HandFeatures:
    """Counts computed once per 13-card hand and shared by every test."""

    __slots__ = ("cards", "rank_key", "suit_key", "singles", "pairs", "trips", "quads")

    def __init__(self, cards: Sequence[int]) -> None:
        self.cards = cards
        both = sum(map(_BOTH_KEYS.__getitem__, cards))
        self.rank_key = rank_key = both & _RANK_KEY_MASK   # 3 bits of count per rank
        self.suit_key = both >> 40                         # 4 bits of count per suit
        # How many ranks the hand holds exactly once, twice, three and four times.
        packed = (_HISTOGRAM[rank_key & 4095] + _HISTOGRAM[(rank_key >> 12) & 4095]
                  + _HISTOGRAM[(rank_key >> 24) & 4095] + _HISTOGRAM[rank_key >> 36])
        self.singles = packed & 15
        self.pairs = (packed >> 4) & 15
        self.trips = (packed >> 8) & 15
        self.quads = packed >> 12

    @property
    def suit_counts(self) -> tuple[int, int, int, int]:
        """How many cards of each suit (S, H, D, C)."""
        key = self.suit_key
        return key & 15, (key >> 4) & 15, (key >> 8) & 15, key >> 12

    @property
    def rank_counts(self) -> list[int]:
        """How many cards of each rank (index 0 = twos)."""
        return [(self.rank_key >> shift) & 7 for shift in _RANK_SHIFTS]


def hand_features(cards: Sequence[int]) -> HandFeatures:
    """Features of a 13-card hand given as card ints."""
    return HandFeatures(cards)


class Found:
    """A natural that the hand makes; ``rows`` is an arrangement showing it, when it needs one."""

    __slots__ = ("rows",)

    def __init__(self, rows: Optional[Rows] = None) -> None:
        self.rows = rows


FOUND = Found()
Check = Callable[[HandFeatures], Optional[Found]]
# A test kind takes the natural's parameters and returns the check for one hand.
Test = Callable[[dict], Check]


def _dragon(params: dict) -> Check:
    return lambda f: FOUND if f.singles == 13 else None


_ONE_SUIT_KEYS = frozenset(13 << (4 * suit) for suit in range(4))


def _same_suit_dragon(params: dict) -> Check:
    return lambda f: FOUND if f.singles == 13 and f.suit_key in _ONE_SUIT_KEYS else None


def _pairs(params: dict) -> Check:
    # A quad counts as two pairs and trips as one (seed 000: three quads "等於六對半").
    wanted = params["at_least"]
    return lambda f: FOUND if f.pairs + f.trips + 2 * f.quads >= wanted else None


def _trips(params: dict) -> Check:
    wanted = params["at_least"]
    return lambda f: FOUND if f.trips + f.quads >= wanted else None


def _quads(params: dict) -> Check:
    wanted = params["at_least"]
    return lambda f: FOUND if f.quads >= wanted else None


def _five_pairs_and_trips(params: dict) -> Check:
    # 5 pairs + 3 of a kind: exactly one rank held three times, every other rank an even number of times.
    return lambda f: FOUND if f.trips == 1 and f.singles == 0 else None


def _two_full_houses_and_pair(params: dict) -> Check:
    # 2 trips + 3 pairs + 1 odd card (seed 002 双怪冲三: "2 对葫芦+1 个对子+任意 1 张杂牌").
    def check(f: HandFeatures) -> Optional[Found]:
        if f.trips + f.quads < 2:
            return None
        counts = f.rank_counts
        trips_ranks = [rank for rank, count in enumerate(counts) if count >= 3]
        for first, second in combinations(trips_ranks, 2):
            rest = list(counts)
            rest[first] -= 3
            rest[second] -= 3
            if sum(count // 2 for count in rest) >= 3:
                return FOUND
        return None
    return check


def _cards_in_ranks(params: dict) -> Check:
    indices = tuple(RANKS.index(rank) for rank in params["ranks"])
    wanted = params["at_least"]
    outside = sum(7 << (3 * rank) for rank in range(13) if rank not in indices)
    if wanted == 13:
        return lambda f: FOUND if f.rank_key & outside == 0 else None

    shifts = tuple(3 * rank for rank in indices)

    def check(f: HandFeatures) -> Optional[Found]:
        key = f.rank_key
        return FOUND if sum([(key >> shift) & 7 for shift in shifts]) >= wanted else None
    return check


def _one_color(params: dict) -> Check:
    # Suit-key bits of the suits outside each allowed group: none of them may be held.
    first, second = (sum(15 << (4 * suit) for suit in range(4) if SUITS[suit] not in group)
                     for group in params["colors"])
    return lambda f: FOUND if not f.suit_key & first or not f.suit_key & second else None


def _order_fives(front: Sequence[int], first: Sequence[int], second: Sequence[int]) -> Rows:
    """An arrangement with the weaker five-card row in the middle."""
    if evaluate_five(first) > evaluate_five(second):
        first, second = second, first
    return tuple(sorted(front)), tuple(sorted(first)), tuple(sorted(second))


def _three_flush_suit_keys() -> frozenset[int]:
    """Suit keys of every suit count that splits into one-suit rows of 3, 5 and 5 cards."""
    keys = set()
    for suits in product(range(4), repeat=3):
        key = 0
        for suit, size in zip(suits, (3, 5, 5)):
            key += size << (4 * suit)
        keys.add(key)
    return frozenset(keys)


_THREE_FLUSH_KEYS = _three_flush_suit_keys()


def _find_three_flushes(f: HandFeatures) -> Optional[Found]:
    if f.suit_key not in _THREE_FLUSH_KEYS:
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


def _three_flushes(params: dict) -> Check:
    return _find_three_flushes


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


def _three_straights(params: dict) -> Check:
    splits = _three_straight_keys(params["front_straights"])

    def check(f: HandFeatures) -> Optional[Found]:
        split = splits.get(f.rank_key)
        if split is None:
            return None
        pool = sorted(f.cards)
        front, middle, back = (_take_ranks(pool, ranks) for ranks in split)
        return Found(_order_fives(front, middle, back))
    return check


_FIVE_STRAIGHT_SETS = {frozenset(ranks) for ranks in FIVE_STRAIGHTS}


def _three_straight_flushes(params: dict) -> Check:
    front_names = FRONT_STRAIGHT_RULES[params["front_straights"]]
    splits = _three_straight_keys(params["front_straights"])

    def check(f: HandFeatures) -> Optional[Found]:
        # Every row a straight flush implies three straights and three flushes: cheap gates first.
        if f.rank_key not in splits or _find_three_flushes(f) is None:
            return None
        held = set(f.cards)
        for front_name in front_names:
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
                            frozenset(card >> 2 for card in back) in _FIVE_STRAIGHT_SETS:
                        return Found(_order_fives(front, middle, back))
        return None
    return check


TESTS: dict[str, Test] = {
    "same-suit-dragon": _same_suit_dragon,
    "dragon": _dragon,
    "pairs": _pairs,
    "trips": _trips,
    "quads": _quads,
    "five-pairs-and-trips": _five_pairs_and_trips,
    "two-full-houses-and-pair": _two_full_houses_and_pair,
    "cards-in-ranks": _cards_in_ranks,
    "one-color": _one_color,
    "three-flushes": _three_flushes,
    "three-straights": _three_straights,
    "three-straight-flushes": _three_straight_flushes,
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
