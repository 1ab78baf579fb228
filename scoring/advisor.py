"""best_arrangement: the split of 13 cards with the most expected points per opponent under a preset.

The estimate (docs/scoring-presets.md, "Best arrangement"): each opponent's rows are drawn from the
preset's self-play table (scoring.advisor_model: rows that this advisor laid on random hands), one row
independently of the others.  Per row that gives exact chances to win, tie and lose and the opponent's
expected row points; the pair's settlement terms are then exact under that independence:
  row points and royalties (row-winner or always), the scoop multiplier (打槍, 辗过 included) and scoop
  bonus, the majority bonus, and home runs (my scoop of every opponent, the others' of everyone, with
  the table's scoop rate), all as in scoring.pairs.
Every legal split is scored (36,036 unordered middle/back pairs per front, both orders where the two
rows are equal), in numpy, so the maximum is exact for the estimate.  A natural the preset pays is
compared with the best rows: its points (doubled by a home run where the preset says so) against the
rows' expectation.  Not modelled: opponents' naturals and surrenders (a constant for every split),
suit tie-breaks and 食夾棍 (ties are pushes), a banker game's banker edge.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional

import numpy as np

from .cards import CODES
from .errors import ScoringError, shown
from .advisor_model import OpponentModel, opponent_model, row_chances
from .hand_input import parse_hand_input
from .limits import check_document
from .naturals import hand_features
from .rules import Rules, resolve_rules
from .splits import FIVE_SUBSETS, FRONT_SUBSETS, split_table, subset_strengths

ROW_NAMES = ("front", "middle", "back")


@lru_cache(maxsize=1)
def unordered_splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(front id, five id A, five id B) of the 36,036 splits with A < B: each middle/back pair once."""
    table = split_table()
    keep = table.middle < table.back
    return (table.front[keep].astype(np.intp), table.middle[keep].astype(np.intp),
            table.back[keep].astype(np.intp))


def _row_terms(model: OpponentModel, rules: Rules, row: int, strengths: np.ndarray) -> list[np.ndarray]:
    """Per subset: win, tie, lose, my points when I win, opponent's expected points when they win."""
    values = np.asarray(rules.row_values[row], dtype=np.float64)
    win, tie, lose, their_points = row_chances(model.rows[row], strengths, rules.row_values[row])
    if rules.royalties_always:   # a won row pays 1; the royalties are paid apart
        mine, their_points = np.ones_like(win), lose
    else:
        mine = values[strengths >> 20]
    return [win, tie, lose, mine, their_points]


def _expected(rules: Rules, model: OpponentModel, opponents: int, terms: list[np.ndarray],
              extras: np.ndarray) -> np.ndarray:
    """Expected points per opponent of candidate splits; ``terms[row]`` is _row_terms' five arrays,
    ``extras`` my royalty total (row values - 1 summed) for royalties_always."""
    (w0, t0, l0, m0, o0), (w1, t1, l1, m1, o1), (w2, t2, l2, m2, o2) = terms
    rows_total = w0 * m0 + w1 * m1 + w2 * m2 - o0 - o1 - o2
    base = w0 + w1 + w2 - l0 - l1 - l2
    no_loss = 1.0 if rules.scoop_includes_no_loss else 0.0
    up0, up1, up2 = w0 + no_loss * t0, w1 + no_loss * t1, w2 + no_loss * t2
    dn0, dn1, dn2 = l0 + no_loss * t0, l1 + no_loss * t1, l2 + no_loss * t2
    all_tie = no_loss * t0 * t1 * t2
    scoop_mine = up0 * up1 * up2 - all_tie
    scoop_theirs = dn0 * dn1 * dn2 - all_tie
    # E[x * 1{scoop}] for the rows' sum x: each row's share times the other rows not being lost.
    rows_mine = w0 * m0 * up1 * up2 + w1 * m1 * up0 * up2 + w2 * m2 * up0 * up1
    rows_theirs = -(o0 * dn1 * dn2 + o1 * dn0 * dn2 + o2 * dn0 * dn1)
    base_mine = w0 * up1 * up2 + w1 * up0 * up2 + w2 * up0 * up1
    base_theirs = -(l0 * dn1 * dn2 + l1 * dn0 * dn2 + l2 * dn0 * dn1)
    if rules.royalties_always:
        royalty = extras - model_royalty(rules, model)
        core_mine, core_theirs = base_mine, base_theirs
        if rules.multiply_royalties:
            core, extra = base + royalty, 0.0
            core_mine, core_theirs = base_mine + royalty * scoop_mine, base_theirs + royalty * scoop_theirs
        else:
            core, extra = base, royalty
    elif rules.multiply_royalties:
        core, extra, core_mine, core_theirs = rows_total, 0.0, rows_mine, rows_theirs
    else:
        core, extra, core_mine, core_theirs = base, rows_total - base, base_mine, base_theirs
    multiplier = rules.scoop_multiplier
    total = core + (multiplier - 1) * (core_mine + core_theirs) + extra
    total = total + rules.scoop_bonus * (scoop_mine - scoop_theirs)
    if rules.majority_bonus:
        wins2 = w0 * w1 + w0 * w2 + w1 * w2 - 2 * w0 * w1 * w2
        losses2 = l0 * l1 + l0 * l2 + l1 * l2 - 2 * l0 * l1 * l2
        total = total + rules.majority_bonus * (wins2 - losses2)
    if rules.home_run_multiplier > 1 and opponents >= rules.home_run_min_opponents:
        others = opponents - 1   # the other opponents: I must scoop them too, or one of them scoops all
        total = total + (rules.home_run_multiplier - 1) * multiplier * (
            core_mine * scoop_mine ** others + core_theirs * model.scoop_rate ** others)
    return total


