"""Points a player earns from the whole table rather than from one opponent: seed 004's 11-point game.

Seed 004 line 108: 別の変種では、手ごとに1点を得るが、ゲーム全体の勝者は11点を得る。4人で競技している時、
3つすべての手で勝った競技者は、第4点を得る。 Read here (docs/scoring-presets.md, "eleven-point"):

* 手ごとに1点: every pair settles 1 point per row won (the preset's row values).
* 第4点 (``fourth_point``): home-run — a player who wins all three rows against every other player (a fouled
  opponent loses all three) takes a fourth point from each; per-scoop — a fourth point from each opponent
  whose three rows it won.  Only at tables of ``fourth_point_min_players`` or more (the seed: 4人).
* ゲーム全体の勝者 (``overall_bonus``): after everything else, the one player with the most points in the
  round is paid the bonus (11) — split evenly among the others, or in full by each (``overall_payment``).
  Players level on the most share it (``overall_ties = share``) or nobody gets it (``none``).
Both need every pair to settle (mode all-pairs), checked in scoring.rules.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .numbers import to_json

FOURTH_POINT, OVERALL = "fourth-point", "overall"
RULE_NAMES = (FOURTH_POINT, OVERALL)


def _exact(value: Fraction) -> Any:
    return value.numerator if value.denominator == 1 else value


def apply_table_points(rules: Any, names: list[str], pairs: list) -> None:
    """Add the fourth point and the overall bonus to the settled pairs (amounts signed for pair.a)."""
    if rules.fourth_point != "none" and len(names) >= rules.fourth_point_min_players:
        _fourth_points(rules, names, pairs)
    if rules.overall_bonus:
        _overall_bonus(rules, names, pairs)


def _won_all_rows(pair: Any) -> int:
    """+1 when pair.a won all three rows, -1 when pair.b did, 0 otherwise."""
    results = pair.results
    if results is None:
        return 0
    if results == (1, 1, 1):
        return 1
    if results == (-1, -1, -1):
        return -1
    return 0


def _fourth_points(rules: Any, names: list[str], pairs: list) -> None:
    if rules.fourth_point == "per-scoop":
        for pair in pairs:
            sign = _won_all_rows(pair)
            if sign:
                pair.extra += sign
                pair.record(FOURTH_POINT, (pair.a.name if sign > 0 else pair.b.name, "scoop"))
        return
    for name in names:
        own = [(pair, 1 if pair.a.name == name else -1) for pair in pairs if name in (pair.a.name, pair.b.name)]
        if own and all(_won_all_rows(pair) == sign for pair, sign in own):
            for pair, sign in own:
                pair.extra += sign
                pair.record(FOURTH_POINT, (name, "home-run"))


def _overall_bonus(rules: Any, names: list[str], pairs: list) -> None:
    totals = dict.fromkeys(names, 0)
    for pair in pairs:
        amount = pair.core + pair.extra
        totals[pair.a.name] += amount
        totals[pair.b.name] -= amount
    best = max(totals.values())
    winners = [name for name in names if totals[name] == best]
    losers = [name for name in names if totals[name] != best]
    if not losers or (len(winners) > 1 and not rules.overall_ties_share):
        return
    # Each winner's share of the bonus, then what each loser pays each winner.
    share = Fraction(rules.overall_bonus, len(winners))
    paid = share if rules.overall_payment_each else share / len(losers)
    for pair in pairs:
        a, b = pair.a.name, pair.b.name
        if (a in winners) == (b in winners):
            continue
        sign = 1 if a in winners else -1
        pair.extra += _exact(paid) * sign
        pair.record(OVERALL, (a if sign > 0 else b, to_json(_exact(paid)), len(winners)))


def describe(pair: Any, rules: Any, rule: str, detail: Any) -> tuple[None, str]:
    """(term, sentence) for the audit's steps."""
    if rule == FOURTH_POINT:
        name, kind = detail
        what = "won all three rows against everyone" if kind == "home-run" else "won all three rows"
        return None, f"{name} {what}: a fourth point"
    name, paid, winners = detail
    shared = f", shared by {winners} players level on the most" if winners > 1 else ""
    return None, f"{name} has the most points this round (overall winner{shared}): +{paid}"
