"""A game's history as CSV (one line per player per round) or JSON (everything)."""
from __future__ import annotations

import csv
import io
from typing import Any

from webapp.games import as_fraction, game_json, standings
from webapp.models import Game, Round
from webapp.rounds import round_json

CSV_COLUMNS = ("round", "status", "banker", "player", "front", "middle", "back", "surrendered",
               "natural", "points", "money", "total_points")


def game_export(game: Game, rounds: list[Round]) -> dict[str, Any]:
    return {"game": game_json(game), "rounds": [round_json(r) for r in rounds],
            "standings": standings(game, rounds)}


def game_csv(game: Game, rounds: list[Round]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    totals = {name: as_fraction(0) for name in game.player_names}
    for rnd in rounds:
        settlement = rnd.settlement if rnd.status == "settled" else None
        for hand in rnd.hands:
            points = (settlement or {}).get("net", {}).get(hand.player, "")
            money = (settlement or {}).get("money", {}).get(hand.player, "")
            if settlement:
                totals[hand.player] += as_fraction(points)
            writer.writerow([
                rnd.number, rnd.status, rnd.banker or "", hand.player,
                " ".join(hand.front), " ".join(hand.middle), " ".join(hand.back),
                "yes" if hand.state == "surrender" else "", "yes" if hand.declared_natural else "",
                points, money, str(totals[hand.player]) if settlement else "",
            ])
    return out.getvalue()
