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

from .advisor import HandRows, candidates, strength_key
from .cards import CODES
from .errors import ScoringError, shown
from .hand_input import HandInput, parse_hand_input
from .limits import check_document
from .numbers import Exact, to_json
from .options import ROWS
from .pairs import settle_pair
from .player_state import FOULED, NATURAL, ROWS_PLAYED, player_state
from .rules import Rules, resolve_rules
from .criss_cross import comparisons, seat_name
from .row_order import LOW_FLIP
from .settle import GAME, check_banker, check_players, settle_round
from .splits import FIVE_SUBSETS, FRONT_SUBSETS


class _Pairs:
    """Per pair of the round, over the candidate splits: core, extra and scooper from the first player's view."""

    def __init__(self, seats: list[tuple[int, int]]) -> None:
        self.seats = seats
        self.core: list[Any] = []
        self.extra: list[Any] = []
        self.scooper: list[Any] = []
        self.outcome: list[str] = []
        self.swept: list[Any] = []      # +1 where the first player won all three rows, -1 the second, else 0


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
    swept = np.where(wins == 3, 1, np.where(losses == 3, -1, 0))
    return core, extra, scooper, tied, swept


def _against_fouled(rules: Rules, my_values: list[np.ndarray]):
    """My pair with a fouled opponent (scoring.pairs._foul_pair, I win it)."""
    count = len(my_values[0])
    royalty = my_values[0] + my_values[1] + my_values[2] - 3
    return _bonuses(rules, np.full(count, 3), royalty, np.full(count, 3), np.zeros(count, dtype=np.int64), True)


class Table:
    """A settled round's seats: names (criss cross: one seat per set, "Ann (set 1)"), parsed hands, engine
    states, the banker's seat and the compared pairs (first seat, second seat, 1 where the first banks)."""

    def __init__(self, rules: Rules, names: list[str], banker: Optional[str], hands: dict, states: dict,
                 pairs: list[tuple[int, int, int]], partners: Optional[dict] = None) -> None:
        self.rules, self.names, self.banker, self.hands, self.states, self.pairs = \
            rules, names, banker, hands, states, pairs
        self.partners = partners or {}   # criss cross: seat -> the same player's other seat


def _table(round_: Any) -> Table:
    """The Table of a valid Chinese-poker round (settle's own checks and messages first)."""
    settle_round(round_, audit=False)   # every check the engine makes, with its messages
    rules = resolve_rules(round_["rules"], round_.get("options"))
    players = round_["players"]
    names = check_players(players)
    banker = check_banker(rules, round_.get("banker"), names)
    if rules.criss_cross != "off":
        return _criss_cross_table(rules, names, banker, players)
    hands = {name: parse_hand_input(players[name], name, check_repeats=False) for name in names}
    states = {name: player_state(name, hands[name], rules) for name in names}
    if banker is not None:
        pairs = [(names.index(banker), names.index(name), 1) for name in names if name != banker]
    else:
        pairs = [(i, j, 0) for i in range(len(names)) for j in range(i + 1, len(names))]
    return Table(rules, names, banker, hands, states, pairs)


def _criss_cross_table(rules: Rules, names: list[str], banker: Optional[str], players: dict) -> Table:
    """scoring.criss_cross's seats and comparisons."""
    seats, hands = [], {}
    for name in names:
        for number, hand in enumerate(players[name]["sets"], 1):
            seat = seat_name(name, number)
            seats.append(seat)
            hands[seat] = parse_hand_input(hand, seat, check_repeats=False)
    states = {seat: player_state(seat, hands[seat], rules) for seat in seats}
    pairs = [(seats.index(a), seats.index(b), banked) for a, b, banked in comparisons(rules, names, banker)]
    partners = {seat_name(name, number): seat_name(name, 3 - number) for name in names for number in (1, 2)}
    return Table(rules, seats, None, hands, states, pairs, partners)


def _rows_hand(cards: np.ndarray, ids: tuple[int, int, int]) -> HandInput:
    rows = (tuple(cards[FRONT_SUBSETS[ids[0]]].tolist()), tuple(cards[FIVE_SUBSETS[ids[1]]].tolist()),
            tuple(cards[FIVE_SUBSETS[ids[2]]].tolist()))
    return HandInput(rows, rows[0] + rows[1] + rows[2], natural=False)  # type: ignore[arg-type]


