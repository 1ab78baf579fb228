"""A Big Two round's JSON checked and read: players' cards, the winner, the finishing order, 頂大.

Round keys: game, rules, options, players, winner, order, failed_to_block, stakes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..cards import CODES
from ..errors import ScoringError, shown
from ..settle import check_players
from .hands import LeftHand, check_unique_across, parse_left_hand
from .instant import NAMES as INSTANT_NAMES
from .instant import DEALT, best_instant_win, instant_hands
from .rules import BigTwoRules

ROUND_KEYS = ("game", "rules", "options", "players", "winner", "order", "failed_to_block", "stakes")


@dataclass(frozen=True)
class BigTwoRound:
    names: list[str]
    hands: dict[str, LeftHand]
    winner: str
    instant_win: Optional[tuple[str, int]]    # (hand id, multiplier) when the winner won instantly
    order: Optional[list[str]]                # 名次計分: first place first
    failed_to_block: Optional[str]


def check_round_keys(round_: Any) -> None:
    if not isinstance(round_, dict):
        raise ScoringError("a round must be a JSON object with rules and players")
    unknown = [key for key in round_ if key not in ROUND_KEYS]
    if unknown:
        raise ScoringError(f"unknown key {shown(unknown[0])} in the Big Two round; valid keys: {', '.join(ROUND_KEYS)}")
    if "rules" not in round_:
        raise ScoringError("the round names no rules (\"rules\": one of the Big Two presets)")


def _hands(rules: BigTwoRules, players: Any) -> tuple[list[str], dict[str, LeftHand]]:
    names = check_players(players)
    if isinstance(players, dict):
        hands = {name: parse_left_hand(players[name], name) for name in names}
    elif rules.scheme == "rank":
        hands = {name: LeftHand(()) for name in names}
    else:
        raise ScoringError("players must be an object of name -> cards left (\"\" for the winner)")
    check_unique_across(hands)
    limit = rules.options["max_cards"]
    for name, hand in hands.items():
        if len(hand.cards) > limit:
            raise ScoringError(f"{name}: {len(hand.cards)} cards left, but a hand holds at most {limit} "
                               f"(option max_cards)")
    return names, hands


def check_instant_claim(rules: BigTwoRules, player: str, cards: tuple[int, ...]) -> tuple[str, int]:
    """(hand id, multiplier) of the instant win ``player`` claims with ``cards`` (the 13 dealt);
    ScoringError naming the player when the rules pay no instant win these cards make."""
    if rules.scheme == "rank":
        raise ScoringError(f"{player}: rules {rules.preset} score the finishing order and have no instant win")
    paid = best_instant_win(cards, rules.options["instant_wins"])
    if paid is None:
        made = instant_hands(cards)
        shown = " ".join(CODES[card] for card in cards) or "no cards"
        if made:
            raise ScoringError(f"{player}: {INSTANT_NAMES[made[0]][1]} is not an instant win under rules "
                               f"{rules.preset} (option instant_wins)")
        raise ScoringError(f"{player}: {shown} is no instant win: 一條龍 needs 13 cards, one of each rank; "
                           f"四條2 needs the four 2s")
    if len(cards) < DEALT:  # four 2s show in 4 cards, but a claim is the dealt hand shown whole
        raise ScoringError(f"{player}: {len(cards)} card{'' if len(cards) == 1 else 's'} entered; an instant win "
                           f"is shown with all {DEALT} cards {player} was dealt")
    return paid


def _instant_winner(rules: BigTwoRules, names: list[str], hands: dict[str, LeftHand]) -> Optional[tuple]:
    """(winner, (hand id, multiplier)) when a player claims an instant win, after checking the claim."""
    claims = [name for name in names if hands[name].instant_win]
    if not claims:
        return None
    if len(claims) > 1:
        raise ScoringError(f"{claims[0]} and {claims[1]} both claim an instant win; only one player can win")
    winner = claims[0]
    paid = check_instant_claim(rules, winner, hands[winner].cards)
    for name in names:
        if name != winner:
            _check_full_deal(rules, name, len(hands[name].cards), winner)
    return winner, paid


def _check_full_deal(rules: BigTwoRules, name: str, count: int, winner: str) -> None:
    """Under an instant win a loser pays for every card dealt (nobody played one), so a short entry would
    undercharge them. The deal is 13; where max_cards allows a bigger deal (three players, all 52) up to it."""
    if count == 0:
        raise ScoringError(f"{name} has no cards, but {winner} won instantly: enter the cards each loser "
                           f"was dealt")
    if count < DEALT:
        deal = DEALT if rules.options["max_cards"] == DEALT else f"{DEALT} to {rules.options['max_cards']}"
        raise ScoringError(f"{name} has {count} card{'' if count == 1 else 's'}, but {winner} won instantly: "
                           f"enter all {deal} cards {name} was dealt")


def _order(names: list[str], order: Any) -> list[str]:
    if not isinstance(order, list):
        raise ScoringError(f"order must be the list of players, first place first, like {names!r}")
    for name in order:
        if name not in names:
            raise ScoringError(f"order: {shown(name)} is not a player; players: {', '.join(names)}")
    repeated = [name for name in names if order.count(name) > 1]
    if repeated:
        raise ScoringError(f"order: {repeated[0]} is placed twice")
    missing = [name for name in names if name not in order]
    if missing:
        raise ScoringError(f"order: {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} no place; "
                           f"list every player, first place first")
    return list(order)


def _empty_handed_winner(names: list[str], hands: dict[str, LeftHand]) -> str:
    out = [name for name in names if not hands[name].cards]
    if not out:
        raise ScoringError("no player has gone out: the winner's entry must be empty (\"\")")
    if len(out) > 1:
        raise ScoringError(f"{', '.join(out[:-1])} and {out[-1]} hold no cards: exactly one player goes out "
                           f"(the winner); "
                           f"enter the others' cards left")
    return out[0]


def read_round(rules: BigTwoRules, round_: dict) -> BigTwoRound:
    """Check a round against its rules; ScoringError naming the player (and card) at fault."""
    names, hands = _hands(rules, round_.get("players"))
    instant = _instant_winner(rules, names, hands)
    order = None
    if rules.scheme == "rank":
        if "order" not in round_:
            raise ScoringError(f"rules {rules.preset} score the finishing order: give \"order\", the players "
                               f"first place first")
        order = _order(names, round_["order"])
        winner = order[0]
        if hands[winner].cards:
            raise ScoringError(f"{winner} is first in the order but still holds "
                               f"{' '.join(hands[winner].codes)}")
    else:
        if "order" in round_:
            raise ScoringError(f"order is used only by rank scoring (名次計分); rules {rules.preset} charge the "
                               f"cards left (set option scheme = rank to score the order)")
        winner = instant[0] if instant else _empty_handed_winner(names, hands)
    named_winner = round_.get("winner")
    if named_winner is not None and named_winner != winner:
        raise ScoringError(f"the round names {shown(named_winner)} as the winner, but the cards say {winner} went out")
    failed = round_.get("failed_to_block")
    if failed is not None:
        if not rules.options["block_rule"]:
            raise ScoringError(f"rules {rules.preset} have no 頂大/顧牌 rule (option block_rule); leave out "
                               f"failed_to_block")
        if failed not in names:
            raise ScoringError(f"failed_to_block: {shown(failed)} is not a player; players: {', '.join(names)}")
        if failed == winner:
            raise ScoringError(f"failed_to_block: {failed} won the hand; name the loser who did not block")
        if instant:
            raise ScoringError(f"failed_to_block: {winner} won instantly, so nobody could block")
    return BigTwoRound(names, hands, winner, instant[1] if instant else None, order, failed)
