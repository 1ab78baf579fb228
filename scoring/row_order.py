"""The preset's own row comparison: how a row is read, which rows must be in order, and why a hand is fouled.

One place for what varies with the rules (seed 004's 変種 "low in the middle", line 105): the settlement
(scoring.player_state, scoring.pairs), foul_reason and legal_fix (scoring.fouls) all read rows through here,
so a foul is judged the same way everywhere.

* Standard play: every row is a high hand; front < middle < back (or middle <= back, ``row_order``).
* ``low_middle``: the middle is a deuce-to-seven low hand (A-2-3-4-5 is ace high, not a straight; straights
  and flushes count as made hands) and the *lower* middle wins.  Its comparison key is the high strength
  with all 24 bits flipped, so the usual "higher key wins" compares it, and ``key >> 16`` still orders
  category and top card (食夾棍).  The foul rule is ``low_middle_order``: front-below-back (only the front
  must rank below the back) or high-order (the middle, read as deuce-to-seven reads it, must still lie
  between front and back).

Functions taking strengths accept ints or numpy arrays of the same shape.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Any, Optional, Sequence

import numpy as np

from .evaluate import ONE_SUIT, RANK_KEY, SUIT_BIT, evaluate_five_batch, five_card_tables, strength_of_ranks
from .hand_names import describe_en
from .row_odds import FIVE_ROWS, ODDS_SCALE, win_odds

LOW_FLIP = (1 << 24) - 1   # strengths are below 2**24


def low_tables() -> tuple[dict[int, int], dict[int, int]]:
    """(plain, flush) strength tables of a deuce-to-seven middle: A-2-3-4-5 is ace high."""
    return five_card_tables(False, False)


def middle_strength(cards: Sequence[int], rules: Any) -> int:
    """A low middle's strength (as a high hand, deuce-to-seven's reading) from 5 card ints."""
    c0, c1, c2, c3, c4 = cards
    key = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4]
    if (SUIT_BIT[c0] | SUIT_BIT[c1] | SUIT_BIT[c2] | SUIT_BIT[c3] | SUIT_BIT[c4]) in ONE_SUIT:
        return rules.middle_flush[key]
    return rules.middle_plain[key]


def middle_strengths_batch(cards: Any, rules: Any) -> Any:
    """Middle strengths of an (N, 5) array of card ints under the rules (numpy)."""
    if rules.low_middle:
        return evaluate_five_batch(cards, False, False)
    return evaluate_five_batch(cards, rules.wheel_second)


def compare_keys(strengths: tuple, rules: Any) -> tuple:
    """Per-row keys where the higher key wins the row: the strengths, with a low middle's flipped."""
    if not rules.low_middle:
        return strengths
    return (strengths[0], LOW_FLIP ^ strengths[1], strengths[2])


def middle_key(strengths: Any) -> Any:
    """A low middle's comparison key (ints or arrays)."""
    return LOW_FLIP ^ strengths


def in_order(front: Any, middle: Any, back: Any, rules: Any) -> Any:
    """Whether rows of these strengths are legal under the rules (bools, or a bool array)."""
    if rules.low_middle and not rules.low_middle_high_order:
        return front < back
    return (front < middle) & ((middle < back) if rules.strict_order else (middle <= back))


def order_text(rules: Any) -> str:
    """The row order in words, for the refusal under foul = reject."""
    if rules.low_middle and not rules.low_middle_high_order:
        return "front < back; the middle plays low"
    return "front < middle < back" if rules.strict_order else "front < middle ≤ back"


def foul_text(strengths: tuple, rules: Any) -> Optional[str]:
    """Why rows of these strengths are fouled, in the settlement's words, or None."""
    front, middle, back = strengths
    if rules.low_middle and not rules.low_middle_high_order:
        if front >= back:
            return f"front {describe_en(front)} is not below back {describe_en(back)}"
        return None
    if front >= middle:
        return f"front {describe_en(front)} is not below middle {describe_en(middle)}"
    if middle > back or (rules.strict_order and middle == back):
        verb = "beats" if middle > back else "ties"
        return f"middle {describe_en(middle)} {verb} back {describe_en(back)}"
    return None


@lru_cache(maxsize=1)
def _low_odds_table() -> tuple[np.ndarray, np.ndarray]:
    """(every deuce-to-seven middle strength, ascending; its odds in 1 / ODDS_SCALE of beating a random
    5-card row played low: the share of all C(52,5) rows that are worse, i.e. stronger, ties half)."""
    counts: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        per_rank = [ranks.count(rank) for rank in set(ranks)]
        if max(per_rank) > 4:
            continue
        flushes = 4 if len(per_rank) == 5 else 0
        plain = strength_of_ranks(ranks, False, False, False)
        counts[plain] = counts.get(plain, 0) + prod(comb(4, count) for count in per_rank) - flushes
        if flushes:
            flush = strength_of_ranks(ranks, True, False, False)
            counts[flush] = counts.get(flush, 0) + flushes
    strengths = np.array(sorted(counts), dtype=np.int64)
    equal = np.array([counts[s] for s in strengths.tolist()], dtype=np.int64)
    above = FIVE_ROWS - np.cumsum(equal)
    return strengths, (2 * above + equal) * ODDS_SCALE // (2 * FIVE_ROWS)


def middle_win_odds(strengths: Any, rules: Any) -> Any:
    """Odds (in 1 / scoring.row_odds.ODDS_SCALE) that middles of these strengths beat a random middle."""
    if not rules.low_middle:
        return win_odds(strengths, 5, rules.wheel_second)
    known, odds = _low_odds_table()
    return odds[np.searchsorted(known, strengths)]


def middle_tie_key(strengths: Any, rules: Any) -> Any:
    """The middle's part of "strongest back, then middle" tie-breaks: its comparison key (ints or arrays)."""
    return LOW_FLIP ^ strengths if rules.low_middle else strengths
