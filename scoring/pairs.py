"""Settling one pair of players: rows, royalties, majority and scoop bonuses, fouls, naturals, surrender.

This is the numeric pass: it records what was applied as small tuples in ``PairResult.applied``
(rule, detail, running total) and leaves the wording to scoring.audit.  Amounts are signed from
the pair's first player's view.  ``core`` is the part that a home run multiplies (row points, or
only their base 1-per-row part when royalties are not multiplied, or a natural's points);
``extra`` is the rest (bonuses that are never multiplied).
"""

from __future__ import annotations

from typing import Optional

from .numbers import Exact
from .player_state import FOULED, NATURAL, SURRENDERED, PlayerState
from .rules import Rules

ROWS_OUTCOME, FOUL_OUTCOME, BOTH_FOULED, NATURAL_OUTCOME, SURRENDER_OUTCOME = (
    "rows", "foul", "both-fouled", "natural", "surrender")
TOP_CARD_NOTE, SUITS_NOTE = "top-card", "suits"


class PairResult:
    __slots__ = ("a", "b", "outcome", "results", "points", "notes", "scooper", "full_scoop",
                 "core", "extra", "applied")

    def __init__(self, a: PlayerState, b: PlayerState, outcome: str) -> None:
        self.a = a
        self.b = b
        self.outcome = outcome
        self.results: Optional[tuple] = None   # per row: +1 a won, -1 b won, 0 tie
        self.points: Optional[tuple] = None    # per row: points its winner collected
        self.notes: Optional[list] = None      # per row: which special tie rule decided it, if any
        self.scooper = 0                       # +1: a scooped b, -1: b scooped a
        self.full_scoop = False                # all three rows (not only 辗过)
        self.core: Exact = 0
        self.extra: Exact = 0
        self.applied: list = []                # (rule, detail, running total) for the audit

    def record(self, rule: str, detail: object = None) -> None:
        self.applied.append((rule, detail, self.core + self.extra))


