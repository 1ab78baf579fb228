"""The words of a settlement: per-player rows with hand names, per-pair rows and the rules applied.

Runs after the numeric pass (scoring.pairs) and turns its records into JSON a person can check.
"""

from __future__ import annotations

from typing import Optional

from . import table_points
from .cards import CODES
from .numbers import to_json
from .options import ROWS
from .pairs import SUITS_NOTE, TOP_CARD_NOTE, PairResult
from .player_state import NATURAL, PlayerState, hand_names
from .rules import Rules


def row_entries(state: PlayerState, rules: Rules) -> Optional[list]:
    """The player's three rows with cards, hand names (English, Chinese) and the points each wins."""
    if state.strengths is None:
        return None
    cache = rules.names_cache
    entries = []
    for row, cards, strength, value in zip(ROWS, state.rows, state.strengths, state.values):
        category, english, chinese = cache.get(strength >> 12) or hand_names(strength, rules)
        entries.append({"row": row, "cards": list(map(CODES.__getitem__, cards)), "hand": english,
                        "hand_zh": chinese, "category": category, "value": value})
    return entries


def player_entry(state: PlayerState, rows: Optional[list], home_run: bool) -> dict:
    natural = None
    if state.natural is not None:
        natural = {"id": state.natural.id, "en": state.natural.en, "zh": state.natural.zh,
                   "points": state.natural.points}
        if state.natural_rows is not None:
            natural["rows"] = {row: [CODES[card] for card in cards]
                               for row, cards in zip(ROWS, state.natural_rows)}
    return {"status": state.status, "rows": rows, "natural": natural,
            "naturals_detected": list(state.detected), "foul": state.foul, "home_run": home_run}


def _natural_text(state: PlayerState) -> str:
    natural = state.natural
    return f"{state.name}'s {natural.zh} ({natural.en}, {natural.points})"


_WON_TEXT: dict[tuple, str] = {}


def _won_text(won: tuple) -> str:
    """'4 (front 3, back 1)' for ((row, points), ...) won by one side; cached, there are few of them."""
    text = _WON_TEXT.get(won)
    if text is None:
        total = sum(points for _, points in won)
        text = f"{total} ({', '.join(f'{ROWS[row]} {points}' for row, points in won)})" if won else "0"
        _WON_TEXT[won] = text
    return text


def _rows_text(pair: PairResult) -> str:
    """'rows won: Ann 4 (front 3, back 1); Bob 1 (middle 1)'."""
    results, points = pair.results, pair.points
    won_a = tuple((row, points[row]) for row in range(3) if results[row] > 0)
    won_b = tuple((row, points[row]) for row in range(3) if results[row] < 0)
    return f"rows won: {pair.a.name} {_won_text(won_a)}; {pair.b.name} {_won_text(won_b)}"