def split_nets(round_: Any, player: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(front ids, middle ids, back ids into the player's 13 cards, row strengths (3, n), the player's net
    points) for every legal split of ``player``'s cards, the other hands as laid.  The cards are
    ``hand.cards`` of scoring.hand_input in their given order.  Criss cross: ``player`` is a set's seat,
    "Ann (set 1)", and the net is the player's (both sets), the other set as laid."""
    table = _table(round_)
    if player not in table.names:
        raise ScoringError(f"{shown(player)} is not a seat of this round: {', '.join(table.names)}")
    return _split_nets(table, player)


def _split_nets(table: Table, player: str):
    rules, names, states = table.rules, table.names, table.states
    cards = np.array(table.hands[player].cards, dtype=np.int64)
    hand = HandRows(cards, rules)
    front, middle, back = candidates(hand, rules)
    mine = [hand.three[front], hand.middle[middle], hand.five[back]]
    my_keys = [mine[0], LOW_FLIP ^ mine[1], mine[2]] if rules.low_middle else mine
    my_values = [np.asarray(rules.row_values[row], dtype=np.int64)[mine[row] >> 20] for row in range(3)]
    count = len(front)
    sample_state = player_state(player, _rows_hand(cards, (front[0], middle[0], back[0])), rules)
    me = names.index(player)
    pairs = _Pairs([(first, second) for first, second, _ in table.pairs])
    ties_to_settle = np.zeros(count, dtype=bool)
    for first, second, banker_first in table.pairs:
        if me not in (first, second):   # a pair without me: the engine's numbers, the same for every split
            fixed = settle_pair(rules, states[names[first]], states[names[second]], banker_first)
            pairs.core.append(np.full(count, float(fixed.core)))
            pairs.extra.append(np.full(count, float(fixed.extra)))
            pairs.scooper.append(np.full(count, fixed.scooper))
            pairs.outcome.append(fixed.outcome)
            pairs.swept.append(np.full(count, _swept(fixed.results)))
            continue
        other = names[second if first == me else first]
        sign = 1 if first == me else -1            # my view -> the pair's first player's view
        their = states[other]
        banker_sign = banker_first * sign
        if their.status == ROWS_PLAYED:
            core, extra, scooper, tied, swept = _rows_against(rules, my_keys, my_values, their.keys,
                                                              their.values, banker_sign)
            outcome = "rows"
            if rules.suit_rank is not None:
                ties_to_settle |= tied
        elif their.status == FOULED:
            core, extra, scooper = _against_fouled(rules, my_values)
            swept = np.ones(count, dtype=np.int64)
            outcome = "foul"
        else:   # a natural or a surrender: my rows do not change it
            a, b = (sample_state, their) if first == me else (their, sample_state)
            fixed = settle_pair(rules, a, b, banker_first)
            core, extra, scooper = (np.full(count, float(fixed.core) * sign), np.full(count, float(fixed.extra) * sign),
                                    np.full(count, fixed.scooper * sign))
            swept = np.full(count, _swept(fixed.results) * sign)
            outcome = fixed.outcome
        pairs.core.append(core * sign)
        pairs.extra.append(extra * sign)
        pairs.scooper.append(scooper * sign)
        pairs.swept.append(swept * sign)
        pairs.outcome.append(outcome)
    for index in np.flatnonzero(ties_to_settle).tolist():   # suit tie-breaks: the engine settles these
        state = player_state(player, _rows_hand(cards, (front[index], middle[index], back[index])), rules)
        for number, (first, second, banker_first) in enumerate(table.pairs):
            if me in (first, second) and pairs.outcome[number] == "rows":
                a, b = (state, states[names[second]]) if first == me else (states[names[first]], state)
                fixed = settle_pair(rules, a, b, banker_first)
                pairs.core[number][index] = float(fixed.core)
                pairs.extra[number][index] = float(fixed.extra)
                pairs.scooper[number][index] = fixed.scooper
                pairs.swept[number][index] = _swept(fixed.results)
    _home_runs(rules, names, states, player, pairs, count)
    if rules.fourth_point != "none" or rules.overall_bonus:
        _table_points(rules, names, pairs, count)
    net = np.zeros(count)
    owned = {me} | ({names.index(table.partners[player])} if player in table.partners else set())
    for number, (first, second) in enumerate(pairs.seats):   # the player's net: all their seats' pairs
        if first in owned or second in owned:
            net += (pairs.core[number] + pairs.extra[number]) * (1 if first in owned else -1)
    return front, middle, back, np.stack(mine), net


def _swept(results: Optional[tuple]) -> int:
    """scoring.table_points._won_all_rows on a pair's row results."""
    if results is None:
        return 0
    return 1 if results == (1, 1, 1) else -1 if results == (-1, -1, -1) else 0


def _table_points(rules: Rules, names: list[str], pairs: _Pairs, count: int) -> None:
    """scoring.table_points on arrays: the fourth point, then the overall bonus."""
    if rules.fourth_point != "none" and len(names) >= rules.fourth_point_min_players:
        if rules.fourth_point == "per-scoop":
            for number in range(len(pairs.seats)):
                pairs.extra[number] = pairs.extra[number] + pairs.swept[number]
        else:
            for seat in range(len(names)):
                own = [(number, 1 if first == seat else -1) for number, (first, second) in enumerate(pairs.seats)
                       if seat in (first, second)]
                home_run = np.ones(count, dtype=bool)
                for number, sign in own:
                    home_run &= pairs.swept[number] == sign
                for number, sign in own:
                    pairs.extra[number] = pairs.extra[number] + sign * home_run
    if not rules.overall_bonus:
        return
    totals = np.zeros((len(names), count))
    for number, (first, second) in enumerate(pairs.seats):
        amount = pairs.core[number] + pairs.extra[number]
        totals[first] += amount
        totals[second] -= amount
    winners = totals >= totals.max(axis=0) - 1e-9
    winner_count = winners.sum(axis=0)
    losers = len(names) - winner_count
    paying = (losers > 0) & ((winner_count == 1) | rules.overall_ties_share)
    share = rules.overall_bonus / winner_count
    paid = np.where(paying, share if rules.overall_payment_each else share / np.maximum(losers, 1), 0.0)
    for number, (first, second) in enumerate(pairs.seats):
        sign = winners[first].astype(np.int64) - winners[second]
        pairs.extra[number] = pairs.extra[number] + paid * sign


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


def _laid_json(rows: tuple) -> dict:
    return {row: [CODES[card] for card in part] for row, part in zip(ROWS, rows)} | {"natural": False}


def hindsight(round: dict, player: Optional[str] = None) -> dict:  # noqa: A002 - the documented name
    """For a settled round (scoring's round JSON): per player, the best split against the hands as laid
    (``player``: that player's entry only, as the web page asks for one at a time).

    Returns ``{"rules": preset, "players": {name: {"net": points as played, "best": {"front", "middle",
    "back", "net"} (None for a surrender without cards), "gain": best net - net (0 when the hand as
    played was best), "money_gain": the same in money, "splits": legal splits tried}}}``.  Numbers are
    the engine's (scoring.settle on the round with that one hand changed); fractions as "4/3" text.

    Criss cross: each player's entry is ``{"net", "sets": [set entry, set entry], "gain", "money_gain"}``
    where a set entry is the entry above for that set alone (the other set as laid; its ``best.net`` is
    the player's whole net with that set changed), and the player's ``gain`` / ``money_gain`` are those
    of changing both sets to their bests at once (settled by the engine).
    """
    check_document(round)
    if isinstance(round, dict) and round.get("game", GAME) != GAME:
        raise ScoringError("hindsight is for Chinese poker rounds (13 cards in three rows)")
    table = _table(round)
    names = check_players(round["players"])
    if player is not None and player not in names:
        raise ScoringError(f"{shown(player)} is not a player of this round")
    played = settle_round(round, audit=False)
    result: dict[str, Any] = {"rules": table.rules.preset, "players": {}}
    for name in names if player is None else [player]:
        if table.rules.criss_cross != "off":
            result["players"][name] = _criss_cross_entry(round, table, played, name)
        else:
            result["players"][name] = _entry(round, table, played, name, name, lambda rows: rows)[0]
    return result


def _entry(round_: dict, table: Table, played: dict, name: str, seat: str, replace_hand) -> tuple[dict, Any]:
    """One hand's hindsight entry and its best rows (None without cards); ``replace_hand(rows)`` is the
    player's round entry with this hand laid as ``rows``."""
    entry: dict[str, Any] = {"net": played["net"][name], "best": None, "gain": 0, "money_gain": 0, "splits": 0}
    if table.hands[seat].cards is None:
        return entry, None
    front, middle, back, strengths, net = _split_nets(table, seat)
    tied = np.flatnonzero(net >= net.max() - 1e-9)
    best = int(tied[strength_key(strengths[:, tied], table.rules).argmax()])
    cards = np.array(table.hands[seat].cards, dtype=np.int64)
    rows = _rows_hand(cards, (front[best], middle[best], back[best])).rows
    replayed = settle_round(dict(round_, players={**round_["players"], name: replace_hand(_laid_json(rows))}),
                            audit=False)
    entry["splits"] = len(net)
    entry["best"] = {**_rows_json(rows), "net": replayed["net"][name]}
    _gains(entry, played, replayed, name)
    return entry, _laid_json(rows)


def _gains(entry: dict, played: dict, replayed: dict, name: str) -> None:
    gain = _exact(replayed["net"][name]) - _exact(played["net"][name])
    money_gain = _exact(replayed["money"][name]) - _exact(played["money"][name])
    entry["gain"] = to_json(gain) if gain > 0 else 0
    entry["money_gain"] = to_json(money_gain) if gain > 0 else 0
    if gain <= 0 and entry.get("best") is not None:   # the hand as played (a natural, or rows as good) was as good
        entry["best"]["as_played"] = True


def _criss_cross_entry(round_: dict, table: Table, played: dict, name: str) -> dict:
    laid = round_["players"][name]["sets"]
    sets, bests = [], []
    for number in (1, 2):
        def replace_hand(rows, number=number):
            return {"sets": [rows if n == number else laid[n - 1] for n in (1, 2)]}
        entry, rows = _entry(round_, table, played, name, seat_name(name, number), replace_hand)
        sets.append(entry)
        bests.append(rows if rows is not None and entry["gain"] != 0 else laid[number - 1])
    combined: dict[str, Any] = {"net": played["net"][name], "sets": sets, "gain": 0, "money_gain": 0}
    replayed = settle_round(dict(round_, players={**round_["players"], name: {"sets": bests}}), audit=False)
    _gains(combined, played, replayed, name)
    return combined


def _exact(value: Any) -> Exact:
    """A settlement's number (an int, or a fraction written "4/3") as an exact number."""
    return Fraction(value) if isinstance(value, str) else value
