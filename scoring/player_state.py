"""One player's hand under the rules: rows evaluated once, foul check, naturals detected and claimed."""

from __future__ import annotations

from typing import Optional

from .errors import ScoringError, shown
from .evaluate import CATEGORIES, RANK_KEY, SUIT_BIT, ONE_SUIT
from .hand_input import HandInput, Rows
from .hand_names import describe_en, describe_zh
from .naturals import HandFeatures
from .row_order import compare_keys, foul_text, in_order, middle_strength, order_text
from .rules import NaturalRule, Rules

ROWS_PLAYED, FOULED, NATURAL, SURRENDERED = "rows", "fouled", "natural", "surrendered"

class PlayerState:
    """A player's hand as the engine sees it (numbers only; the audit adds the words)."""

    __slots__ = ("name", "status", "strengths", "keys", "values", "rows", "natural", "natural_rows",
                 "detected", "foul")

    def __init__(self, name: str, status: str, rows: Optional[Rows] = None, detected: tuple = ()) -> None:
        self.name = name
        self.status = status
        self.rows = rows
        self.detected = detected                          # ids of every natural the cards make
        self.strengths: Optional[tuple[int, int, int]] = None
        self.keys: Optional[tuple[int, int, int]] = None    # per row, higher wins (scoring.row_order)
        self.values: Optional[tuple[int, int, int]] = None   # points each row collects when it wins
        self.natural: Optional[NaturalRule] = None
        self.natural_rows: Optional[Rows] = None
        self.foul: Optional[str] = None


def hand_names(strength: int, rules: Rules) -> tuple[str, str, str]:
    """(category id, English, Chinese) of a row's strength.

    Names only use the category and the top two rank digits (strength >> 12), so the per-rules cache
    stays at a few thousand entries."""
    names = rules.names_cache.get(strength >> 12)
    if names is None:
        names = (CATEGORIES[strength >> 20], describe_en(strength), describe_zh(strength, rules.names_zh))
        rules.names_cache[strength >> 12] = names
    return names


def _strength5(cards: tuple[int, ...], rules: Rules) -> int:
    c0, c1, c2, c3, c4 = cards
    key = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4]
    if (SUIT_BIT[c0] | SUIT_BIT[c1] | SUIT_BIT[c2] | SUIT_BIT[c3] | SUIT_BIT[c4]) in ONE_SUIT:
        return rules.five_flush[key]
    return rules.five_plain[key]


def _foul_reason(strengths: tuple[int, int, int], rules: Rules) -> Optional[str]:
    return foul_text(strengths, rules)


def naturals_found(cards: tuple[int, ...], rules: Rules) -> list[tuple[NaturalRule, object]]:
    """Every natural of the rules that 13 card ints make, with what each check found, best first."""
    features = HandFeatures(cards)
    return [(natural, found) for natural in rules.naturals if (found := natural.check(features)) is not None]


def _claim(hand: HandInput, found: list, rules: Rules, name: str):
    """The natural the player claims (or None): the best one unless the hand says otherwise."""
    wanted = hand.natural
    if wanted is False:
        return None
    if isinstance(wanted, str):
        for natural, result in found:
            if natural.id == wanted:
                return natural, result
        valid = [natural.id for natural in rules.naturals]
        if wanted not in valid:
            raise ScoringError(f"{name}: {shown(wanted)} is not a natural of these rules; "
                               f"naturals: {', '.join(valid) or 'none (naturals are off)'}")
        raise ScoringError(f"{name}: the hand is not {wanted}")
    if found:
        return found[0]
    if wanted is True:
        raise ScoringError(f"{name}: the hand claims a natural but has none")
    return None


def _evaluate_rows(state: PlayerState, rows: Rows, rules: Rules) -> None:
    front, middle, back = rows
    c0, c1, c2 = front
    strengths = (rules.three[RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2]],
                 middle_strength(middle, rules) if rules.low_middle else _strength5(middle, rules),
                 _strength5(back, rules))
    row_values = rules.row_values
    state.strengths = strengths
    state.keys = compare_keys(strengths, rules) if rules.low_middle else strengths
    state.values = (row_values[0][strengths[0] >> 20], row_values[1][strengths[1] >> 20],
                    row_values[2][strengths[2] >> 20])


def player_state(name: str, hand: HandInput, rules: Rules) -> PlayerState:
    """Evaluate one player's hand; ScoringError for a hand that cannot be played under these rules."""
    if hand.surrender:
        if not rules.surrender_allowed:
            raise ScoringError(f"{name}: these rules do not allow surrender (option surrender is off)")
        state = PlayerState(name, SURRENDERED, rows=hand.rows)
        if hand.rows is not None:
            _evaluate_rows(state, hand.rows, rules)  # only to show them
        return state
    if hand.natural not in (None, False) and not rules.naturals:
        raise ScoringError(f"{name}: the hand claims a natural but naturals are off in these rules")
    found = naturals_found(hand.cards, rules) if rules.naturals else ()
    claimed = _claim(hand, found, rules, name) if found or hand.natural not in (None, False) else None
    state = PlayerState(name, ROWS_PLAYED, hand.rows, tuple(n.id for n, _ in found) if found else ())
    if hand.rows is not None:
        _evaluate_rows(state, hand.rows, rules)
    if claimed is not None:
        state.status = NATURAL
        state.natural, found_result = claimed
        state.natural_rows = found_result.rows
        return state
    if hand.rows is None:
        raise ScoringError(f"{name}: arrange the 13 cards as 'front / middle / back' "
                           f"(the hand has no natural to claim)")
    strengths = state.strengths
    if (not in_order(*strengths, rules)) if rules.low_middle else (
            strengths[0] >= strengths[1] or strengths[1] > strengths[2] or
            (rules.strict_order and strengths[1] == strengths[2])):
        state.foul = _foul_reason(strengths, rules)
        if rules.foul_rejected:
            order = order_text(rules)
            raise ScoringError(f"{name}: {rules.terms['foul']}: {state.foul}; rearrange the hand ({order})")
        state.status = FOULED
    return state
