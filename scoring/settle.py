"""Settling a Chinese-poker round: the round JSON in, the settlement JSON out."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional

from .cards import CODES
from .errors import ScoringError
from .hand_input import parse_hand_input
from .numbers import Exact, to_json
from .options import ROWS
from .pairs import PairResult, settle_pair
from .player_state import FOULED, NATURAL, ROWS_PLAYED, PlayerState, player_state
from .rules import Rules, resolve_rules
from .stakes import Stakes, parse_stakes

GAME = "chinese-poker"
ROUND_KEYS = ("game", "rules", "options", "players", "banker", "stakes")
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def check_players(players: Any) -> list[str]:
    """Player names in order, from a list of names or an object of name -> hand."""
    if isinstance(players, dict):
        names = list(players)
    elif isinstance(players, list):
        names = players
    else:
        raise ScoringError("players must be an object of name -> hand (or a list of names)")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ScoringError(f"a player's name must be non-empty text, not {name!r}")
    if len(set(names)) != len(names):
        raise ScoringError("two players have the same name")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ScoringError(f"a round needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
    return names


def check_banker(rules: Rules, banker: Any, names: list[str]) -> Optional[str]:
    """The banker's name in banker mode (it must be a player); None in all-pairs mode."""
    if rules.banker_mode:
        if banker is None or banker == "":
            raise ScoringError(f"rules {rules.preset} play against a banker: name the banker "
                               f"(one of {', '.join(names)})")
        if banker not in names:
            raise ScoringError(f"the banker {banker!r} is not a player; players: {', '.join(names)}")
        return banker
    if banker not in (None, ""):
        raise ScoringError(f"rules {rules.preset} compare every pair and have no banker "
                           f"(leave banker out, or set option mode = banker)")
    return None


def _check_cards_unique(hands: dict) -> None:
    owner: dict[int, str] = {}
    for name, hand in hands.items():
        if hand.cards is None:
            continue
        for card in hand.cards:
            other = owner.setdefault(card, name)
            if other != name:
                raise ScoringError(f"{CODES[card]} is in both {other}'s and {name}'s hands")


def _pairs_of(names: list[str], banker: Optional[str]) -> list[tuple[str, str, int]]:
    if banker is not None:
        return [(banker, name, 1) for name in names if name != banker]
    return [(names[i], names[j], 0) for i in range(len(names)) for j in range(i + 1, len(names))]


def _home_run_player(rules: Rules, state: PlayerState, own_pairs: list[tuple[PairResult, int]]) -> bool:
    """Whether this player scooped (or, with a natural, beat) every opponent, enough of them."""
    if len(own_pairs) < rules.home_run_min_opponents:
        return False
    if state.status == ROWS_PLAYED:
        return rules.home_run_multiplier > 1 and all(pair.scooper == sign for pair, sign in own_pairs)
    if state.status == NATURAL:
        return rules.natural_home_run and rules.home_run_multiplier > 1 and \
            all(pair.core * sign > 0 for pair, sign in own_pairs)
    return False


def _apply_home_run(rules: Rules, state: PlayerState, own_pairs: list[tuple[PairResult, int]]) -> None:
    multiplier = rules.home_run_multiplier
    term = rules.terms["home_run"]
    for pair, _ in own_pairs:
        pair.core *= multiplier
    if rules.home_run_split and state.status == ROWS_PLAYED:
        total = sum((pair.core + pair.extra) * sign for pair, sign in own_pairs)
        share = Fraction(total, len(own_pairs))
        share = share.numerator if share.denominator == 1 else share
        for pair, sign in own_pairs:
            pair.core, pair.extra = share * sign, 0
            pair.step("home-run", term, f"{state.name} scooped everyone: total ×{multiplier} = "
                                        f"{to_json(total)}, split evenly among {len(own_pairs)}")
        return
    what = "scooped everyone" if state.status == ROWS_PLAYED else "beat everyone with a natural"
    for pair, _ in own_pairs:
        pair.step("home-run", term, f"{state.name} {what}: ×{multiplier}")


