"""best_arrangement: the split of 13 cards with the most expected points per opponent under a preset.

The estimate (docs/scoring-presets.md, "Best arrangement"): each opponent's rows are drawn from the
preset's self-play table (scoring.advisor_model: rows that this advisor laid on random hands), reweighted
for card removal (the opponent's cards avoid the player's), one row independently of the others.  Per
row that gives exact chances to win, tie and lose and the opponent's expected row points; the pair's
settlement terms are then exact under that independence:
  row points and royalties (row-winner or always), the scoop multiplier (打槍, 辗过 included) and scoop
  bonus, the majority bonus, and home runs (my scoop of every opponent, the others' of everyone, with
  the table's scoop rate), all as in scoring.pairs; the 11-point game's fourth point likewise, and its
  overall bonus from the distribution of my row total (opponents independent) and the self-play chance
  of being the round's top at each total.
Every legal split is scored (36,036 unordered middle/back pairs per front, both orders where the two
rows are equal; all 72,072 ordered splits when the middle plays low), in numpy, so the maximum is exact
for the estimate (the 11-point game's overall term is skipped only where a bound shows that a split can be
neither the best nor the runner-up).  A natural the preset pays is compared with the best rows: its points (doubled by a
home run where the preset says so) against the rows' expectation.  Not modelled: opponents' naturals
and surrenders (a constant for every split), suit tie-breaks and 食夾棍 (ties are pushes), a banker
game's banker edge.  Criss cross: each set is advised on its own against the sets it meets.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional

import numpy as np

from .cards import CODES
from .errors import ScoringError, shown
from .advisor_model import OpponentModel, RowModel, opponent_model, removal_weights, row_chances
from .hand_input import parse_hand_input
from .limits import check_document
from .naturals import hand_features
from .row_order import LOW_FLIP, in_order, middle_strengths_batch
from .rules import Rules, resolve_rules
from .splits import FIVE_SUBSETS, FRONT_SUBSETS, split_table, subset_strengths

ROW_NAMES = ("front", "middle", "back")
TOTAL_OFFSET = 9   # the 11-point tables index a row total of -9 .. 9 from 0


@lru_cache(maxsize=1)
def unordered_splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(front id, five id A, five id B) of the 36,036 splits with A < B: each middle/back pair once."""
    table = split_table()
    keep = table.middle < table.back
    return (table.front[keep].astype(np.intp), table.middle[keep].astype(np.intp),
            table.back[keep].astype(np.intp))


