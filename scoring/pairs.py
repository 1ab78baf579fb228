"""Settling one pair of players: rows, royalties, majority and scoop bonuses, fouls, naturals, surrender.

Amounts are signed from the pair's first player's view.  ``core`` is the part that a home run
multiplies (row points, or just their base 1-per-row part when royalties are not multiplied, or a
natural's points); ``extra`` is the rest (bonuses that are never multiplied).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .numbers import Exact, to_json
from .options import ROWS
from .player_state import FOULED, NATURAL, SURRENDERED, PlayerState
from .rules import Rules

ROWS_OUTCOME, FOUL_OUTCOME, BOTH_FOULED, NATURAL_OUTCOME, SURRENDER_OUTCOME = (
    "rows", "foul", "both-fouled", "natural", "surrender")


@dataclass(slots=True)
class PairResult:
    a: PlayerState
    b: PlayerState
    outcome: str
    rows: Optional[list] = None
    scooper: int = 0            # +1: a scooped b, -1: b scooped a
    core: Exact = 0
    extra: Exact = 0
    steps: list = field(default_factory=list)
    amount: Exact = 0

    def step(self, rule: str, term: Optional[str], detail: str) -> None:
        """Record one rule applied, with the pair's running result after it."""
        amount = self.core + self.extra
        self.steps.append({"rule": rule, "term": term, "detail": detail,
                           "points": {self.a.name: to_json(amount), self.b.name: to_json(-amount)}})


