"""Settling a Chinese-poker round: the round JSON in, the settlement JSON out."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Optional

from .audit import pair_rows, pair_steps, player_entry, row_entries
from .cards import CODES
from .errors import ScoringError, shown
from .hand_input import parse_hand_input
from .numbers import Exact, to_json
from .pairs import PairResult, settle_pair
from .player_state import NATURAL, ROWS_PLAYED, PlayerState, player_state
from .rules import Rules, resolve_rules
from .stakes import Stakes, parse_stakes
from .table_points import apply_table_points

GAME = "chinese-poker"
ROUND_KEYS = ("game", "rules", "options", "players", "banker", "stakes")
_ROUND_KEY_SET = frozenset(ROUND_KEYS)
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_NAME = 100   # characters of a player's name
CRISS_CROSS_PLAYERS = 2


def check_players(players: Any) -> list[str]:
    """Player names in order, from a list of names or an object of name -> hand."""
    if isinstance(players, dict):
        names = list(players)
    elif isinstance(players, list):
        names = players
    else:
        raise ScoringError("players must be an object of name -> hand (or a list of names)")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ScoringError(f"a round needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names):,}")
    for name in names:
        if name.__class__ is not str or not name.strip() or len(name) > MAX_NAME:
            raise ScoringError(f"a player's name must be non-empty text of at most {MAX_NAME} characters, "
                               f"not {shown(name)}")
    if len(set(names)) != len(names):
        raise ScoringError("two players have the same name")
    return list(names)


def check_table(rules: Rules, names: list[str]) -> None:
    """What a variant needs of the table: criss cross deals two 13-card sets to each player from one deck."""
    if rules.criss_cross != "off" and len(names) != CRISS_CROSS_PLAYERS:
        raise ScoringError(f"criss cross deals each player two 13-card sets from one 52-card deck: it needs "
                           f"exactly {CRISS_CROSS_PLAYERS} players, got {len(names)}")


def check_banker(rules: Rules, banker: Any, names: list[str]) -> Optional[str]:
    """The banker's name in banker mode (it must be a player); None in all-pairs mode."""
    if rules.banker_mode:
        if banker is None or banker == "":
            raise ScoringError(f"rules {rules.preset} play against a banker: name the banker "
                               f"(one of {', '.join(names)})")
        if banker not in names:
            raise ScoringError(f"the banker {shown(banker)} is not a player; players: {', '.join(names)}")
        return banker
    if banker not in (None, ""):
        raise ScoringError(f"rules {rules.preset} compare every pair and have no banker "
                           f"(leave banker out, or set option mode = banker)")
    return None


def _check_cards_unique(hands: dict) -> None:
    """ScoringError naming the card and the player(s) when a card is held twice, in one hand or two."""
    held = [hand.cards for hand in hands.values() if hand.cards is not None]
    if len(set().union(*held)) == sum(map(len, held)):
        return
    owner: dict[int, str] = {}
    for name, hand in hands.items():
        seen: set[int] = set()
        for card in hand.cards or ():
            if card in seen:
                raise ScoringError(f"{name}: {CODES[card]} appears twice in the hand")
            seen.add(card)
            other = owner.setdefault(card, name)
            if other != name:
                raise ScoringError(f"{CODES[card]} is in both {other}'s and {name}'s hands")


@lru_cache(maxsize=1024)
def _pairs_of(names: tuple[str, ...], banker: Optional[str]) -> tuple[tuple[str, str, int], ...]:
    """The pairs that settle, in order, each with +1 when its first player is the banker."""
    if banker is not None:
        return tuple((banker, name, 1) for name in names if name != banker)
    return tuple((names[i], names[j], 0) for i in range(len(names)) for j in range(i + 1, len(names)))


def _home_run_player(rules: Rules, state: PlayerState, own_pairs: list[tuple[PairResult, int]]) -> bool:
    """Whether this player scooped (or, with a natural, beat) every opponent, enough of them."""
    if len(own_pairs) < rules.home_run_min_opponents:
        return False
    if state.status == ROWS_PLAYED:
        for pair, sign in own_pairs:
            if pair.scooper != sign:
                return False
        return True
    if state.status == NATURAL and rules.natural_home_run:
        for pair, sign in own_pairs:
            if pair.core * sign <= 0:
                return False
        return True
    return False


def _home_run_possible(rules: Rules, pairs: list[PairResult]) -> bool:
    """Cheap gate: a home run needs enough scoops (or a natural that may beat everyone)."""
    if rules.natural_home_run and any(pair.outcome == "natural" for pair in pairs):
        return True
    return sum(1 for pair in pairs if pair.scooper) >= rules.home_run_min_opponents


def _apply_home_run(rules: Rules, state: PlayerState, own_pairs: list[tuple[PairResult, int]]) -> None:
    multiplier = rules.home_run_multiplier
    by_natural = state.status == NATURAL
    for pair, _ in own_pairs:
        pair.core *= multiplier
    if rules.home_run_split and not by_natural:
        total = sum((pair.core + pair.extra) * sign for pair, sign in own_pairs)
        share = Fraction(total, len(own_pairs))
        share = share.numerator if share.denominator == 1 else share
        for pair, sign in own_pairs:
            pair.core, pair.extra = share * sign, 0
            pair.record("home-run", (state.name, multiplier, total, len(own_pairs), False))
        return
    for pair, _ in own_pairs:
        pair.record("home-run", (state.name, multiplier, None, len(own_pairs), by_natural))


