"""Fouled hands (擺烏龍 / 相公): why a hand is fouled, and the nearest legal arrangement of its cards.

legal_fix searches the splits of the 13 cards in order of cards moved (scoring.splits): 0, then the
55 one-swap splits, then the 150 that move three cards, ... and stops at the first group holding a
legal split, so a typical fix looks at a few hundred splits, never more than the 72,072 there are.
Among the legal splits that move the fewest cards it takes the strongest (docs/scoring-presets.md,
"Fixing a fouled hand"):
  1. the most expected row points against random rows: per row, its row value under the preset times
     the odds that it beats a random row of its size (scoring.row_odds); with royalties_paid = always
     the royalty part (row value - 1) counts in full and only the base point is weighted;
  2. then the strongest back, then middle, then front (the engine's row strengths);
  3. then the first in the split table's order (deterministic; it only chooses between suits).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

import numpy as np

from .cards import CODES
from .errors import ScoringError
from .hand_input import Rows, parse_hand_input
from .limits import check_document
from .options import ROWS
from .player_state import player_state
from .row_odds import ODDS_SCALE, win_odds
from .row_order import in_order, middle_strengths_batch, middle_tie_key, middle_win_odds
from .rules import Rules, resolve_rules
from .splits import FIVE_SUBSETS, FRONT_SUBSETS, LAID_ROW, split_table, subset_strengths

# Chunks of the split table searched at once: splits moving <= 3, 4, 5, 6 cards, then all the rest.
_CHUNK_MOVES = (3, 4, 5, 6, 13)


def foul_reason(rows: Any, rules: Any, options: Optional[dict] = None) -> Optional[str]:
    """Why the engine would treat this hand as fouled, in the settlement's words, or None.

    E.g. "middle Pair of Aces beats back Queen high".  None for a hand in order, a surrendered hand
    and one the engine settles as a natural (報到).  Under ``foul = reject`` (fujian) the reason is the
    one the refusal names.  ``rows`` is any hand entry ``scoring.parse_hand`` accepts.
    """
    check_document([rows, rules, options], "the hand and rules")
    resolved = resolve_rules(rules, options)
    hand = parse_hand_input(rows, "hand")
    if resolved.foul_rejected:   # the same check, reporting instead of refusing
        resolved = replace(resolved, foul_rejected=False)
    return player_state("hand", hand, resolved).foul


def legal_fix(rows: Any, rules: Any, options: Optional[dict] = None) -> dict[str, list[str]]:
    """A legal arrangement of the hand's 13 cards moving the fewest cards between rows.

    Returns ``{"front": [3 codes], "middle": [5], "back": [5]}``: the hand itself (canonical codes)
    when its rows are in order; otherwise cards that stay in their row keep their slots and the cards
    moved in fill the freed slots in the order they were laid.  Looks at row order only: a hand that
    plays as a natural may still get a fix (foul_reason says None for it).  ScoringError for a hand
    that is not 13 distinct cards laid 3 / 5 / 5.  Criss cross: ``{"sets": [first, second]}`` returns
    ``{"sets": [fix, fix]}``, each set fixed on its own (a single set is fixed like any hand).
    """
    check_document([rows, rules, options], "the hand and rules")
    resolved = resolve_rules(rules, options)
    if resolved.criss_cross != "off" and isinstance(rows, dict) and "sets" in rows:
        return _fix_sets(rows, resolved)
    return _fix(parse_hand_input(rows, "hand"), resolved)


def _fix_sets(entry: dict, rules: Rules) -> dict:
    """Criss cross: each set fixed on its own (no card moves between the sets, seed 004 line 106)."""
    sets = entry["sets"]
    if set(entry) != {"sets"} or not isinstance(sets, list) or len(sets) != 2:
        raise ScoringError("hand: criss cross takes the two sets as {\"sets\": [first, second]}")
    return {"sets": [_fix(parse_hand_input(hand, f"set {number}"), rules) for number, hand in enumerate(sets, 1)]}


def _fix(hand: Any, resolved: Rules) -> dict[str, list[str]]:
    if hand.rows is None:
        raise ScoringError("hand: a legal fix needs the hand laid out as front / middle / back")
    laid = hand.rows
    cards = np.array(laid[0] + laid[1] + laid[2], dtype=np.int64)
    three, five = subset_strengths(cards, resolved.wheel_second)
    middle = middle_strengths_batch(cards[FIVE_SUBSETS], resolved).astype(np.int64) if resolved.low_middle else five
    table = split_table()
    if _in_order(three[table.front[:1]], middle[table.middle[:1]], five[table.back[:1]], resolved)[0]:
        return _rows_json(laid)
    start = 1
    for most_moves in _CHUNK_MOVES:
        end = table.group_ends[most_moves]
        legal = _in_order(three[table.front[start:end]], middle[table.middle[start:end]],
                          five[table.back[start:end]], resolved)
        if legal.any():
            fewest = int(table.moves[start + int(legal.argmax())])
            fewest_end = table.group_ends[fewest] - start
            best = _strongest(np.flatnonzero(legal[:fewest_end]) + start, three, middle, five, resolved)
            return _rows_json(_arrange(laid, best))
        start = end
    # Not seen on any hand tried (some split always has middle < back), but say so rather than guess.
    raise ScoringError("hand: these 13 cards have no arrangement in order under these rules")


def _in_order(front: np.ndarray, middle: np.ndarray, back: np.ndarray, rules: Rules) -> np.ndarray:
    """The engine's row-order check (scoring.row_order, as settling uses it), on arrays of strengths."""
    return in_order(front, middle, back, rules)


