"""Big Two options: one generic set shared by every Big Two preset (presets only change defaults).

Each option has a checker that returns the normalised value or raises ScoringError, and a help line
that ``python -m scoring presets`` and docs/bigtwo-presets.md show.
"""

from __future__ import annotations

from typing import Any

from ..cards import RANKS, parse_card
from ..errors import ScoringError, shown
# The option record and the simple checkers are the Chinese-poker engine's own: one definition.
from ..options import OptionSpec, _bool, _enum, _int_at_least as _whole
from ..options import check_options as check_option_values

RANK_KEYS = tuple("23456789") + ("T", "J", "Q", "K", "A")   # card_values keys; "10" is read as "T"
INSTANT_WINS = ("same-suit-dragon", "dragon", "four-twos")    # checked in this order: best first
MONSTER_HANDS = ("four-of-a-kind", "straight-flush")
SETTLEMENTS = ("winner-collects", "pairwise", "scores")
SCHEMES = ("cards", "rank")
MAX_HAND = 18   # a three-player deal of all 52 cards gives 17, 17 and 18 (seed 003 line 130)


def _object(value: Any, name: str, example: str) -> dict:
    if not isinstance(value, dict):
        raise ScoringError(f"option {name} must be an object like {example}; got {shown(value)}")
    return value


def _card_values(value: Any, name: str) -> dict:
    """Points per rank for all 13 ranks, e.g. {"2": 40, "A": 30, "K": 20, ..., "3": 3}."""
    table = _object(value, name, '{"2": 40, "A": 30, ..., "3": 3}')
    checked = {}
    for key, points in table.items():
        rank = "T" if str(key).upper() == "10" else str(key).upper()
        if rank not in RANK_KEYS or rank in checked:
            raise ScoringError(f"option {name}: {shown(key)} is not a rank (or is given twice); "
                               f"ranks: {', '.join(RANK_KEYS)}")
        checked[rank] = _whole(0)(points, f"{name}.{key}")
    missing = [rank for rank in RANK_KEYS if rank not in checked]
    if missing:
        raise ScoringError(f"option {name} must give every rank; missing {', '.join(missing)}")
    return {rank: checked[rank] for rank in RANK_KEYS}


def _card_overrides(value: Any, name: str) -> dict:
    """Points for particular cards that replace their rank's value, e.g. {"AS": 40} (黑桃A = −40)."""
    table = _object(value, name, '{"AS": 40}')
    checked = {}
    for key, points in table.items():
        try:
            card = parse_card(key)
        except ScoringError as err:
            raise ScoringError(f"option {name}: {err}") from None
        checked[card] = _whole(0)(points, f"{name}.{key}")
    return checked


def _count_multipliers(value: Any, name: str) -> dict:
    """Cards-left tiers: {"8": 2, "10": 3, "13": 4} (from 8 cards ×2 ...); the highest tier reached applies."""
    table = _object(value, name, '{"8": 2, "10": 3, "13": 4}')
    checked: dict[str, int] = {}
    for key, factor in table.items():
        try:
            count = int(key)
        except (TypeError, ValueError):
            count = 0
        if count < 1 or count > MAX_HAND or str(count) != str(key).strip():
            raise ScoringError(f"option {name}: {shown(key)} is not a card count from 1 to {MAX_HAND}")
        checked[str(count)] = _whole(1)(factor, f"{name}.{key}")
    return dict(sorted(checked.items(), key=lambda item: int(item[0])))


def _instant_wins(value: Any, name: str) -> dict:
    """Multiplier per instant-win hand (null: that hand is no instant win)."""
    table = _object(value, name, '{"dragon": 3, "four-twos": null}')
    checked = {}
    for hand, factor in table.items():
        if hand not in INSTANT_WINS:
            raise ScoringError(f"option {name}: unknown instant win {shown(hand)}; known: {', '.join(INSTANT_WINS)}")
        checked[hand] = None if factor is None else _whole(1)(factor, f"{name}.{hand}")
    return checked


def _monster_hands(value: Any, name: str) -> list:
    if not isinstance(value, list) or any(hand not in MONSTER_HANDS for hand in value):
        raise ScoringError(f"option {name} must be a list of {', '.join(MONSTER_HANDS)}; got {shown(value)}")
    return [hand for hand in MONSTER_HANDS if hand in value]