def settle_round(round_: Any, audit: bool = True) -> dict:
    """Settle one round given as the JSON object ``python -m scoring settle`` reads.

    ``audit=False`` leaves out the per-row and per-rule explanation (numbers only).
    """
    if not isinstance(round_, dict):
        raise ScoringError("a round must be a JSON object with rules and players")
    if not _ROUND_KEY_SET.issuperset(round_):
        unknown = next(key for key in round_ if key not in _ROUND_KEY_SET)
        raise ScoringError(f"unknown key {shown(unknown)} in the round; valid keys: {', '.join(ROUND_KEYS)}")
    if "rules" not in round_:
        raise ScoringError("the round names no rules (\"rules\": one of the presets)")
    rules = resolve_rules(round_["rules"], round_.get("options"))
    players = round_.get("players")
    names = check_players(players)
    if not isinstance(players, dict):
        raise ScoringError("players must be an object of name -> hand")
    check_table(rules, names)
    banker = check_banker(rules, round_.get("banker"), names)
    stakes = parse_stakes(round_.get("stakes"), names, banker)
    if rules.criss_cross != "off":
        from .criss_cross import settle_criss_cross   # scoring.criss_cross imports this module
        return settle_criss_cross(rules, names, players, banker, stakes, audit)
    hands = {name: parse_hand_input(players[name], name, check_repeats=False) for name in names}
    _check_cards_unique(hands)
    if banker is not None and hands[banker].surrender:
        raise ScoringError(f"{banker} is the banker and cannot surrender")
    states = {name: player_state(name, hands[name], rules) for name in names}
    return settle_states(rules, names, states, banker, stakes, audit)


def settle_states(rules: Rules, names: list[str], states: dict, banker: Optional[str], stakes: Stakes,
                  audit: bool = True, seat_pairs: Optional[tuple] = None) -> dict:
    """Settle players whose hands are already evaluated (scoring.player_state).

    ``seat_pairs`` ((first, second, banker sign), ...) replaces the usual pairs (criss cross)."""
    pairs = [settle_pair(rules, states[first], states[second], banker_sign)
             for first, second, banker_sign in (seat_pairs or _pairs_of(tuple(names), banker))]
    home_runs = set()
    if rules.home_run_multiplier > 1 and _home_run_possible(rules, pairs):
        own: dict[str, list] = {name: [] for name in names}
        for pair in pairs:
            own[pair.a.name].append((pair, 1))
            own[pair.b.name].append((pair, -1))
        for name in names:
            if _home_run_player(rules, states[name], own[name]):
                home_runs.add(name)
                _apply_home_run(rules, states[name], own[name])
    if rules.fourth_point != "none" or rules.overall_bonus:
        apply_table_points(rules, names, pairs)
    rows_by_player = {name: row_entries(states[name], rules) for name in names} if audit else None
    if audit:
        players_json = {name: player_entry(states[name], rows_by_player[name], name in home_runs)
                        for name in names}
    else:
        players_json = {name: {"status": states[name].status, "home_run": name in home_runs} for name in names}
    result = settlement_numbers(rules, names, banker, stakes,
                                [(pair.a.name, pair.b.name, pair.outcome, pair.core + pair.extra)
                                 for pair in pairs], players_json)
    if audit:
        for entry, pair in zip(result["pairs"], pairs):
            entry["rows"] = pair_rows(pair, rules, rows_by_player)
            entry["steps"] = pair_steps(pair, rules)
        result["options"] = rules.options
        result["row_values"] = rules.row_value_table
        result["stakes"] = stakes.to_json()
    return result


def settlement_numbers(rules: Rules, names: list[str], banker: Optional[str], stakes: Stakes,
                       pair_amounts: list[tuple[str, str, str, Exact]], players_json: dict) -> dict:
    """The settlement JSON without the audit: net and money per player and one entry per pair.

    ``pair_amounts`` holds (first player, second player, outcome, points) per pair, the points signed
    from the first player's view.  Shared by settle_round and the batch path (scoring.batch), so
    both write exactly the same JSON."""
    net: dict[str, Exact] = dict.fromkeys(names, 0)
    money: dict[str, Exact] = dict.fromkeys(names, 0)
    by_pair, per_point = stakes.by_pair, stakes.per_point
    pair_json = []
    for a, b, outcome, amount in pair_amounts:
        stake = stakes.for_pair(a, b) if by_pair else per_point
        paid = amount * stake
        net[a] += amount
        net[b] -= amount
        money[a] += paid
        money[b] -= paid
        if amount.__class__ is int and paid.__class__ is int and stake.__class__ is int:
            entry = {"players": [a, b], "outcome": outcome,
                     "winner": a if amount > 0 else b if amount < 0 else None, "points": abs(amount),
                     "net": {a: amount, b: -amount}, "stake": stake, "money": {a: paid, b: -paid}}
        else:
            entry = {"players": [a, b], "outcome": outcome,
                     "winner": a if amount > 0 else b if amount < 0 else None, "points": to_json(abs(amount)),
                     "net": {a: to_json(amount), b: to_json(-amount)},
                     "stake": to_json(stake), "money": {a: to_json(paid), b: to_json(-paid)}}
        pair_json.append(entry)
    return {
        "game": GAME,
        "rules": rules.preset,
        "mode": "banker" if rules.banker_mode else "all-pairs",
        "banker": banker,
        "net": {name: value if value.__class__ is int else to_json(value) for name, value in net.items()},
        "money": {name: value if value.__class__ is int else to_json(value) for name, value in money.items()},
        "players": players_json,
        "pairs": pair_json,
    }