def _strongest(splits: np.ndarray, three: np.ndarray, middles: np.ndarray, five: np.ndarray, rules: Rules) -> int:
    """The split (an index into the split table) that the tie-break in the module docstring prefers."""
    table = split_table()
    front, middle, back = three[table.front[splits]], middles[table.middle[splits]], five[table.back[splits]]
    points = arrangement_points(front, middle, back, rules)
    splits, front, middle, back = (values[points == points.max()] for values in (splits, front, middle, back))
    # Strengths are below 2**24 and a front's low 8 bits are 0, so the three fit in one int64.
    strength_key = (back << 38) | (middle_tie_key(middle, rules) << 14) | (front >> 8)
    return int(splits[strength_key.argmax()])


def arrangement_points(front: np.ndarray, middle: np.ndarray, back: np.ndarray, rules: Rules) -> np.ndarray:
    """Expected row points against random rows (in 1 / ODDS_SCALE) of arrangements given by row strengths."""
    total = np.zeros(len(front), dtype=np.int64)
    for row, strengths, size in ((0, front, 3), (1, middle, 5), (2, back, 5)):
        values = np.array(rules.row_values[row], dtype=np.int64)[strengths >> 20]
        odds = middle_win_odds(strengths, rules) if row == 1 else win_odds(strengths, size, rules.wheel_second)
        total += (values - 1) * ODDS_SCALE + odds if rules.royalties_always else values * odds
    return total


def _arrange(laid: Rows, split: int) -> Rows:
    """The rows of a split: cards kept in their row keep their slots, moved-in cards fill the rest."""
    table = split_table()
    laid_cards = laid[0] + laid[1] + laid[2]
    start = (0, 3, 8)
    arranged = []
    for row, positions in enumerate((FRONT_SUBSETS[table.front[split]], FIVE_SUBSETS[table.middle[split]],
                                     FIVE_SUBSETS[table.back[split]])):
        slots: list[Optional[int]] = [None] * len(laid[row])
        incoming = []
        for position in positions.tolist():
            if LAID_ROW[position] == row:
                slots[position - start[row]] = laid_cards[position]
            else:
                incoming.append(laid_cards[position])
        filler = iter(incoming)
        arranged.append(tuple(card if card is not None else next(filler) for card in slots))
    return tuple(arranged)  # type: ignore[return-value]


def _rows_json(rows: Rows) -> dict[str, list[str]]:
    return {row: [CODES[card] for card in cards] for row, cards in zip(ROWS, rows)}
