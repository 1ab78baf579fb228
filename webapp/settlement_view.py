"""Scoring's settlement JSON reshaped for the round page: totals, then each pair row by row (Chinese
poker) or each loser's count (Big Two)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from scoring.criss_cross import seat_name

from webapp.games import as_fraction, show_number


def settlement_view(settlement: dict[str, Any] | None, players: list[str]) -> dict[str, Any] | None:
    """None before settling; otherwise totals, per-pair rows with hand names, audit notes and (Big Two)
    the instant win the winner claimed ({"player", "hand", "en", "zh", "multiplier"}, else None)."""
    if not settlement:
        return None
    notes = []
    for name, info in _hands_of(settlement.get("players") or {}):
        if not isinstance(info, dict):
            continue
        natural = info.get("natural")
        if isinstance(natural, dict):
            notes.append({"en": f"{name}: {natural.get('en', '')} ({natural.get('points', '')})",
                          "zh": natural.get("zh", ""), "kind": "natural", "player": name,
                          "points": natural.get("points", "")})
        if info.get("foul"):
            notes.append({"en": f"{name}: fouled — {info['foul']}", "zh": ""})
        if info.get("status") == "surrendered":
            notes.append({"en": f"{name}: surrendered", "zh": ""})
        if info.get("detail"):  # Big Two: how a loser's penalty was counted
            terms = " ".join(m["term"] for m in info.get("multipliers") or [] if isinstance(m, dict) and m.get("term"))
            notes.append({"en": f"{name}: {info['detail']}", "zh": terms})
    # Big Two: rules applied to the whole hand (頂大 moving the losses, the places of 名次計分).
    notes += [{"en": step["detail"], "zh": ""} for step in settlement.get("steps") or []
              if isinstance(step, dict) and step.get("detail")]
    return {
        "players": players,
        "net": settlement.get("net") or {},
        "money": settlement.get("money") or {},
        "transfers": transfers(settlement.get("money") or {}),
        "pairs": [_pair_view(p) for p in settlement.get("pairs") or [] if isinstance(p, dict)],
        "notes": notes,
        "instant_win": settlement.get("instant_win") if isinstance(settlement.get("instant_win"), dict) else None,
    }


def _pair_view(pair: dict[str, Any]) -> dict[str, Any]:
    sides = [str(p) for p in pair.get("players") or []]
    rows = []
    for row in pair.get("rows") or []:
        if not isinstance(row, dict):
            continue
        hands = row.get("hands") or {}
        names = []
        for side in sides:
            hand = hands.get(side) if isinstance(hands, dict) else None
            if isinstance(hand, dict):
                names.append({"en": hand.get("hand", ""), "zh": hand.get("hand_zh", ""),
                              "cards": hand.get("cards", [])})
            else:
                names.append({"en": "", "zh": ""})
        points = row.get("points", 0)
        winner = row.get("winner")
        rows.append({"row": row.get("row", ""), "names": names, "winner": winner,
                     "points": f"{winner} +{points}" if winner else "=", "note": row.get("note")})
    net = pair.get("net")
    result = " · ".join(f"{k} {_signed(v)}" for k, v in net.items()) if isinstance(net, dict) else ""
    notes = [{"en": s.get("detail", ""), "zh": s.get("term") or ""} for s in pair.get("steps") or []
             if isinstance(s, dict)]
    sides = _set_labels(pair, sides)
    return {"title": " vs ".join(sides), "sides": sides, "rows": rows, "result": result, "notes": notes}


def _hands_of(players: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, entry) per hand of the settlement; a criss-cross player's two sets as "Ann (set 1)", "Ann (set 2)"."""
    out = []
    for name, info in players.items():
        sets = info.get("sets") if isinstance(info, dict) and info.get("status") == "sets" else None
        if isinstance(sets, list):
            out += [(seat_name(name, number), entry) for number, entry in enumerate(sets, 1)]
        else:
            out.append((name, info))
    return out