def _player_json(state: PlayerState, home_run: bool) -> dict:
    natural = None
    if state.natural is not None:
        natural = {"id": state.natural.id, "en": state.natural.en, "zh": state.natural.zh,
                   "points": state.natural.points}
        if state.natural_rows is not None:
            natural["rows"] = {row: [CODES[card] for card in cards]
                               for row, cards in zip(ROWS, state.natural_rows)}
    return {"status": state.status,
            "rows": state.row_json,
            "natural": natural,
            "naturals_detected": list(state.detected),
            "foul": state.foul,
            "home_run": home_run}


def settle_round(round_: Any) -> dict:
    """Settle one round given as the JSON object ``python -m scoring settle`` reads."""
    if not isinstance(round_, dict):
        raise ScoringError("a round must be a JSON object with rules and players")
    for key in round_:
        if key not in ROUND_KEYS:
            raise ScoringError(f"unknown key {key!r} in the round; valid keys: {', '.join(ROUND_KEYS)}")
    if "rules" not in round_:
        raise ScoringError("the round names no rules (\"rules\": one of the presets)")
    rules = resolve_rules(round_["rules"], round_.get("options"))
    players = round_.get("players")
    names = check_players(players)
    if not isinstance(players, dict):
        raise ScoringError("players must be an object of name -> hand")
    banker = check_banker(rules, round_.get("banker"), names)
    stakes = parse_stakes(round_.get("stakes"), names, banker)
    hands = {name: parse_hand_input(players[name], name) for name in names}
    _check_cards_unique(hands)
    if banker is not None and hands[banker].surrender:
        raise ScoringError(f"{banker} is the banker and cannot surrender")
    states = {name: player_state(name, hands[name], rules) for name in names}
    return _settle_states(rules, names, states, banker, stakes)


def _settle_states(rules: Rules, names: list[str], states: dict, banker: Optional[str], stakes: Stakes) -> dict:
    pairs = [settle_pair(rules, states[first], states[second], banker_sign)
             for first, second, banker_sign in _pairs_of(names, banker)]
    own: dict[str, list] = {name: [] for name in names}
    for pair in pairs:
        own[pair.a.name].append((pair, 1))
        own[pair.b.name].append((pair, -1))
    home_runs = set()
    if rules.home_run_multiplier > 1:
        for name in names:
            if _home_run_player(rules, states[name], own[name]):
                home_runs.add(name)
                _apply_home_run(rules, states[name], own[name])
    net: dict[str, Exact] = dict.fromkeys(names, 0)
    money: dict[str, Exact] = dict.fromkeys(names, 0)
    pair_json = []
    for pair in pairs:
        amount = pair.core + pair.extra
        a, b = pair.a.name, pair.b.name
        stake = stakes.for_pair(a, b)
        paid = amount * stake
        net[a] += amount
        net[b] -= amount
        money[a] += paid
        money[b] -= paid
        winner = a if amount > 0 else b if amount < 0 else None
        pair_json.append({
            "players": [a, b], "outcome": pair.outcome, "rows": pair.rows, "steps": pair.steps,
            "winner": winner, "points": to_json(abs(amount)),
            "net": {a: to_json(amount), b: to_json(-amount)},
            "stake": to_json(stake), "money": {a: to_json(paid), b: to_json(-paid)},
        })
    return {
        "game": GAME,
        "rules": rules.preset,
        "options": rules.options,
        "row_values": rules.row_value_table,
        "mode": "banker" if rules.banker_mode else "all-pairs",
        "banker": banker,
        "stakes": stakes.to_json(),
        "players": {name: _player_json(states[name], name in home_runs) for name in names},
        "pairs": pair_json,
        "net": {name: to_json(value) for name, value in net.items()},
        "money": {name: to_json(value) for name, value in money.items()},
    }