def _rank_points(value: Any, name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise ScoringError(f"option {name} must be null (players − 1 down to 0) or a list of points, first "
                           f"place first, one per player, like [3, 2, 1, 0]; got {shown(value)}")
    return [_whole(0)(points, f"{name}[{index}]") for index, points in enumerate(value, 1)]


OPTIONS: dict[str, OptionSpec] = {spec.name: spec for spec in [
    OptionSpec("scheme", "cards: losers are charged for the cards left in hand; rank: points by finishing "
               "order (名次計分; the round gives \"order\")", _enum(*SCHEMES), SCHEMES),
    OptionSpec("card_values", "points each card left costs, by rank (all 13 ranks; 1 each = count the cards)",
               _card_values),
    OptionSpec("card_overrides", "points for particular cards instead of their rank's value, e.g. "
               "{\"AS\": 40} (some tables count 黑桃A as −40)", _card_overrides),
    OptionSpec("count_multipliers", "cards-left tiers: minimum count -> multiplier (八張起雙炒 = {\"8\": 2}); "
               "the highest tier reached applies", _count_multipliers),
    OptionSpec("even_count_multiplier", "multiplier when the number of cards left is even (剩餘張數為偶數; "
               "1 = none)", _whole(1)),
    OptionSpec("two_multiplier", "multiplier for holding a 2 (老二; 1 = none)", _whole(1)),
    OptionSpec("two_multiplier_applies", "once: one 2 or more multiply once; per-two: each 2 multiplies "
               "again (加扣分制: four 2s = ×16)", _enum("once", "per-two"), ("once", "per-two")),
    OptionSpec("monster_multiplier", "multiplier when the cards left hold a 怪物牌 (see monster_hands; "
               "1 = none)", _whole(1)),
    OptionSpec("monster_hands", "what counts as 怪物牌 among the cards left: four-of-a-kind (鐵支), "
               "straight-flush (同花順: A2345, 23456 ... TJQKA of one suit)", _monster_hands, MONSTER_HANDS),
    OptionSpec("winner_bonus", "points added to the winner's score (加扣分制 +1; 香港 贏者可減五分或十分); "
               "scheme cards only; needs settlement scores or pairwise (under winner-collects nobody would "
               "pay it)", _whole(0)),
    OptionSpec("settlement", "winner-collects: each loser pays the winner their penalty (zero sum); "
               "pairwise: every pair settles the difference of their scores (zero sum); scores: each "
               "player's score is their net, a running tally (not zero sum)", _enum(*SETTLEMENTS), SETTLEMENTS),
    OptionSpec("block_rule", "頂大/顧牌: the round may name the player who failed to block "
               "(\"failed_to_block\"); that player pays everyone else's losses and they lose nothing", _bool),
    OptionSpec("instant_wins", "instant wins (即時勝出) and the multiplier their losers pay (三炒 = 3), by hand "
               "(a round's object changes only the hands it names); null turns one off: same-suit-dragon "
               "(同花一條龍), dragon (一條龍), four-twos (四條2)",
               _instant_wins, INSTANT_WINS),
    OptionSpec("rank_points", "名次計分: points by finishing place, first first; null: players − 1 down to 0 "
               "(3/2/1/0 with four players)", _rank_points),
    OptionSpec("max_cards", f"most cards a player may have left (13; up to {MAX_HAND} where three players "
               f"deal out all 52 cards)", _whole(1, MAX_HAND)),
]}

DEFAULTS: dict[str, Any] = {
    "scheme": "cards", "card_values": {rank: 1 for rank in RANK_KEYS}, "card_overrides": {},
    "count_multipliers": {}, "even_count_multiplier": 1, "two_multiplier": 1, "two_multiplier_applies": "once",
    "monster_multiplier": 1, "monster_hands": list(MONSTER_HANDS), "winner_bonus": 0,
    "settlement": "winner-collects", "block_rule": True,
    "instant_wins": {"same-suit-dragon": 3, "dragon": 3, "four-twos": None}, "rank_points": None,
    "max_cards": 13,
}
assert set(DEFAULTS) == set(OPTIONS)
assert RANKS == "23456789TJQKA"


def check_options(options: Any) -> dict[str, Any]:
    """Validate a Big Two round's options object (names and values); returns normalised values."""
    return check_option_values(options, OPTIONS, "Big Two")
