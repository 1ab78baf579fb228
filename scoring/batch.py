"""Settling many Chinese-poker rounds at once: numpy for the common round, the one-round engine for the rest.

``settle_many(rounds)`` returns exactly ``[settle(round, audit=False) for round in rounds]``.  Rounds
are grouped by rules, player count and banker seat; within a group every hand is read, evaluated,
checked for fouls and compared pair by pair in numpy, and the preset's numeric rules (row values,
royalties paid always, majority bonus, scoop multiplier and bonus, 辗过, fouls, home runs, 食夾棍
ties) are applied to whole columns.  A round goes to the one-round engine
(scoring.settle) instead when it needs anything else: a hand not written as canonical
"AS KS QS / 2C 2D 9H 9S 4C / 3H 4H 5H 6H 7H" text (two-character spellings, single spaces), a surrender,
a natural, suits breaking ties, another game, or any error (so the error,
and which round raised it first, are exactly the one-round engine's).
"""

from __future__ import annotations

import gc
from fractions import Fraction
from typing import Any, Optional, Sequence

import numpy as np

from .batch_naturals import maybe_natural
from .cards import SPELLINGS
from .errors import ScoringError
from .evaluate import CATEGORY_SHIFT, evaluate_five_batch, evaluate_three_batch
from .games import GAMES, game_of
from .limits import check_document
from .player_state import FOULED, ROWS_PLAYED, naturals_found
from .rules import Rules, resolve_rules
from .settle import GAME, ROUND_KEYS, check_banker, check_players, settlement_numbers
from .stakes import Stakes, parse_stakes

_ROUND_KEY_SET = frozenset(ROUND_KEYS)
# The canonical hand text: 13 two-character cards, single spaces, "/" between the rows.
_HAND_TEXT_LENGTH = 42
_CARD_AT = np.array([0, 3, 6, 11, 14, 17, 20, 23, 28, 31, 34, 37, 40])
_SPACES_AT = np.array([2, 5, 8, 10, 13, 16, 19, 22, 25, 27, 30, 33, 36, 39])
_SLASHES_AT = np.array([9, 26])
_OUTCOMES = ("rows", "foul", "both-fouled")   # the outcome names of scoring.pairs
_STATUSES = (ROWS_PLAYED, FOULED)


def _two_byte_card_table() -> np.ndarray:
    """Card int (or -1) for every two-byte spelling, indexed by ``first byte << 8 | second byte``."""
    table = np.full(1 << 16, -1, dtype=np.int16)
    for text, card in SPELLINGS.items():
        if len(text) == 2 and text.isascii():
            raw = text.encode("ascii")
            table[raw[0] << 8 | raw[1]] = card
    return table


_CARD_TABLE = _two_byte_card_table()


class _Screened:
    """A round that passed the per-round checks and may take the numpy path."""

    __slots__ = ("index", "names", "banker", "stakes", "texts")

    def __init__(self, index: int, names: list[str], banker: Optional[str], stakes: Stakes,
                 texts: list[str]) -> None:
        self.index = index
        self.names = names
        self.banker = banker
        self.stakes = stakes
        self.texts = texts


def _screen(index: int, round_: Any) -> Optional[tuple[Rules, _Screened]]:
    """The round's rules and checked parts, or None to leave the round to the one-round engine."""
    if round_.__class__ is not dict or not _ROUND_KEY_SET.issuperset(round_) or "rules" not in round_:
        return None
    if round_.get("game", GAME) != GAME:
        return None
    players = round_.get("players")
    if players.__class__ is not dict:
        return None
    try:
        check_document(round_)
        rules = resolve_rules(round_["rules"], round_.get("options"))
        names = check_players(players)
        banker = check_banker(rules, round_.get("banker"), names)
        stakes = parse_stakes(round_.get("stakes"), names, banker)
    except Exception:   # noqa: BLE001 - the one-round engine raises it again, in round order
        return None
    if rules.suit_rank is not None or rules.variant:   # seed 004's 変種: the one-round engine only
        return None
    texts = [players[name] for name in names]
    for text in texts:
        if text.__class__ is not str or len(text) != _HAND_TEXT_LENGTH:
            return None
    return rules, _Screened(index, names, banker, stakes, texts)