@lru_cache(maxsize=1)
def ordered_splits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(front id, middle id, back id) of all 72,072 splits (a low middle is not a back's equal)."""
    table = split_table()
    return table.front.astype(np.intp), table.middle.astype(np.intp), table.back.astype(np.intp)


class HandRows:
    """One hand's subsets: 3-card strengths, 5-card strengths, and the middle's (deuce-to-seven when low)."""

    def __init__(self, cards: np.ndarray, rules: Rules) -> None:
        self.cards = cards
        self.three, self.five = subset_strengths(cards, rules.wheel_second)
        self.middle = (middle_strengths_batch(cards[FIVE_SUBSETS], rules).astype(np.int64) if rules.low_middle
                       else self.five)


def candidates(hand: HandRows, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(front, middle, back) subset ids of every legal split (scoring.row_order's check)."""
    if rules.low_middle:
        front, middle, back = ordered_splits()
        keep = np.flatnonzero(in_order(hand.three[front], hand.middle[middle], hand.five[back], rules))
        return front[keep], middle[keep], back[keep]
    three, five = hand.three, hand.five
    front, first, second = unordered_splits()
    s_first, s_second = five[first], five[second]
    legal = three[front] < np.minimum(s_first, s_second)
    if rules.strict_order:
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


def _row_terms(row_model: RowModel, rules: Rules, row: int, strengths: np.ndarray, keys: np.ndarray,
               probability: Optional[np.ndarray]) -> list[np.ndarray]:
    """Per subset: win, tie, lose, my points when I win, opponent's expected points when they win."""
    values = np.asarray(rules.row_values[row], dtype=np.float64)
    win, tie, lose, their_points = row_chances(row_model, keys, rules.row_values[row], probability)
    if rules.royalties_always:   # a won row pays 1; the royalties are paid apart
        mine, their_points = np.ones_like(win), lose
    else:
        mine = values[strengths >> 20]
    return [win, tie, lose, mine, their_points]


class Gathered:
    """Per-subset row terms (_row_terms' five arrays per row) read at the candidates' subset ids, each
    gathered only when the rules' terms need it (the gathers are most of the cost)."""

    def __init__(self, per_row: list, ids: tuple) -> None:
        self.per_row, self.ids = per_row, ids
        self.cache: dict = {}

    def __call__(self, row: int, part: int) -> np.ndarray:
        found = self.cache.get((row, part))
        if found is None:
            found = self.cache[(row, part)] = self.per_row[row][part][self.ids[row]]
        return found

    def rows(self) -> list[list[np.ndarray]]:
        return [[self(row, part) for part in range(5)] for row in range(3)]


def _expected(rules: Rules, model: OpponentModel, opponents: int, terms: Gathered,
              extras: Any, their_royalty: float) -> np.ndarray:
    """Expected points per opponent of candidate splits; ``terms`` is _row_terms' five arrays per row at
    the candidates, ``extras`` my royalty total (row values - 1 summed) for royalties_always (0 when
    every value is 1), ``their_royalty`` an opponent's expected one."""
    w0, w1, w2, l0, l1, l2 = terms(0, 0), terms(1, 0), terms(2, 0), terms(0, 2), terms(1, 2), terms(2, 2)
    base = w0 + w1 + w2 - l0 - l1 - l2
    home_runs = rules.home_run_multiplier > 1 and opponents >= rules.home_run_min_opponents
    multiplier = rules.scoop_multiplier
    if multiplier == 1 and not rules.scoop_bonus and not home_runs:   # no scoop terms: the rows' sum only
        if rules.royalties_always:
            total = base + (extras - their_royalty)
        elif any(np.any(np.asarray(values) != 1) for values in rules.row_values):
            total = sum(terms(row, 0) * terms(row, 3) - terms(row, 4) for row in range(3))
        else:
            total = base
    else:
        total = _scoop_terms(rules, model, opponents, terms.rows(), base, extras, their_royalty, home_runs)
    if rules.majority_bonus:
        wins2 = w0 * w1 + w0 * w2 + w1 * w2 - 2 * w0 * w1 * w2
        losses2 = l0 * l1 + l0 * l2 + l1 * l2 - 2 * l0 * l1 * l2
        total = total + rules.majority_bonus * (wins2 - losses2)
    if rules.fourth_point != "none" and opponents + 1 >= rules.fourth_point_min_players:
        swept, swept_by = w0 * w1 * w2, l0 * l1 * l2
        if rules.fourth_point == "per-scoop":
            total = total + swept - swept_by
        else:   # home-run: from each opponent when I sweep them all; to one who sweeps everyone
            total = total + swept ** opponents - swept_by * model.scoop_rate ** (opponents - 1)
    return total


def _scoop_terms(rules: Rules, model: OpponentModel, opponents: int, terms: list[np.ndarray], base: np.ndarray,
                 extras: np.ndarray, their_royalty: float, home_runs: bool) -> np.ndarray:
    """Rows, royalties, the scoop multiplier and bonus and home runs (scoring.pairs, rows independent)."""
    (w0, t0, l0, m0, o0), (w1, t1, l1, m1, o1), (w2, t2, l2, m2, o2) = terms
    rows_total = w0 * m0 + w1 * m1 + w2 * m2 - o0 - o1 - o2
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
        royalty = extras - their_royalty
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
    if home_runs:
        others = opponents - 1   # the other opponents: I must scoop them too, or one of them scoops all
        total = total + (rules.home_run_multiplier - 1) * multiplier * (
            core_mine * scoop_mine ** others + core_theirs * model.scoop_rate ** others)
    return total


def overall_payoffs(rules: Rules, players: int) -> tuple[np.ndarray, np.ndarray]:
    """(what I collect in all when I am among ``winners`` top players, what I pay when others are), by
    winners - 1: scoring.table_points' overall bonus."""
    collect, pay = np.zeros(4), np.zeros(4)
    for winners in range(1, min(players, 4) + 1):
        losers = players - winners
        if losers == 0 or (winners > 1 and not rules.overall_ties_share):
            continue
        share = rules.overall_bonus / winners
        paid = share if rules.overall_payment_each else share / losers
        collect[winners - 1], pay[winners - 1] = paid * losers, paid * winners
    return collect, pay


def _overall_values(rules: Rules, model: OpponentModel, opponents: int) -> np.ndarray:
    """The overall bonus per opponent at each of my row totals -3 * opponents .. 3 * opponents."""
    totals = np.arange(-3 * opponents, 3 * opponents + 1)
    if model.top is None:   # no table (the first self-play pass): a positive total tops the round
        top, others = np.zeros((len(totals), 4)), np.zeros((len(totals), 4))
        top[totals > 0, 0], others[totals < 0, 0] = 1.0, 1.0 / opponents
    else:
        rows = slice(TOTAL_OFFSET - 3 * opponents, TOTAL_OFFSET + 3 * opponents + 1)
        top, others = model.top[opponents - 1, rows], model.others_top[opponents - 1, rows]
    collect, pay = overall_payoffs(rules, opponents + 1)
    return (top @ collect - others @ pay) / opponents


def _overall_term(rules: Rules, model: OpponentModel, opponents: int, per_row: list, ids: tuple) -> np.ndarray:
    """E[value(my row total)] per split, the total being the sum over independent opponents of rows won
    minus lost (rows independent): its generating function P(x)^opponents, P(x) = prod over rows of
    (lose / x + tie + win x), read at the roots of unity (exact for the 6 * opponents + 1 totals)."""
    values = _overall_values(rules, model, opponents)
    reach = 3 * opponents
    points = 2 * reach + 1
    j = np.arange(1, reach + 1)
    roots = np.exp(2j * np.pi * j / points)                     # omega ** j, j = 1 .. reach
    # U_j = sum_t values[t] omega ** (-j t): the values' transform at the same points.
    transform = (values[None, :] * np.exp(-2j * np.pi * np.outer(j, np.arange(-reach, reach + 1)) / points)).sum(1)
    product = None
    for terms, subset in zip(per_row, ids):   # per subset, then read at the candidates
        win, lose = terms[0], terms[2]
        factor = lose[:, None] / roots + (1.0 - win - lose)[:, None] + win[:, None] * roots
        product = factor[subset] if product is None else product * factor[subset]
    generating = product
    for _ in range(opponents - 1):
        generating = generating * product
    # Re(G U) summed over the roots, without a BLAS call (its threads cost more than they save here).
    real = (generating.real * transform.real - generating.imag * transform.imag).sum(axis=1)
    return (values.sum() + 2.0 * real) / points


def _rows_json(cards: np.ndarray, ids: tuple[int, int, int], expected: float) -> dict:
    rows = (FRONT_SUBSETS[ids[0]], FIVE_SUBSETS[ids[1]], FIVE_SUBSETS[ids[2]])
    result: dict[str, Any] = {name: [CODES[card] for card in sorted(cards[row].tolist(), reverse=True)]
                              for name, row in zip(ROW_NAMES, rows)}
    result["expected"] = round(float(expected), 3)
    return result


def score_splits(hand_cards: np.ndarray, rules: Rules, opponents: int, model: Optional[OpponentModel] = None,
                 held: Optional[np.ndarray] = None) -> tuple:
    """(front ids, middle ids, back ids, strengths (3, n), expected points) of every legal split
    (model: the preset's opponent model unless given, as the self-play build does; held: the cards the
    opponents cannot hold, the hand's own by default)."""
    hand, (front, middle, back), expected = _scored(hand_cards, rules, opponents, model, held)
    strengths = np.stack((hand.three[front], hand.middle[middle], hand.five[back]))
    return front, middle, back, strengths, expected


def _scored(hand_cards: np.ndarray, rules: Rules, opponents: int, model: Optional[OpponentModel],
            held: Optional[np.ndarray], exact_all: bool = True) -> tuple:
    """(the hand's subsets, candidate ids, their expected points: every one exact, or with exact_all=False
    only those that can be the best or the runner-up, -inf elsewhere)."""
    hand = HandRows(hand_cards, rules)
    front, middle, back = candidates(hand, rules)
    model = model or opponent_model(rules)
    held = hand_cards if held is None else held
    probabilities = [removal_weights(row_model, held) for row_model in model.rows]
    middle_keys = LOW_FLIP ^ hand.middle if rules.low_middle else hand.middle
    per_row = [_row_terms(model.rows[0], rules, 0, hand.three, hand.three, probabilities[0]),
               _row_terms(model.rows[1], rules, 1, hand.middle, middle_keys, probabilities[1]),
               _row_terms(model.rows[2], rules, 2, hand.five, hand.five, probabilities[2])]
    return hand, (front, middle, back), _estimate(rules, model, opponents, per_row, probabilities, hand,
                                                 (front, middle, back), exact_all)


def _estimate(rules: Rules, model: OpponentModel, opponents: int, per_row: list, probabilities: list,
              hand: HandRows, ids: tuple, exact_all: bool = True) -> np.ndarray:
    """Expected points per candidate; exact_all=False may leave -inf where a split can be neither the
    best nor the runner-up (the 11-point game's overall term, _with_overall_pruned)."""
    extras: Any = 0.0
    their_royalty = 0.0
    if rules.royalties_always and any(np.any(np.asarray(values) != 1) for values in rules.row_values):
        subsets = (hand.three, hand.middle, hand.five)
        extras = sum((np.asarray(rules.row_values[row], dtype=np.float64)[subsets[row] >> 20] - 1)[ids[row]]
                     for row in range(3))
        their_royalty = sum(float((probability * (np.asarray(rules.row_values[row], dtype=np.float64)
                                                  [row_model.strengths >> 20] - 1)).sum())
                            for row, (row_model, probability) in enumerate(zip(model.rows, probabilities)))
    terms = Gathered(per_row, ids)
    expected = _expected(rules, model, opponents, terms, extras, their_royalty)
    if rules.overall_bonus:
        if exact_all:
            return expected + _overall_term(rules, model, opponents, per_row, ids)
        return _with_overall_pruned(rules, model, opponents, per_row, ids, terms, expected, hand)
    return expected


_EXACT_FIRST = 32   # candidates whose overall term is computed before pruning the rest


def _with_overall_pruned(rules: Rules, model: OpponentModel, opponents: int, per_row: list, ids: tuple,
                         terms: "Gathered", expected: np.ndarray, hand: "HandRows") -> np.ndarray:
    """expected + the overall term where it can decide the best split or the runner-up; -inf elsewhere.

    The term is E[value(T)] for my row total T, and E[T] = opponents * sum over rows of (win - lose),
    so by Jensen it is at most value's concave envelope at E[T]: a split whose estimate plus that bound
    falls below a lower bound on the runner-up's value (the runner-up among the splits computed first)
    can be neither, and its term is not computed.  The best and the runner-up stay exact."""
    count = len(expected)
    if count <= 2 * _EXACT_FIRST:
        return expected + _overall_term(rules, model, opponents, per_row, ids)
    values = _overall_values(rules, model, opponents)
    totals = np.arange(-3 * opponents, 3 * opponents + 1, dtype=np.float64)
    hull_x, hull_y = concave_envelope(totals, values)
    mean_total = opponents * (terms(0, 0) + terms(1, 0) + terms(2, 0) - terms(0, 2) - terms(1, 2) - terms(2, 2))
    upper = expected + np.interp(mean_total, hull_x, hull_y)
    first = np.argpartition(-upper, _EXACT_FIRST - 1)[:_EXACT_FIRST]
    exact_first = expected[first] + _overall_term(rules, model, opponents, per_row, tuple(i[first] for i in ids))
    key = strength_key(np.stack((hand.three[ids[0][first]], hand.middle[ids[1][first]], hand.five[ids[2][first]])),
                       rules)
    best = int(exact_first.argmax())
    others = key != key[best]
    if not others.any():   # only suit changes of one split so far: no bound on the runner-up
        return expected + _overall_term(rules, model, opponents, per_row, ids)
    floor = float(exact_first[others].max()) - 1e-6   # the runner-up scores at least this much
    keep = np.flatnonzero(upper >= floor)
    result = np.full(count, -np.inf)
    result[keep] = expected[keep] + _overall_term(rules, model, opponents, per_row, tuple(i[keep] for i in ids))
    return result


def concave_envelope(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The vertices of the least concave function above the points (x ascending): its upper hull."""
    hull: list[int] = []
    for point in range(len(x)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]   # drop b when it lies on or below the chord from a to the new point
            if (y[b] - y[a]) * (x[point] - x[a]) <= (y[point] - y[a]) * (x[b] - x[a]):
                hull.pop()
            else:
                break
        hull.append(point)
    return x[hull], y[hull]


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


def best_split(hand_cards: np.ndarray, rules: Rules, opponents: int,
               model: Optional[OpponentModel] = None) -> tuple[tuple[int, int, int], np.ndarray, float]:
    """((front, middle, back) subset ids, their strengths, expected points) of the best legal split."""
    hand, (front, middle, back), expected = _scored(hand_cards, rules, opponents, model, None, exact_all=False)
    best, _ = _best_two(expected, hand, (front, middle, back), rules)
    ids = (int(front[best]), int(middle[best]), int(back[best]))
    return ids, np.array([hand.three[ids[0]], hand.middle[ids[1]], hand.five[ids[2]]]), float(expected[best])


def strength_key(strengths: np.ndarray, rules: Optional[Rules] = None) -> np.ndarray:
    """One int64 ordering back, then middle (its comparison key), then front (strengths < 2**24; a
    front's low 8 bits are 0)."""
    middle = LOW_FLIP ^ strengths[1] if rules is not None and rules.low_middle else strengths[1]
    return (strengths[2] << 38) | (middle << 14) | (strengths[0] >> 8)


_strength_key = strength_key


_SHORTLIST = 256


def _best_two(expected: np.ndarray, hand: HandRows, ids: tuple, rules: Rules) -> tuple[int, Optional[int]]:
    """(the best candidate, the runner-up: the best whose row strengths differ, or None), ties to the
    stronger back, middle, front: judged on a shortlist of the highest estimates (row strengths are read
    for those only), or on every candidate when a tie reaches the shortlist's edge."""
    count = len(expected)
    if count > _SHORTLIST:
        shortlist = np.sort(np.argpartition(-expected, _SHORTLIST - 1)[:_SHORTLIST])   # in candidate order
        edge = float(expected[shortlist].min())
    else:
        shortlist, edge = np.arange(count), -np.inf
    front, middle, back = ids
    key = strength_key(np.stack((hand.three[front[shortlist]], hand.middle[middle[shortlist]],
                                 hand.five[back[shortlist]])), rules)
    values = expected[shortlist]
    best = _top(values, key)
    others = key != key[best]
    second = _top(np.where(others, values, -np.inf), key) if others.any() else None
    if values[best] - 1e-9 <= edge or second is None or values[second] - 1e-9 <= edge:
        if count > _SHORTLIST:   # the shortlist cannot decide: every candidate
            key = strength_key(np.stack((hand.three[front], hand.middle[middle], hand.five[back])), rules)
            best = _top(expected, key)
            others = key != key[best]
            return best, (_top(np.where(others, expected, -np.inf), key) if others.any() else None)
    return int(shortlist[best]), (None if second is None else int(shortlist[second]))


def _top(expected: np.ndarray, key: np.ndarray) -> int:
    """The most expected points; among equal ones (to 1e-9) the strongest back, middle, front."""
    tied = np.flatnonzero(expected >= expected.max() - 1e-9)
    return int(tied[key[tied].argmax()])


def sets_faced(rules: Rules) -> int:
    """Criss cross: how many of the opponent's sets each of a player's sets is compared with."""
    return 2 if rules.criss_cross == "each-vs-each" else 1


def best_arrangement(cards: Any, rules: Any, options: Optional[dict] = None, players: int = 4) -> dict:
    """The legal split of 13 cards with the most expected points per opponent, and the runner-up.

    ``cards``: 13 cards in any form scoring.parse_hand accepts (rows are ignored).  Returns
    ``{"best": {"front", "middle", "back", "expected"}, "runner_up": {...} (the best split whose row
    strengths differ from the best's: not a mere change of suits), "natural": the natural to claim
    instead, or None, "model": the opponent model used}``.  Ties go to the stronger back, then middle,
    then front.  See the module docstring for the estimate.

    Criss cross (two players): ``cards`` is one set (13 cards; ``expected`` is per opponent set it meets)
    or ``{"sets": [first, second]}``, which returns ``{"sets": [advice, advice], "model": ...}``, each
    set advised on its own with both sets' cards out of the opponent's reach; ``players`` is not used.
    """
    check_document([cards, rules, options], "the hand and rules")
    resolved = resolve_rules(rules, options)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ScoringError(f"players must be 2, 3 or 4, not {shown(players)}")
    if resolved.criss_cross != "off":
        return _criss_cross_advice(cards, resolved)
    hand = parse_hand_input(cards, "hand")
    if hand.cards is None or len(hand.cards) != 13:
        raise ScoringError("hand: the advisor needs the hand's 13 cards")
    opponents = 1 if resolved.banker_mode else players - 1
    return _advice(np.array(hand.cards, dtype=np.int64), hand.cards, resolved, opponents, None)


def _criss_cross_advice(cards: Any, rules: Rules) -> dict:
    if isinstance(cards, dict) and "sets" in cards:
        sets = cards["sets"]
        if set(cards) != {"sets"} or not isinstance(sets, list) or len(sets) != 2:
            raise ScoringError("hand: criss cross takes the two sets as {\"sets\": [first, second]}")
        hands = [parse_hand_input(entry, f"set {number}") for number, entry in enumerate(sets, 1)]
        for number, hand in enumerate(hands, 1):
            if hand.cards is None or len(hand.cards) != 13:
                raise ScoringError(f"set {number}: the advisor needs the set's 13 cards")
        if set(hands[0].cards) & set(hands[1].cards):
            raise ScoringError("the two sets share a card: criss cross deals them from one deck")
        held = np.array(hands[0].cards + hands[1].cards, dtype=np.int64)
        advice = [_advice(np.array(hand.cards, dtype=np.int64), hand.cards, rules, sets_faced(rules), held)
                  for hand in hands]
        return {"sets": advice, "model": advice[0]["model"]}
    hand = parse_hand_input(cards, "hand")
    if hand.cards is None or len(hand.cards) != 13:
        raise ScoringError("hand: the advisor needs the set's 13 cards (or {\"sets\": [first, second]})")
    return _advice(np.array(hand.cards, dtype=np.int64), hand.cards, rules, sets_faced(rules), None)


def _advice(laid: np.ndarray, hand_cards: tuple, rules: Rules, opponents: int, held: Optional[np.ndarray]) -> dict:
    hand, (front, middle, back), expected = _scored(laid, rules, opponents, None, held, exact_all=False)
    if len(expected) == 0:   # not seen on any hand: some split always has its rows in order
        raise ScoringError("hand: these 13 cards have no arrangement in order under these rules")
    best, second = _best_two(expected, hand, (front, middle, back), rules)
    result: dict[str, Any] = {
        "best": _rows_json(laid, (front[best], middle[best], back[best]), expected[best]),
        "runner_up": None, "natural": None, "model": opponent_model(rules).source}
    if second is not None:
        result["runner_up"] = _rows_json(laid, (front[second], middle[second], back[second]), expected[second])
    natural = _natural_offer(hand_cards, rules, opponents)
    if natural is not None and natural["expected"] >= result["best"]["expected"]:
        result["natural"] = natural
    return result
