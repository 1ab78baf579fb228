"""Settling a Big Two hand: scores from the cards left (or the finishing order), then net and money."""

from __future__ import annotations

from typing import Any, Optional

from ..errors import ScoringError
from ..numbers import to_json
from ..stakes import Stakes, parse_stakes
from .instant import instant_json
from .penalty import Penalty, biggest_losers, card_penalty, instant_win_penalty
from .round_input import BigTwoRound, check_round_keys, read_round
from .rules import GAME, BigTwoRules, resolve_rules


def _rank_points(rules: BigTwoRules, count: int) -> list[int]:
    points = rules.options["rank_points"]
    if points is None:
        return list(range(count - 1, -1, -1))
    if len(points) != count:
        raise ScoringError(f"option rank_points gives {len(points)} places for {count} players")
    return points


def _penalties(rules: BigTwoRules, hand: BigTwoRound) -> dict[str, Penalty]:
    penalties = {}
    for name in hand.names:
        if name == hand.winner:
            continue
        cards = hand.hands[name].cards
        if hand.instant_win is not None:
            kind, factor = hand.instant_win
            penalties[name] = instant_win_penalty(rules, cards, kind, factor, hand.winner)
        else:
            penalties[name] = card_penalty(rules, cards)
    return penalties


def _charges(hand: BigTwoRound, penalties: dict[str, Penalty], steps: list) -> dict[str, int]:
    """What each loser is charged: their penalty, or under 頂大 the failing player all of them."""
    charges = {name: penalty.points for name, penalty in penalties.items()}
    failed = hand.failed_to_block
    if failed is not None:
        total = sum(charges.values())
        others = [f"{name} {points}" for name, points in charges.items() if name != failed]
        charges = dict.fromkeys(charges, 0)
        charges[failed] = total
        steps.append({"rule": "block-failure", "detail":
                      f"{failed} did not block {hand.winner}: pays everyone's losses, {total} "
                      f"(own {penalties[failed].points}" + (f" + {' + '.join(others)}" if others else "")
                      + "); the others lose nothing"})
    return charges


def _pairs(rules: BigTwoRules, hand: BigTwoRound, scores: dict, charges: dict) -> list[tuple[str, str, int]]:
    """(first, second, what first wins from second) for every pair that settles."""
    if rules.settlement == "winner-collects":
        return [(hand.winner, name, charges[name]) for name in hand.names if name != hand.winner]
    if rules.settlement == "pairwise":
        names = hand.names
        return [(names[i], names[j], scores[names[i]] - scores[names[j]])
                for i in range(len(names)) for j in range(i + 1, len(names))]
    return []


def _pair_json(first: str, second: str, amount: int, stakes: Stakes) -> dict:
    stake = stakes.for_pair(first, second)
    paid = amount * stake
    return {"players": [first, second], "winner": first if amount > 0 else second if amount < 0 else None,
            "points": abs(amount), "net": {first: amount, second: -amount}, "stake": to_json(stake),
            "money": {first: to_json(paid), second: to_json(-paid)}}


def _player_json(hand: BigTwoRound, name: str, penalties: dict, charges: dict,
                 scores: dict, audit: bool) -> dict:
    entry: dict[str, Any] = {"winner": name == hand.winner, "score": scores[name]}
    if hand.order is not None:
        entry["place"] = hand.order.index(name) + 1
    if not audit:
        return entry
    entry["cards"] = hand.hands[name].codes
    entry["count"] = len(hand.hands[name].cards)
    penalty: Optional[Penalty] = penalties.get(name)
    if penalty is not None:
        entry.update({"card_points": [{"card": code, "points": points} for code, points in penalty.card_points],
                      "base": penalty.base, "multipliers": penalty.multipliers,
                      "multiplier": penalty.multiplier, "penalty": penalty.points, "charged": charges[name],
                      "detail": penalty.explain()})
    return entry


def _scores(rules: BigTwoRules, hand: BigTwoRound, charges: dict, steps: list) -> dict[str, int]:
    if hand.order is not None:
        points = _rank_points(rules, len(hand.names))
        steps.append({"rule": "rank", "detail": "places: " + ", ".join(
            f"{place}. {name} {points[place - 1]}" for place, name in enumerate(hand.order, 1))})
        return {name: points[hand.order.index(name)] for name in hand.names}
    bonus = rules.options["winner_bonus"]
    if bonus:
        steps.append({"rule": "winner-bonus", "detail": f"{hand.winner} won the hand: +{bonus}"})
    return {name: bonus if name == hand.winner else -charges[name] for name in hand.names}


def settle_round(round_: Any, audit: bool = True) -> dict:
    """Settle one Big Two hand given as the JSON object ``python -m scoring settle`` reads."""
    check_round_keys(round_)
    rules = resolve_rules(round_["rules"], round_.get("options"))
    hand = read_round(rules, round_)
    stakes = parse_stakes(round_.get("stakes"), hand.names, None)
    if rules.settlement == "scores" and stakes.by_pair:
        raise ScoringError("stakes.pairs needs a settlement between players (winner-collects or pairwise); "
                           "under settlement scores each player's score is their own")
    steps: list[dict] = []
    penalties = _penalties(rules, hand) if rules.scheme == "cards" else {}
    charges = _charges(hand, penalties, steps)
    scores = _scores(rules, hand, charges, steps)
    pairs = _pairs(rules, hand, scores, charges)
    if rules.settlement == "scores":
        net = dict(scores)
        money = {name: to_json(score * stakes.per_point) for name, score in scores.items()}
    else:
        net = dict.fromkeys(hand.names, 0)
        money_exact = dict.fromkeys(hand.names, 0)
        for first, second, amount in pairs:
            paid = amount * stakes.for_pair(first, second)
            net[first] += amount
            net[second] -= amount
            money_exact[first] += paid
            money_exact[second] -= paid
        money = {name: to_json(value) for name, value in money_exact.items()}
    instant = None
    if hand.instant_win is not None:
        kind, factor = hand.instant_win
        instant = instant_json(hand.winner, kind, factor)
    losers = [name for name in hand.names if name != hand.winner]
    result: dict[str, Any] = {
        "game": GAME,
        "rules": rules.preset,
        "scheme": rules.scheme,
        "settlement": rules.settlement,
        "zero_sum": rules.settlement != "scores",
        "winner": hand.winner,
        "instant_win": instant,
        "failed_to_block": hand.failed_to_block,
        "order": hand.order,
        "biggest_loser": biggest_losers(scores, losers),
        "net": net,
        "money": money,
        "scores": scores,
        "players": {name: _player_json(hand, name, penalties, charges, scores, audit)
                    for name in hand.names},
        "pairs": [_pair_json(first, second, amount, stakes) for first, second, amount in pairs],
    }
    if audit:
        result["steps"] = steps
        result["options"] = rules.options
        result["stakes"] = stakes.to_json()
    return result
