"""Scoring's settlement JSON reshaped for the round page: totals, then each pair row by row (Chinese
poker) or each loser's count (Big Two)."""
from __future__ import annotations

from typing import Any


def settlement_view(settlement: dict[str, Any] | None, players: list[str]) -> dict[str, Any] | None:
    """None before settling; otherwise totals, per-pair rows with hand names, audit notes and (Big Two)
    the instant win the winner claimed ({"player", "hand", "en", "zh", "multiplier"}, else None)."""
    if not settlement:
        return None
    notes = []
    for name, info in (settlement.get("players") or {}).items():
        if not isinstance(info, dict):
            continue
        natural = info.get("natural")
        if isinstance(natural, dict):
            notes.append({"en": f"{name}: {natural.get('en', '')} ({natural.get('points', '')})",
                          "zh": natural.get("zh", "")})
        if info.get("foul"):
            notes.append({"en": f"{name}: fouled — {info['foul']}", "zh": ""})
        if info.get("status") == "surrendered":
            notes.append({"en": f"{name}: surrendered", "zh": "投降"})
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
    return {"title": " vs ".join(sides), "sides": sides, "rows": rows, "result": result, "notes": notes}


def _signed(value: Any) -> str:
    text = str(value)
    return text if text.startswith("-") or text == "0" else "+" + text