def _suit_order_key(cards: tuple[int, ...], suit_rank: tuple[int, ...]) -> list[int]:
    """Suit strengths of a row's cards in significance order (bigger groups, then higher ranks first)."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    ordered = sorted(cards, key=lambda card: (counts[card >> 2], card >> 2, suit_rank[card & 3]), reverse=True)
    return [suit_rank[card & 3] for card in ordered]


def _special_tie(rules: Rules, a: PlayerState, b: PlayerState, row: int, banker_sign: int) -> tuple[int, Optional[str]]:
    """Row result under 食夾棍 or suit tie-breaks: (+1/-1/0, note)."""
    sa, sb = a.keys[row], b.keys[row]   # higher wins (a low middle's key is flipped, scoring.row_order)
    if rules.banker_top_card_ties and banker_sign:
        ka, kb = sa >> 16, sb >> 16   # category and top card only
        if ka != kb:
            return (1 if ka > kb else -1), None
        return banker_sign, TOP_CARD_NOTE
    if sa != sb:
        return (1 if sa > sb else -1), None
    if rules.suit_rank is not None:
        key_a = _suit_order_key(a.rows[row], rules.suit_rank)
        key_b = _suit_order_key(b.rows[row], rules.suit_rank)
        if key_a != key_b:
            return (1 if key_a > key_b else -1), SUITS_NOTE
    return 0, None


def _scoop_and_bonuses(pair: PairResult, rules: Rules, wins: int, losses: int, base: int, royalty: int) -> None:
    """Apply the majority bonus, scoop multiplier and scoop bonus once the rows are known."""
    scooper = 0
    if losses == 0 and (wins == 3 or (rules.scoop_includes_no_loss and wins > 0)):
        scooper = 1
    elif wins == 0 and (losses == 3 or (rules.scoop_includes_no_loss and losses > 0)):
        scooper = -1
    if pair.outcome == FOUL_OUTCOME and not rules.foul_counts_as_scoop:
        scooper = 0
    if rules.multiply_royalties:
        pair.core, pair.extra = base + royalty, 0
    else:
        pair.core, pair.extra = base, royalty
    if rules.majority_bonus and (wins >= 2 or losses >= 2):
        sign = 1 if wins >= 2 else -1
        pair.extra += rules.majority_bonus * sign
        pair.record("majority", sign)
    pair.scooper = scooper
    if not scooper:
        return
    pair.full_scoop = wins == 3 or losses == 3
    if rules.scoop_multiplier == 1 and not rules.scoop_bonus and rules.home_run_multiplier == 1:
        return  # these rules give a scoop no meaning of its own
    pair.core *= rules.scoop_multiplier
    pair.record("scoop", scooper)
    if rules.scoop_bonus:
        pair.extra += rules.scoop_bonus * scooper
        pair.record("scoop-bonus", scooper)


def _rows_pair(rules: Rules, a: PlayerState, b: PlayerState, banker_sign: int) -> PairResult:
    pair = PairResult(a, b, ROWS_OUTCOME)
    sa, sb = a.keys, b.keys
    if rules.banker_top_card_ties or rules.suit_rank is not None:
        decided = [_special_tie(rules, a, b, row, banker_sign) for row in range(3)]
        results = tuple(result for result, _ in decided)
        if any(note for _, note in decided):
            pair.notes = [note for _, note in decided]
    else:
        results = ((sa[0] > sb[0]) - (sa[0] < sb[0]), (sa[1] > sb[1]) - (sa[1] < sb[1]),
                   (sa[2] > sb[2]) - (sa[2] < sb[2]))
    va, vb = a.values, b.values
    r0, r1, r2 = results
    if rules.royalties_always:
        points = (r0 != 0, r1 != 0, r2 != 0)
        points = (int(points[0]), int(points[1]), int(points[2]))
    else:
        points = (va[0] if r0 > 0 else vb[0] if r0 else 0, va[1] if r1 > 0 else vb[1] if r1 else 0,
                  va[2] if r2 > 0 else vb[2] if r2 else 0)
    pair.results = results
    pair.points = points
    base = r0 + r1 + r2
    rows_total = r0 * points[0] + r1 * points[1] + r2 * points[2]
    royalty = rows_total - base
    pair.core = rows_total
    pair.record("rows")
    if rules.royalties_always:
        extra_a, extra_b = va[0] + va[1] + va[2] - 3, vb[0] + vb[1] + vb[2] - 3
        if extra_a or extra_b:
            royalty += extra_a - extra_b
            pair.core = base + royalty
            pair.record("royalties", (extra_a, extra_b))
    wins = results.count(1)
    losses = results.count(-1)
    _scoop_and_bonuses(pair, rules, wins, losses, base, royalty)
    return pair


def _foul_pair(rules: Rules, a: PlayerState, b: PlayerState) -> PairResult:
    pair = PairResult(a, b, FOUL_OUTCOME)
    sign = 1 if b.status == FOULED else -1
    winner = a if sign > 0 else b
    pair.results = (sign, sign, sign)
    pair.points = winner.values
    royalty = sum(winner.values) - 3
    pair.core = sign * (3 + royalty)
    pair.record("foul", sign)
    wins, losses = (3, 0) if sign > 0 else (0, 3)
    _scoop_and_bonuses(pair, rules, wins, losses, 3 * sign, royalty * sign)
    return pair


def _natural_pair(rules: Rules, a: PlayerState, b: PlayerState, banker_sign: int) -> PairResult:
    pair = PairResult(a, b, NATURAL_OUTCOME)
    if a.status == NATURAL and b.status == NATURAL:
        policy = rules.natural_vs_natural
        if policy == "tie":
            pair.record("natural", "tie")
        elif policy == "banker-pays-player" and banker_sign:
            player = b if banker_sign > 0 else a
            pair.core = player.natural.points * -banker_sign
            pair.record("natural", "banker-pays")
        elif a.natural.rank == b.natural.rank:
            pair.record("natural", "equal")
        else:
            higher = a if a.natural.rank > b.natural.rank else b
            pair.core = higher.natural.points * (1 if higher is a else -1)
            pair.record("natural", "beats")
        return pair
    holder = a if a.status == NATURAL else b
    pair.core = holder.natural.points * (1 if holder is a else -1)
    pair.record("natural", "wins")
    return pair


def _surrender_pair(rules: Rules, a: PlayerState, b: PlayerState) -> PairResult:
    pair = PairResult(a, b, SURRENDER_OUTCOME)
    if a.status == SURRENDERED and b.status == SURRENDERED:
        pair.record("surrender", "both")
        return pair
    quitter, other = (a, b) if a.status == SURRENDERED else (b, a)
    if other.status == FOULED:
        pair.record("surrender", "fouled")
        return pair
    pair.extra = rules.surrender_cost * (-1 if quitter is a else 1)
    pair.record("surrender", "pays")
    return pair


def settle_pair(rules: Rules, a: PlayerState, b: PlayerState, banker_sign: int = 0) -> PairResult:
    """Settle a pair; ``banker_sign`` is +1 when a is the banker, -1 when b is, 0 without a banker."""
    status_a, status_b = a.status, b.status
    if status_a == status_b == "rows":
        return _rows_pair(rules, a, b, banker_sign)
    if status_a == NATURAL or status_b == NATURAL:
        return _natural_pair(rules, a, b, banker_sign)
    if status_a == SURRENDERED or status_b == SURRENDERED:
        return _surrender_pair(rules, a, b)
    if status_a == FOULED and status_b == FOULED:
        pair = PairResult(a, b, BOTH_FOULED)
        pair.record("foul", 0)
        return pair
    return _foul_pair(rules, a, b)