def _suit_order_key(cards: tuple[int, ...], suit_rank: tuple[int, ...]) -> list[int]:
    """Suit strengths of a row's cards in significance order (bigger groups, then higher ranks first)."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    ordered = sorted(cards, key=lambda card: (counts[card >> 2], card >> 2, suit_rank[card & 3]), reverse=True)
    return [suit_rank[card & 3] for card in ordered]


def _row_result(rules: Rules, a: PlayerState, b: PlayerState, row: int, banker_sign: int) -> tuple[int, Optional[str]]:
    """+1 a wins the row, -1 b wins it, 0 tie; with a note when a special tie rule decided it."""
    sa, sb = a.strengths[row], b.strengths[row]
    if rules.banker_top_card_ties and banker_sign:
        ka, kb = sa >> 16, sb >> 16   # category and top card only
        if ka != kb:
            return (1 if ka > kb else -1), None
        return banker_sign, f"{rules.terms['tie_top_card']}: same category and top card, the banker wins"
    if sa != sb:
        return (1 if sa > sb else -1), None
    if rules.suit_rank is not None:
        key_a = _suit_order_key(a.rows[row], rules.suit_rank)
        key_b = _suit_order_key(b.rows[row], rules.suit_rank)
        if key_a != key_b:
            return (1 if key_a > key_b else -1), "equal ranks, decided by suits"
    return 0, None


def _won_rows_text(state: PlayerState, won: list) -> str:
    if not won:
        return f"{state.name} 0"
    return f"{state.name} {sum(points for _, points in won)} ({', '.join(f'{row} {points}' for row, points in won)})"


def _scoop_and_bonuses(pair: PairResult, rules: Rules, wins: int, losses: int, base: int, royalty: int) -> None:
    """Apply the majority bonus, scoop multiplier and scoop bonus to a pair whose rows are known."""
    a, b = pair.a, pair.b
    scooper = 0
    if losses == 0 and (wins == 3 or (rules.scoop_includes_no_loss and wins > 0)):
        scooper = 1
    elif wins == 0 and (losses == 3 or (rules.scoop_includes_no_loss and losses > 0)):
        scooper = -1
    if pair.outcome == FOUL_OUTCOME and not rules.foul_counts_as_scoop:
        scooper = 0
    pair.scooper = scooper
    if rules.multiply_royalties:
        pair.core, pair.extra = base + royalty, 0
    else:
        pair.core, pair.extra = base, royalty
    if rules.majority_bonus and (wins >= 2 or losses >= 2):
        winner = a if wins >= 2 else b
        pair.extra += rules.majority_bonus if wins >= 2 else -rules.majority_bonus
        pair.step("majority", None, f"{winner.name} won 2 or more rows: +{rules.majority_bonus}")
    if not scooper:
        return
    scorer, victim = (a, b) if scooper > 0 else (b, a)
    full = (wins if scooper > 0 else losses) == 3
    term = rules.terms["scoop"] if full else rules.terms["no_loss_scoop"]
    what = "scoops" if full else "wins without losing a row against (counts as a scoop)"
    if rules.scoop_multiplier > 1:
        pair.core *= rules.scoop_multiplier
        part = "row points" if rules.multiply_royalties else "base row points (royalties not multiplied)"
        pair.step("scoop", term, f"{scorer.name} {what} {victim.name}: {part} ×{rules.scoop_multiplier}")
    else:
        pair.step("scoop", term, f"{scorer.name} {what} {victim.name} (no multiplier in these rules)")
    if rules.scoop_bonus:
        pair.extra += rules.scoop_bonus * scooper
        pair.step("scoop-bonus", term, f"{scorer.name} scoop bonus +{rules.scoop_bonus}")


def _rows_pair(rules: Rules, a: PlayerState, b: PlayerState, banker_sign: int) -> PairResult:
    pair = PairResult(a, b, ROWS_OUTCOME)
    wins = losses = base = royalty = 0
    won_a: list = []
    won_b: list = []
    rows = []
    always = rules.royalties_always
    for index in range(3):
        result, note = _row_result(rules, a, b, index, banker_sign)
        row = ROWS[index]
        entry = {"row": row, "winner": None, "points": 0,
                 "hands": {a.name: a.row_json[index], b.name: b.row_json[index]}}
        if result:
            winner = a if result > 0 else b
            value = 1 if always else winner.values[index]
            entry["winner"] = winner.name
            entry["points"] = value
            base += result
            royalty += result * (value - 1)
            if result > 0:
                wins += 1
                won_a.append((row, value))
            else:
                losses += 1
                won_b.append((row, value))
        if note:
            entry["note"] = note
        rows.append(entry)
    pair.rows = rows
    pair.core = base + royalty
    pair.step("rows", None, f"rows won: {_won_rows_text(a, won_a)}; {_won_rows_text(b, won_b)}")
    if always:
        extra_a, extra_b = sum(a.values) - 3, sum(b.values) - 3
        if extra_a or extra_b:
            royalty += extra_a - extra_b
            pair.core = base + royalty
            pair.step("royalties", None, f"royalties paid whatever the row's result: "
                                         f"{a.name} +{extra_a}, {b.name} +{extra_b}")
    _scoop_and_bonuses(pair, rules, wins, losses, base, royalty)
    return pair


def _foul_pair(rules: Rules, a: PlayerState, b: PlayerState) -> PairResult:
    pair = PairResult(a, b, FOUL_OUTCOME)
    sign = 1 if b.status == FOULED else -1
    winner, fouled = (a, b) if sign > 0 else (b, a)
    values = winner.values
    rows = []
    for index, row in enumerate(ROWS):
        rows.append({"row": row, "winner": winner.name, "points": values[index],
                     "hands": {a.name: a.row_json[index], b.name: b.row_json[index]},
                     "note": f"{fouled.name}'s hand is fouled"})
    pair.rows = rows
    royalty = sum(values) - 3
    pair.core = sign * (3 + royalty)
    pair.step("foul", rules.terms["foul"],
              f"{fouled.name}'s hand is fouled ({fouled.foul}): {winner.name} wins every row, "
              f"collecting {3 + royalty}")
    wins, losses = (3, 0) if sign > 0 else (0, 3)
    _scoop_and_bonuses(pair, rules, wins, losses, 3 * sign, royalty * sign)
    return pair


def _natural_text(state: PlayerState) -> str:
    natural = state.natural
    return f"{state.name}'s {natural.zh} ({natural.en}, {natural.points})"


def _natural_pair(rules: Rules, a: PlayerState, b: PlayerState, banker_sign: int) -> PairResult:
    pair = PairResult(a, b, NATURAL_OUTCOME)
    term = rules.terms["natural"]
    if a.status == NATURAL and b.status == NATURAL:
        policy = rules.natural_vs_natural
        if policy == "tie":
            pair.step("natural", term, f"{_natural_text(a)} and {_natural_text(b)} tie")
            return pair
        if policy == "banker-pays-player" and banker_sign:
            player = b if banker_sign > 0 else a
            pair.core = player.natural.points * -banker_sign
            pair.step("natural", term, f"both have naturals: the banker pays {_natural_text(player)}")
            return pair
        if a.natural.rank == b.natural.rank:
            pair.step("natural", term, f"{_natural_text(a)} and {_natural_text(b)} are equal: no payment")
            return pair
        higher, lower = (a, b) if a.natural.rank > b.natural.rank else (b, a)
        pair.core = higher.natural.points * (1 if higher is a else -1)
        pair.step("natural", term, f"{_natural_text(higher)} beats {_natural_text(lower)}: "
                                   f"{lower.name} pays {higher.natural.points}")
        return pair
    holder, other = (a, b) if a.status == NATURAL else (b, a)
    pair.core = holder.natural.points * (1 if holder is a else -1)
    pair.step("natural", term, f"{_natural_text(holder)} wins {holder.natural.points} from {other.name}")
    return pair


def _surrender_pair(rules: Rules, a: PlayerState, b: PlayerState) -> PairResult:
    pair = PairResult(a, b, SURRENDER_OUTCOME)
    term = rules.terms["surrender"]
    if a.status == SURRENDERED and b.status == SURRENDERED:
        pair.step("surrender", term, "both surrendered: nothing changes hands")
        return pair
    quitter, other = (a, b) if a.status == SURRENDERED else (b, a)
    if other.status == FOULED:
        pair.step("surrender", term, f"{quitter.name} surrendered and {other.name}'s hand is fouled: "
                                     f"nothing changes hands")
        return pair
    cost = rules.surrender_cost
    pair.extra = cost * (-1 if quitter is a else 1)
    pair.step("surrender", term, f"{quitter.name} surrendered: pays {other.name} {to_json(cost)}")
    return pair


def settle_pair(rules: Rules, a: PlayerState, b: PlayerState, banker_sign: int = 0) -> PairResult:
    """Settle a pair; ``banker_sign`` is +1 when a is the banker, -1 when b is, 0 without a banker."""
    if a.status == NATURAL or b.status == NATURAL:
        return _natural_pair(rules, a, b, banker_sign)
    if a.status == SURRENDERED or b.status == SURRENDERED:
        return _surrender_pair(rules, a, b)
    if a.status == FOULED or b.status == FOULED:
        if a.status == FOULED and b.status == FOULED:
            pair = PairResult(a, b, BOTH_FOULED)
            pair.step("foul", rules.terms["foul"], "both hands are fouled: nothing changes hands")
            return pair
        return _foul_pair(rules, a, b)
    return _rows_pair(rules, a, b, banker_sign)