def _detail(pair: PairResult, rules: Rules, rule: str, detail: object) -> tuple[Optional[str], str]:
    """(local term, English sentence) for one applied rule."""
    a, b = pair.a, pair.b
    terms = rules.terms
    if rule == "rows":
        return None, _rows_text(pair)
    if rule == "royalties":
        extra_a, extra_b = detail
        return None, f"royalties paid whatever the row's result: {a.name} +{extra_a}, {b.name} +{extra_b}"
    if rule == "majority":
        winner = a if detail > 0 else b
        return None, f"{winner.name} won 2 or more rows: +{rules.majority_bonus}"
    if rule in ("scoop", "scoop-bonus"):
        scorer, victim = (a, b) if detail > 0 else (b, a)
        term = terms["scoop"] if pair.full_scoop else terms["no_loss_scoop"]
        if rule == "scoop-bonus":
            return term, f"{scorer.name} scoop bonus +{rules.scoop_bonus}"
        what = "scoops" if pair.full_scoop else "wins without losing a row against (counts as a scoop)"
        if rules.scoop_multiplier == 1:
            return term, f"{scorer.name} {what} {victim.name} (no multiplier in these rules)"
        part = "row points" if rules.multiply_royalties else "base row points (royalties not multiplied)"
        return term, f"{scorer.name} {what} {victim.name}: {part} ×{rules.scoop_multiplier}"
    if rule == "foul":
        if detail == 0:
            return terms["foul"], "both hands are fouled: nothing changes hands"
        winner, fouled = (a, b) if detail > 0 else (b, a)
        return terms["foul"], (f"{fouled.name}'s hand is fouled ({fouled.foul}): {winner.name} wins every "
                               f"row, collecting {sum(winner.values)}")
    if rule == "natural":
        if detail == "wins":
            holder, other = (a, b) if a.status == NATURAL else (b, a)
            return terms["natural"], f"{_natural_text(holder)} wins {holder.natural.points} from {other.name}"
        if detail == "tie":
            return terms["natural"], f"{_natural_text(a)} and {_natural_text(b)} tie"
        if detail == "equal":
            return terms["natural"], f"{_natural_text(a)} and {_natural_text(b)} are equal: no payment"
        if detail == "banker-pays":
            player = a if pair.core > 0 else b   # the player the banker paid
            return terms["natural"], f"both have naturals: the banker pays {_natural_text(player)}"
        higher, lower = (a, b) if a.natural.rank > b.natural.rank else (b, a)
        return terms["natural"], (f"{_natural_text(higher)} beats {_natural_text(lower)}: "
                                  f"{lower.name} pays {higher.natural.points}")
    if rule == "surrender":
        if detail == "both":
            return terms["surrender"], "both surrendered: nothing changes hands"
        quitter, other = (a, b) if a.status == "surrendered" else (b, a)
        if detail == "fouled":
            return terms["surrender"], (f"{quitter.name} surrendered and {other.name}'s hand is fouled: "
                                        f"nothing changes hands")
        return terms["surrender"], f"{quitter.name} surrendered: pays {other.name} {to_json(rules.surrender_cost)}"
    if rule in table_points.RULE_NAMES:
        return table_points.describe(pair, rules, rule, detail)
    if rule == "home-run":
        name, multiplier, total, count, by_natural = detail
        if total is not None:
            return terms["home_run"], (f"{name} scooped everyone: total ×{multiplier} = {to_json(total)}, "
                                       f"split evenly among {count}")
        what = "beat everyone with a natural" if by_natural else "scooped everyone"
        return terms["home_run"], f"{name} {what}: ×{multiplier}"
    raise AssertionError(f"no wording for rule {rule!r}")


def _row_note(pair: PairResult, rules: Rules, row: int) -> Optional[str]:
    if pair.outcome == "foul":
        fouled = pair.b if pair.results[0] > 0 else pair.a
        return f"{fouled.name}'s hand is fouled"
    if pair.notes is None or pair.notes[row] is None:
        return None
    if pair.notes[row] == TOP_CARD_NOTE:
        return f"{rules.terms['tie_top_card']}: same category and top card, the banker wins"
    if pair.notes[row] == SUITS_NOTE:
        return "equal ranks, decided by suits"
    return None


def pair_rows(pair: PairResult, rules: Rules, rows_by_player: dict) -> Optional[list]:
    """Each row's result: both hands, the winner and the points it collected."""
    if pair.results is None:
        return None
    a, b = pair.a.name, pair.b.name
    hands_a, hands_b = rows_by_player[a], rows_by_player[b]
    results, points = pair.results, pair.points
    entries = [{"row": ROWS[index], "winner": a if results[index] > 0 else b if results[index] < 0 else None,
                "points": points[index] if results[index] else 0,
                "hands": {a: hands_a[index], b: hands_b[index]}} for index in range(3)]
    if pair.notes is not None or pair.outcome == "foul":
        for index, entry in enumerate(entries):
            note = _row_note(pair, rules, index)
            if note:
                entry["note"] = note
    return entries


def pair_steps(pair: PairResult, rules: Rules) -> list:
    """Every rule applied to the pair, in order, with the pair's running result after it."""
    steps = []
    a, b = pair.a.name, pair.b.name
    for rule, detail, total in pair.applied:
        term, sentence = _detail(pair, rules, rule, detail)
        if total.__class__ is not int:
            total, negative = to_json(total), to_json(-total)
        else:
            negative = -total
        steps.append({"rule": rule, "term": term, "detail": sentence, "points": {a: total, b: negative}})
    return steps
