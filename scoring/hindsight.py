"""hindsight(round): for each player, the split of their 13 cards that would have scored the most against
the other hands exactly as laid, and by how much.

Every legal split of a player's cards (scoring.advisor's candidates: each middle/back pair with the
stronger row behind, both orders when equal) is settled against the table in numpy, following
scoring.pairs and scoring.settle step for step: row results (食夾棍 top-card ties included), row points
and royalties, majority, scoop multiplier and bonus, a fouled opponent's payment, and home runs (the
player's own, and an opponent's that needs the player scooped, split evenly where the preset says so).
Pairs with a natural or a surrender do not depend on the split and are settled once by the engine; under
suit tie-breaks a split that ties an opponent's row is settled by the engine too.  The winner is then
settled once more by scoring.settle itself, and the reported numbers are the engine's.  Alternatives
play their rows (a natural is declined, nobody surrenders); ties go to the stronger back, middle, front.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional

import numpy as np

from .advisor import _candidates, _strength_key, refuse_unmodelled
from .cards import CODES
from .errors import ScoringError, shown
from .hand_input import HandInput, parse_hand_input
from .limits import check_document
from .numbers import Exact, to_json
from .options import ROWS
from .pairs import settle_pair
from .player_state import FOULED, NATURAL, ROWS_PLAYED, player_state
from .rules import Rules, resolve_rules
from .settle import GAME, check_banker, check_players, settle_round
from .splits import FIVE_SUBSETS, FRONT_SUBSETS, subset_strengths


class _Pairs:
    """Per pair of the round, over the candidate splits: core, extra and scooper from the first player's view."""

    def __init__(self, seats: list[tuple[int, int]]) -> None:
        self.seats = seats
        self.core: list[Any] = []
        self.extra: list[Any] = []
        self.scooper: list[Any] = []
        self.outcome: list[str] = []


def _bonuses(rules: Rules, base, royalty, wins, losses, foul: bool):
    """scoring.pairs._scoop_and_bonuses on arrays: (core, extra, scooper)."""
    no_loss = rules.scoop_includes_no_loss
    scooper = np.where((losses == 0) & ((wins == 3) | (no_loss & (wins > 0))), 1,
                       np.where((wins == 0) & ((losses == 3) | (no_loss & (losses > 0))), -1, 0))
    if foul and not rules.foul_counts_as_scoop:
        scooper = np.zeros_like(scooper)
    if rules.multiply_royalties:
        core, extra = (base + royalty).astype(np.float64), np.zeros(len(base))
    else:
        core, extra = base.astype(np.float64), royalty.astype(np.float64)
    if rules.majority_bonus:
        extra = extra + rules.majority_bonus * np.where(wins >= 2, 1, np.where(losses >= 2, -1, 0))
    core = np.where(scooper != 0, core * rules.scoop_multiplier, core)
    extra = extra + rules.scoop_bonus * scooper
    return core, extra, scooper


def _rows_against(rules: Rules, mine: list[np.ndarray], my_values: list[np.ndarray], theirs: tuple,
                  their_values: tuple, banker_sign: int):
    """The pair of candidates' rows (``mine``: one strength array per row) against an opponent's laid
    rows, from my view: (core, extra, scooper, whether any row tied)."""
    results = []
    for row in range(3):
        if rules.banker_top_card_ties and banker_sign:
            result = np.sign((mine[row] >> 16) - (theirs[row] >> 16))
            result[result == 0] = banker_sign
        else:
            result = np.sign(mine[row] - theirs[row])
        results.append(result)
    base = results[0] + results[1] + results[2]
    if rules.royalties_always:   # a decided row pays 1; each side's royalties are paid whatever happens
        royalty = (my_values[0] + my_values[1] + my_values[2] - 3) - (sum(their_values) - 3)
    else:
        rows_total = sum(np.where(result > 0, my_values[row], np.where(result < 0, -their_values[row], 0))
                         for row, result in enumerate(results))
        royalty = rows_total - base
    wins = (results[0] > 0).astype(np.int64) + (results[1] > 0) + (results[2] > 0)
    losses = (results[0] < 0).astype(np.int64) + (results[1] < 0) + (results[2] < 0)
    core, extra, scooper = _bonuses(rules, base, royalty, wins, losses, False)
    tied = (results[0] == 0) | (results[1] == 0) | (results[2] == 0)
    return core, extra, scooper, tied


def _against_fouled(rules: Rules, my_values: list[np.ndarray]):
    """My pair with a fouled opponent (scoring.pairs._foul_pair, I win it)."""
    count = len(my_values[0])
    royalty = my_values[0] + my_values[1] + my_values[2] - 3
    return _bonuses(rules, np.full(count, 3), royalty, np.full(count, 3), np.zeros(count, dtype=np.int64), True)