def model_royalty(rules: Rules, model: OpponentModel) -> float:
    """An opponent's expected royalty total (row values - 1, summed) under the model."""
    total = 0.0
    for row, row_model in enumerate(model.rows):
        values = np.asarray(rules.row_values[row], dtype=np.float64)
        total += float((row_model.probability * (values[row_model.strengths >> 20] - 1)).sum())
    return total


def _candidates(three: np.ndarray, five: np.ndarray, strict: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(front, middle, back) subset ids of every legal split: the stronger five-card row behind."""
    front, first, second = unordered_splits()
    s_first, s_second = five[first], five[second]
    legal = three[front] < np.minimum(s_first, s_second)
    if strict:
        legal &= s_first != s_second
    keep = np.flatnonzero(legal)
    front, first, second, s_first, s_second = (a[keep] for a in (front, first, second, s_first, s_second))
    swap = s_first > s_second
    middle, back = np.where(swap, second, first), np.where(swap, first, second)
    equal = np.flatnonzero(s_first == s_second)   # both orders legal: add the other one
    if len(equal):
        front, middle, back = (np.concatenate((front, front[equal])), np.concatenate((middle, back[equal])),
                               np.concatenate((back, middle[equal])))
    return front, middle, back


def _natural_offer(hand_cards: tuple[int, ...], rules: Rules, opponents: int) -> Optional[dict]:
    """The best natural the cards make under the rules, with its points per opponent, or None."""
    if not rules.naturals:
        return None
    features = hand_features(hand_cards)
    for natural in rules.naturals:
        if natural.check(features) is not None:
            points = float(natural.points)
            if rules.natural_home_run and rules.home_run_multiplier > 1 \
                    and opponents >= rules.home_run_min_opponents:
                points *= rules.home_run_multiplier
            return {"id": natural.id, "en": natural.en, "zh": natural.zh, "expected": round(points, 3)}
    return None


def _rows_json(cards: np.ndarray, ids: tuple[int, int, int], expected: float) -> dict:
    rows = (FRONT_SUBSETS[ids[0]], FIVE_SUBSETS[ids[1]], FIVE_SUBSETS[ids[2]])
    result: dict[str, Any] = {name: [CODES[card] for card in sorted(cards[row].tolist(), reverse=True)]
                              for name, row in zip(ROW_NAMES, rows)}
    result["expected"] = round(float(expected), 3)
    return result


def score_splits(hand_cards: np.ndarray, rules: Rules, opponents: int,
                 model: Optional[OpponentModel] = None) -> tuple:
    """(front ids, middle ids, back ids, strengths (3, n), expected points) of every legal split
    (model: the preset's opponent model unless given, as the self-play build does)."""
    three, five = subset_strengths(hand_cards, rules.wheel_second)
    front, middle, back = _candidates(three, five, rules.strict_order)
    model = model or opponent_model(rules)
    per_front = _row_terms(model, rules, 0, three)
    per_middle = _row_terms(model, rules, 1, five)
    per_back = _row_terms(model, rules, 2, five)
    strengths = np.stack((three[front], five[middle], five[back]))
    extras = np.zeros(len(front))
    if rules.royalties_always:
        extras = sum(np.asarray(rules.row_values[row], dtype=np.float64)[strengths[row] >> 20] - 1
                     for row in range(3))
    terms = [[part[ids] for part in per_row] for per_row, ids in
             ((per_front, front), (per_middle, middle), (per_back, back))]
    return front, middle, back, strengths, _expected(rules, model, opponents, terms, extras)


def refuse_unmodelled(rules: Rules) -> None:
    """ScoringError for rules the advisor and hindsight do not model: seed 004's 変種 (a deuce-to-seven
    middle, criss-cross's two sets, the 11-point game's fourth point and overall bonus)."""
    if getattr(rules, "variant", False) or getattr(rules, "low_middle", False):
        raise ScoringError(f"rules {rules.preset}: the arrangement advisor does not play seed 004's variants "
                           f"(low middle, criss-cross, the 11-point game) yet")


def best_split(hand_cards: np.ndarray, rules: Rules, opponents: int,
               model: Optional[OpponentModel] = None) -> tuple[tuple[int, int, int], np.ndarray, float]:
    """((front, middle, back) subset ids, their strengths, expected points) of the best legal split."""
    front, middle, back, strengths, expected = score_splits(hand_cards, rules, opponents, model)
    best = _top(expected, _strength_key(strengths))
    return (int(front[best]), int(middle[best]), int(back[best])), strengths[:, best], float(expected[best])


def _strength_key(strengths: np.ndarray) -> np.ndarray:
    """One int64 ordering back, then middle, then front (strengths < 2**24; a front's low 8 bits are 0)."""
    return (strengths[2] << 38) | (strengths[1] << 14) | (strengths[0] >> 8)


def _top(expected: np.ndarray, strength_key: np.ndarray) -> int:
    """The most expected points; among equal ones (to 1e-9) the strongest back, middle, front."""
    tied = np.flatnonzero(expected >= expected.max() - 1e-9)
    return int(tied[strength_key[tied].argmax()])


def best_arrangement(cards: Any, rules: Any, options: Optional[dict] = None, players: int = 4) -> dict:
    """The legal split of 13 cards with the most expected points per opponent, and the runner-up.

    ``cards``: 13 cards in any form scoring.parse_hand accepts (rows are ignored).  Returns
    ``{"best": {"front", "middle", "back", "expected"}, "runner_up": {...} (the best split whose row
    strengths differ from the best's: not a mere change of suits), "natural": the natural to claim
    instead, or None, "model": the opponent model used}``.  Ties go to the stronger back, then middle,
    then front.  See the module docstring for the estimate.
    """
    check_document([cards, rules, options], "the hand and rules")
    resolved = resolve_rules(rules, options)
    refuse_unmodelled(resolved)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ScoringError(f"players must be 2, 3 or 4, not {shown(players)}")
    hand = parse_hand_input(cards, "hand")
    if hand.cards is None or len(hand.cards) != 13:
        raise ScoringError("hand: the advisor needs the hand's 13 cards")
    opponents = 1 if resolved.banker_mode else players - 1
    laid = np.array(hand.cards, dtype=np.int64)
    front, middle, back, strengths, expected = score_splits(laid, resolved, opponents)
    if len(expected) == 0:   # not seen on any hand: some split always has its rows in order
        raise ScoringError("hand: these 13 cards have no arrangement in order under these rules")
    strength_key = _strength_key(strengths)
    best = _top(expected, strength_key)
    result: dict[str, Any] = {
        "best": _rows_json(laid, (front[best], middle[best], back[best]), expected[best]),
        "runner_up": None, "natural": None, "model": opponent_model(resolved).source}
    others = strength_key != strength_key[best]
    if others.any():
        second = _top(np.where(others, expected, -np.inf), strength_key)
        result["runner_up"] = _rows_json(laid, (front[second], middle[second], back[second]), expected[second])
    natural = _natural_offer(hand.cards, resolved, opponents)
    if natural is not None and natural["expected"] >= result["best"]["expected"]:
        result["natural"] = natural
    return result