def _set_labels(pair: dict[str, Any], sides: list[str]) -> list[str]:
    """A criss-cross comparison's sides named with their sets ("Ann (set 1)"); other pairs' as they are."""
    sets = pair.get("sets")
    if not isinstance(sets, list) or len(sets) != len(sides):
        return sides
    return [seat_name(side, number) for side, number in zip(sides, sets)]


def _signed(value: Any) -> str:
    text = str(value)
    return text if text.startswith("-") or text == "0" else "+" + text


def transfers(money: dict[str, Any]) -> list[dict[str, str]]:
    """Who pays whom for the round's money, in the fewest payments, exact amounts:
    [{"from": "Bob", "to": "Ann", "amount": "3"}, ...], biggest payment first.

    The fewest payments settle the most separate groups of players whose money adds up to zero (each group of k
    players needs k - 1 payments); tables have at most a handful of players, so every subset is tried."""
    balances = {name: as_fraction(value) for name, value in money.items()}
    names = [name for name, value in balances.items() if value != 0]
    result = []
    for group in _zero_sum_groups([balances[name] for name in names]):
        result += _pay_within([(names[i], balances[names[i]]) for i in group])
    result.sort(key=lambda t: (-t[2], t[0], t[1]))
    return [{"from": payer, "to": payee, "amount": money_text(amount)} for payer, payee, amount in result]


def money_text(value: Fraction) -> str:
    """Exact: 3, 1.5, 0.25 as decimals; 2/3 as a fraction with an approximation (games.show_number)."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return show_number(value)
    places = 0
    while (value * 10 ** places).denominator != 1:
        places += 1
    scaled = value * 10 ** places  # a whole number
    sign, digits = ("-" if scaled < 0 else ""), str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else str(value.numerator)


MAX_EXACT_PLAYERS = 12  # 2**12 subsets; beyond that one group (still correct, maybe a payment or two more)


def _zero_sum_groups(values: list[Fraction]) -> list[list[int]]:
    """The indices split into the most groups that each add up to zero (bitmask dynamic programme)."""
    n = len(values)
    if n == 0:
        return []
    if n > MAX_EXACT_PLAYERS:
        return [list(range(n))]
    full = (1 << n) - 1
    total = [Fraction(0)] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    # best[mask]: most zero-sum groups a zero-sum `mask` splits into; choice[mask]: the group holding its lowest index
    best = [0] * (full + 1)
    choice = [0] * (full + 1)
    for mask in range(1, full + 1):
        if total[mask] != 0:
            continue
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:  # every zero-sum group containing the lowest member, the rest split as well as it can be
            group = sub | low
            if total[group] == 0 and best[mask ^ group] + 1 > best[mask] and (mask ^ group == 0 or best[mask ^ group]):
                best[mask], choice[mask] = best[mask ^ group] + 1, group
            if sub == 0:
                break
            sub = (sub - 1) & rest
    groups, mask = [], full
    while mask:
        group = choice[mask] or mask
        groups.append([i for i in range(n) if group >> i & 1])
        mask ^= group
    return groups


def _pay_within(group: list[tuple[str, Fraction]]) -> list[tuple[str, str, Fraction]]:
    """A zero-sum group settled in len(group) - 1 payments: the biggest debtor pays the biggest creditor."""
    debtors = sorted(((-v, n) for n, v in group if v < 0), reverse=True)
    creditors = sorted(((v, n) for n, v in group if v > 0), reverse=True)
    debtors = [[amount, name] for amount, name in debtors]
    creditors = [[amount, name] for amount, name in creditors]
    payments = []
    i = j = 0
    while i < len(debtors) and j < len(creditors):
        amount = min(debtors[i][0], creditors[j][0])
        payments.append((debtors[i][1], creditors[j][1], amount))
        debtors[i][0] -= amount
        creditors[j][0] -= amount
        if debtors[i][0] == 0:
            i += 1
        if creditors[j][0] == 0:
            j += 1
    return payments