def _round_parts(round_: Any):
    """(rules, names, banker, parsed hands, engine states) of a valid Chinese-poker round."""
    settle_round(round_, audit=False)   # every check the engine makes, with its messages
    rules = resolve_rules(round_["rules"], round_.get("options"))
    refuse_unmodelled(rules)
    players = round_["players"]
    names = check_players(players)
    banker = check_banker(rules, round_.get("banker"), names)
    hands = {name: parse_hand_input(players[name], name, check_repeats=False) for name in names}
    states = {name: player_state(name, hands[name], rules) for name in names}
    return rules, names, banker, hands, states


def _rows_hand(cards: np.ndarray, ids: tuple[int, int, int]) -> HandInput:
    rows = (tuple(cards[FRONT_SUBSETS[ids[0]]].tolist()), tuple(cards[FIVE_SUBSETS[ids[1]]].tolist()),
            tuple(cards[FIVE_SUBSETS[ids[2]]].tolist()))
    return HandInput(rows, rows[0] + rows[1] + rows[2], natural=False)  # type: ignore[arg-type]


def split_nets(round_: Any, player: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(front ids, middle ids, back ids into the player's 13 cards, row strengths (3, n), the player's net
    points) for every legal split of ``player``'s cards, the other hands as laid.  The cards are
    ``hand.cards`` of scoring.hand_input in their given order."""
    rules, names, banker, hands, states = _round_parts(round_)
    return _split_nets(rules, names, banker, hands, states, player)


def _split_nets(rules: Rules, names: list[str], banker: Optional[str], hands: dict, states: dict, player: str):
    cards = np.array(hands[player].cards, dtype=np.int64)
    three, five = subset_strengths(cards, rules.wheel_second)
    front, middle, back = _candidates(three, five, rules.strict_order)
    mine = [three[front], five[middle], five[back]]
    my_values = [np.asarray(rules.row_values[row], dtype=np.int64)[mine[row] >> 20] for row in range(3)]
    count = len(front)
    sample_state = player_state(player, _rows_hand(cards, (front[0], middle[0], back[0])), rules)
    if banker is not None:
        seats = [(names.index(banker), names.index(name)) for name in names if name != banker]
    else:
        seats = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    me = names.index(player)
    pairs = _Pairs(seats)
    ties_to_settle = np.zeros(count, dtype=bool)
    for first, second in seats:
        if me not in (first, second):   # a pair without me: the engine's numbers, the same for every split
            fixed = settle_pair(rules, states[names[first]], states[names[second]],
                                1 if names[first] == banker else -1 if names[second] == banker else 0)
            pairs.core.append(np.full(count, float(fixed.core)))
            pairs.extra.append(np.full(count, float(fixed.extra)))
            pairs.scooper.append(np.full(count, fixed.scooper))
            pairs.outcome.append(fixed.outcome)
            continue
        other = names[second if first == me else first]
        sign = 1 if first == me else -1            # my view -> the pair's first player's view
        their = states[other]
        banker_sign = 1 if player == banker else -1 if other == banker else 0
        if their.status == ROWS_PLAYED:
            core, extra, scooper, tied = _rows_against(rules, mine, my_values, their.strengths, their.values,
                                                       banker_sign)
            outcome = "rows"
            if rules.suit_rank is not None:
                ties_to_settle |= tied
        elif their.status == FOULED:
            core, extra, scooper = _against_fouled(rules, my_values)
            outcome = "foul"
        else:   # a natural or a surrender: my rows do not change it
            fixed = settle_pair(rules, sample_state, their, banker_sign)
            core, extra, scooper = (np.full(count, float(fixed.core)), np.full(count, float(fixed.extra)),
                                    np.full(count, fixed.scooper))
            outcome = fixed.outcome
        pairs.core.append(core * sign)
        pairs.extra.append(extra * sign)
        pairs.scooper.append(scooper * sign)
        pairs.outcome.append(outcome)
    for index in np.flatnonzero(ties_to_settle).tolist():   # suit tie-breaks: the engine settles these
        state = player_state(player, _rows_hand(cards, (front[index], middle[index], back[index])), rules)
        for number, (first, second) in enumerate(seats):
            if me in (first, second) and pairs.outcome[number] == "rows":
                a, b = (state, states[names[second]]) if first == me else (states[names[first]], state)
                fixed = settle_pair(rules, a, b, 1 if a.name == banker else -1 if b.name == banker else 0)
                pairs.core[number][index] = float(fixed.core)
                pairs.extra[number][index] = float(fixed.extra)
                pairs.scooper[number][index] = fixed.scooper
    _home_runs(rules, names, states, player, pairs, count)
    net = np.zeros(count)
    for number, (first, second) in enumerate(seats):
        if me in (first, second):
            net += (pairs.core[number] + pairs.extra[number]) * (1 if first == me else -1)
    return front, middle, back, np.stack(mine), net


def _home_runs(rules: Rules, names: list[str], states: dict, player: str, pairs: _Pairs, count: int) -> None:
    """scoring.settle's home runs on arrays (at most one player home-runs in a round)."""
    if rules.home_run_multiplier == 1:
        return
    for seat, name in enumerate(names):
        own = [(number, 1 if first == seat else -1) for number, (first, second) in enumerate(pairs.seats)
               if seat in (first, second)]
        if len(own) < rules.home_run_min_opponents:
            continue
        status = ROWS_PLAYED if name == player else states[name].status
        if status == ROWS_PLAYED:
            home_run = np.ones(count, dtype=bool)
            for number, sign in own:
                home_run &= pairs.scooper[number] == sign
        elif status == NATURAL and rules.natural_home_run:
            home_run = np.ones(count, dtype=bool)
            for number, sign in own:
                home_run &= pairs.core[number] * sign > 0
        else:
            continue
        if not home_run.any():
            continue
        for number, _ in own:
            pairs.core[number] = np.where(home_run, pairs.core[number] * rules.home_run_multiplier,
                                          pairs.core[number])
        if rules.home_run_split and status != NATURAL:
            share = sum((pairs.core[number] + pairs.extra[number]) * sign for number, sign in own) / len(own)
            for number, sign in own:
                pairs.core[number] = np.where(home_run, share * sign, pairs.core[number])
                pairs.extra[number] = np.where(home_run, 0.0, pairs.extra[number])


def _rows_json(rows: tuple) -> dict[str, list[str]]:
    return {row: [CODES[card] for card in sorted(cards, reverse=True)] for row, cards in zip(ROWS, rows)}


def hindsight(round: dict, player: Optional[str] = None) -> dict:  # noqa: A002 - the documented name
    """For a settled round (scoring's round JSON): per player, the best split against the hands as laid
    (``player``: that player's entry only, as the web page asks for one at a time).

    Returns ``{"rules": preset, "players": {name: {"net": points as played, "best": {"front", "middle",
    "back", "net"} (None for a surrender without cards), "gain": best net - net (0 when the hand as
    played was best), "money_gain": the same in money, "splits": legal splits tried}}}``.  Numbers are
    the engine's (scoring.settle on the round with that one hand changed); fractions as "4/3" text.
    """
    check_document(round)
    if isinstance(round, dict) and round.get("game", GAME) != GAME:
        raise ScoringError("hindsight is for Chinese poker rounds (13 cards in three rows)")
    rules, names, banker, hands, states = _round_parts(round)
    if player is not None and player not in names:
        raise ScoringError(f"{shown(player)} is not a player of this round")
    played = settle_round(round, audit=False)
    result: dict[str, Any] = {"rules": rules.preset, "players": {}}
    for name in names if player is None else [player]:
        entry: dict[str, Any] = {"net": played["net"][name], "best": None, "gain": 0, "money_gain": 0,
                                 "splits": 0}
        result["players"][name] = entry
        if hands[name].cards is None:
            continue
        front, middle, back, strengths, net = _split_nets(rules, names, banker, hands, states, name)
        tied = np.flatnonzero(net >= net.max() - 1e-9)
        best = int(tied[_strength_key(strengths[:, tied]).argmax()])
        cards = np.array(hands[name].cards, dtype=np.int64)
        rows = _rows_hand(cards, (front[best], middle[best], back[best])).rows
        changed = dict(round, players={**round["players"], name: {row: [CODES[c] for c in part] for row, part
                                                                  in zip(ROWS, rows)} | {"natural": False}})
        replayed = settle_round(changed, audit=False)
        entry["splits"] = len(net)
        entry["best"] = {**_rows_json(rows), "net": replayed["net"][name]}
        gain = _exact(replayed["net"][name]) - _exact(played["net"][name])
        money_gain = _exact(replayed["money"][name]) - _exact(played["money"][name])
        entry["gain"] = to_json(gain) if gain > 0 else 0
        entry["money_gain"] = to_json(money_gain) if gain > 0 else 0
        if gain <= 0:   # the hand as played (a natural, or rows as good) was at least as good
            entry["best"]["as_played"] = True
    return result


def _exact(value: Any) -> Exact:
    """A settlement's number (an int, or a fraction written "4/3") as an exact number."""
    return Fraction(value) if isinstance(value, str) else value