def _read_hands(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(card ints (N, 13) in front, middle, back order, bool per hand: written canonically)."""
    raw = np.frombuffer("".join(texts).encode("ascii", "replace"), dtype=np.uint8)
    raw = raw.reshape(len(texts), _HAND_TEXT_LENGTH)
    cards = _CARD_TABLE[(raw[:, _CARD_AT].astype(np.int32) << 8) | raw[:, _CARD_AT + 1]]
    readable = ((cards >= 0).all(axis=1) & (raw[:, _SPACES_AT] == ord(" ")).all(axis=1)
                & (raw[:, _SLASHES_AT] == ord("/")).all(axis=1))
    return np.where(readable[:, None], cards, 0).astype(np.int32), readable


def _pair_seats(players: int, banker_seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Seat indices (first, second) of the pairs that settle, in scoring.settle's order."""
    if banker_seat >= 0:
        seconds = [seat for seat in range(players) if seat != banker_seat]
        return np.full(len(seconds), banker_seat), np.array(seconds)
    pairs = [(i, j) for i in range(players) for j in range(i + 1, players)]
    return np.array([i for i, _ in pairs]), np.array([j for _, j in pairs])


def _settle_group(rules: Rules, banker_seat: int, group: list[_Screened]) -> list[Optional[dict]]:
    """Settlements of rounds with the same rules, player count and banker seat (None: one-round engine)."""
    count, players = len(group), len(group[0].names)
    cards, readable = _read_hands([text for screened in group for text in screened.texts])
    usable = readable.reshape(count, players).all(axis=1)
    held = np.sort(cards.reshape(count, players * 13), axis=1)
    usable &= ~(held[:, 1:] == held[:, :-1]).any(axis=1)   # a card held twice: the engine names it

    strengths = np.stack([evaluate_three_batch(cards[:, :3]),
                          evaluate_five_batch(cards[:, 3:8], rules.wheel_second),
                          evaluate_five_batch(cards[:, 8:], rules.wheel_second)], axis=1)
    values = np.stack([np.asarray(rules.row_values[row])[strengths[:, row] >> CATEGORY_SHIFT]
                       for row in range(3)], axis=1)
    front, middle, back = strengths[:, 0], strengths[:, 1], strengths[:, 2]
    fouled = (front >= middle) | (middle > back)
    if rules.strict_order:
        fouled |= middle == back
    fouled = fouled.reshape(count, players)
    if rules.foul_rejected:
        usable &= ~fouled.any(axis=1)
    for hand in np.flatnonzero(maybe_natural(cards, rules) & np.repeat(usable, players)):
        if naturals_found(tuple(cards[hand].tolist()), rules):
            usable[hand // players] = False

    first, second = _pair_seats(players, banker_seat)
    strengths = strengths.reshape(count, players, 3)
    values = values.reshape(count, players, 3)
    sa, sb = strengths[:, first], strengths[:, second]          # (rounds, pairs, rows)
    va, vb = values[:, first], values[:, second]
    if rules.banker_top_card_ties:   # 食夾棍: category and top card only, ties to the banker (the first)
        results = np.sign((sa >> 16) - (sb >> 16))
        results[results == 0] = 1
    else:
        results = np.sign(sa - sb)
    wins, losses = (results > 0).sum(axis=2), (results < 0).sum(axis=2)
    base = results.sum(axis=2)
    if rules.royalties_always:
        royalty = va.sum(axis=2) - vb.sum(axis=2)
    else:
        points = np.where(results > 0, va, np.where(results < 0, vb, 0))
        royalty = (results * points).sum(axis=2) - base

    foul_a, foul_b = fouled[:, first], fouled[:, second]
    one_fouled = foul_a ^ foul_b
    sign = np.where(foul_b, 1, -1)                               # +1: the first player collects
    winner_royalty = np.where(foul_b, va.sum(axis=2), vb.sum(axis=2)) - 3
    base = np.where(one_fouled, 3 * sign, base)
    royalty = np.where(one_fouled, winner_royalty * sign, royalty)
    wins = np.where(one_fouled, np.where(foul_b, 3, 0), wins)
    losses = np.where(one_fouled, np.where(foul_b, 0, 3), losses)

    no_loss = rules.scoop_includes_no_loss
    scooper = np.where((losses == 0) & ((wins == 3) | (no_loss & (wins > 0))), 1,
                       np.where((wins == 0) & ((losses == 3) | (no_loss & (losses > 0))), -1, 0))
    if not rules.foul_counts_as_scoop:
        scooper[one_fouled] = 0
    if rules.multiply_royalties:
        core, extra = base + royalty, np.zeros_like(base)
    else:
        core, extra = base, royalty
    if rules.majority_bonus:
        extra = extra + rules.majority_bonus * np.where(wins >= 2, 1, np.where(losses >= 2, -1, 0))
    core = np.where(scooper != 0, core * rules.scoop_multiplier, core)
    extra = extra + rules.scoop_bonus * scooper
    both_fouled = foul_a & foul_b
    core[both_fouled] = extra[both_fouled] = scooper[both_fouled] = 0

    home_runs = np.zeros((count, players), dtype=bool)
    split: dict[int, list] = {}
    if rules.home_run_multiplier > 1:
        own_pairs = [[(pair, 1) for pair in np.flatnonzero(first == seat).tolist()]
                     + [(pair, -1) for pair in np.flatnonzero(second == seat).tolist()]
                     for seat in range(players)]
        for seat, own in enumerate(own_pairs):
            if len(own) >= rules.home_run_min_opponents:
                scooped_all = ~fouled[:, seat]
                for pair, side in own:
                    scooped_all &= scooper[:, pair] == side
                home_runs[:, seat] = scooped_all
        multiplied = home_runs[:, first] | home_runs[:, second]
        core = np.where(multiplied, core * rules.home_run_multiplier, core)
        if rules.home_run_split:
            split = _split_home_runs(core + extra, home_runs, usable, own_pairs)

    outcomes = np.where(both_fouled, 2, np.where(one_fouled, 1, 0))
    return _settlements(rules, group, usable, core + extra, outcomes, fouled, home_runs, first, second, split)


def _split_home_runs(amounts: np.ndarray, home_runs: np.ndarray, usable: np.ndarray,
                     own_pairs: list[list[tuple[int, int]]]) -> dict[int, list]:
    """Rounds with a home run split evenly (seed 000 玩法3): row -> each pair's exact amount."""
    split = {}
    for row in np.flatnonzero(home_runs.any(axis=1) & usable).tolist():
        row_amounts = amounts[row].tolist()
        for seat in np.flatnonzero(home_runs[row]).tolist():
            own = own_pairs[seat]
            share = Fraction(sum(row_amounts[pair] * side for pair, side in own), len(own))
            share = share.numerator if share.denominator == 1 else share
            for pair, side in own:
                row_amounts[pair] = share * side
        split[row] = row_amounts
    return split


def _settlements(rules: Rules, group: list[_Screened], usable: np.ndarray, amounts: np.ndarray,
                 outcomes: np.ndarray, fouled: np.ndarray, home_runs: np.ndarray, first: np.ndarray,
                 second: np.ndarray, split: dict[int, list]) -> list[Optional[dict]]:
    """The settlement JSON of each usable round (None for the others); ``split`` replaces the amounts
    of rounds whose home run was split evenly (they may be fractions)."""
    nets = np.zeros(fouled.shape, dtype=np.int64)
    for pair, (i, j) in enumerate(zip(first, second)):
        nets[:, i] += amounts[:, pair]
        nets[:, j] -= amounts[:, pair]
    seats = list(zip(first.tolist(), second.tolist()))
    mode = "banker" if rules.banker_mode else "all-pairs"
    settled: list[Optional[dict]] = []
    for row, (screened, ok, amount_row, outcome_row, net_row, fouled_row, home_row) in enumerate(zip(
            group, usable.tolist(), amounts.tolist(), outcomes.tolist(), nets.tolist(), fouled.tolist(),
            home_runs.tolist())):
        if not ok:
            settled.append(None)
            continue
        names, stakes = screened.names, screened.stakes
        players_json = {name: {"status": _STATUSES[is_fouled], "home_run": home_run}
                        for name, is_fouled, home_run in zip(names, fouled_row, home_row)}
        stake = stakes.per_point
        if row in split:
            amount_row = split[row]
        if stakes.by_pair or stake.__class__ is not int or row in split:   # fractions or per-pair stakes: the shared writer
            settled.append(settlement_numbers(
                rules, names, screened.banker, stakes,
                [(names[i], names[j], _OUTCOMES[outcome], amount)
                 for (i, j), outcome, amount in zip(seats, outcome_row, amount_row)], players_json))
            continue
        # Whole-number stakes: the same JSON as settlement_numbers, with the sums already taken in numpy.
        pairs_json = []
        for (i, j), outcome, amount in zip(seats, outcome_row, amount_row):
            a, b = names[i], names[j]
            paid = amount * stake
            pairs_json.append({"players": [a, b], "outcome": _OUTCOMES[outcome],
                               "winner": a if amount > 0 else b if amount < 0 else None,
                               "points": abs(amount), "net": {a: amount, b: -amount}, "stake": stake,
                               "money": {a: paid, b: -paid}})
        settled.append({"game": GAME, "rules": rules.preset, "mode": mode, "banker": screened.banker,
                        "net": dict(zip(names, net_row)),
                        "money": {name: net * stake for name, net in zip(names, net_row)},
                        "players": players_json, "pairs": pairs_json})
    return settled


def _settle_common(rounds: Sequence[Any], settled: list[Optional[dict]]) -> None:
    """Fill ``settled`` with the numpy path's settlements, grouped by rules, player count and banker seat."""
    groups: dict[tuple[int, int, int], tuple[Rules, list[_Screened]]] = {}
    for index, round_ in enumerate(rounds):
        screened = _screen(index, round_)
        if screened is None:
            continue
        rules, parts = screened
        banker_seat = parts.names.index(parts.banker) if parts.banker is not None else -1
        groups.setdefault((id(rules), len(parts.names), banker_seat), (rules, []))[1].append(parts)
    for (_, _, banker_seat), (rules, group) in groups.items():
        for parts, result in zip(group, _settle_group(rules, banker_seat, group)):
            settled[parts.index] = result


def settle_many(rounds: Sequence[Any], *, audit: bool = False) -> list[dict]:
    """Settle many rounds; equals ``[settle(round, audit=audit) for round in rounds]``.

    Without the audit (the default) the common rounds are settled together in numpy (see the module
    docstring); with it every round goes through the one-round engine.  An invalid round raises
    ScoringError naming its position ("rounds[3]: ...") and nothing is returned.
    """
    if not isinstance(rounds, (list, tuple)):
        raise ScoringError("settle_many takes a list of rounds")
    settled: list[Optional[dict]] = [None] * len(rounds)
    if not audit:
        # The results are tens of thousands of small acyclic dicts and lists: pausing the cyclic garbage
        # collector while they are built saves its repeated passes over them (about a third of the time).
        collecting = gc.isenabled()
        gc.disable()
        try:
            _settle_common(rounds, settled)
        finally:
            if collecting:
                gc.enable()
    for index, result in enumerate(settled):
        if result is None:
            round_ = rounds[index]
            try:
                settled[index] = GAMES[game_of(round_)](round_, audit=audit)
            except ScoringError as err:
                raise ScoringError(f"rounds[{index}]: {err}") from err
    return settled  # type: ignore[return-value]
