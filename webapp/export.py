"""A game's history as CSV (one line per player per round) or JSON (everything)."""
from __future__ import annotations

import csv
import io
import re
from typing import Any
from urllib.parse import quote

from webapp.games import as_fraction, game_json, standings
from webapp.models import Game, Round
from webapp.rounds import is_criss_cross, round_json
from webapp.rounds.sets import set_results

CSV_COLUMNS = ("round", "status", "banker", "player", "front", "middle", "back", "surrendered",
               "natural", "points", "money", "total_points")
# Criss cross: one line per set, its points and money those of the comparisons it took part in (a player's two
# lines add up to the player's), total_points the player's running total.
CRISS_CROSS_CSV_COLUMNS = CSV_COLUMNS[:4] + ("set",) + CSV_COLUMNS[4:]
# Big Two: the cards left (for an instant win, the claimant's and everyone's 13 dealt), how many, who went
# out, who claimed an instant win; the finishing place under points by place.
BIGTWO_CSV_COLUMNS = ("round", "status", "player", "cards_left", "count", "went_out", "instant_win", "place",
                      "points", "money", "total_points")


# OWASP's CSV-injection rule: a cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a
# line break) gets a leading ' so it shows as the text it is. Plain numbers (our points and money) stay numbers.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """`value` as a CSV cell no spreadsheet will evaluate (OWASP CSV injection)."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS) or PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


class _SafeWriter:
    """csv.writer whose every row goes through spreadsheet_safe."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any] | tuple[Any, ...]) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in row])


def game_export(game: Game, rounds: list[Round]) -> dict[str, Any]:
    from webapp.db import get_session
    from webapp.settle_up import payments_of, public, settle_up

    return {"game": game_json(game), "rounds": [round_json(r) for r in rounds],
            "standings": standings(game, rounds),
            "settle_up": public(settle_up(game, rounds, payments_of(get_session(), game)))}


def download_name(game: Game, part: str, extension: str) -> str:
    """'Friday night-2026-12-01.csv': the game's title (letters, digits, - and _ only; any script) and the day
    it was made, so downloads from several games do not all read game-1.csv."""
    title = re.sub(r"[^\w-]+", "-", game.title, flags=re.UNICODE).strip("-_")[:60] or "game"
    return "-".join(filter(None, (title, part, game.created_at.date().isoformat()))) + "." + extension


def download_headers(game: Game, part: str, extension: str) -> dict[str, str]:
    """Content-Disposition with an ASCII name for old clients and the full UTF-8 name (RFC 6266) for the rest."""
    name = download_name(game, part, extension)
    fallback = re.sub(r"-{2,}", "-", re.sub(r"[^A-Za-z0-9._-]+", "", name)).lstrip("-.") or f"game.{extension}"
    return {"Content-Disposition": f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(name)}"}


def csv_header(columns: tuple[str, ...]) -> list[str]:
    """The columns' names in the reader's language (English: the names the JSON export uses too)."""
    from webapp.i18n import is_english, translate_or

    if is_english():
        return list(columns)
    ids = [f"csv_{column}" for column in columns]   # run-time ids, listed for extraction in webapp.i18n_ids
    return [translate_or(msgid, column) for msgid, column in zip(ids, columns)]


def settle_up_csv(rows: list[dict[str, Any]]) -> str:
    """The settle-up as a spreadsheet: from, to, amount, paid (yes or blank)."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow(csv_header(("from", "to", "amount", "paid")))
    for row in rows:
        writer.writerow([row["from"], row["to"], row["amount"], "yes" if row["paid"] else ""])
    return out.getvalue()


def game_csv(game: Game, rounds: list[Round]) -> str:
    """One line per player per round; the columns are the game's (CSV_COLUMNS or BIGTWO_CSV_COLUMNS)."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    sets = is_criss_cross(game)
    writer.writerow(csv_header(BIGTWO_CSV_COLUMNS if game.is_bigtwo else CRISS_CROSS_CSV_COLUMNS if sets else CSV_COLUMNS))
    totals = {name: as_fraction(0) for name in game.player_names}
    for rnd in rounds:
        settlement = rnd.settlement if rnd.status == "settled" else None
        by_set = set_results(settlement) if sets else {}
        for hand in rnd.hands:
            points = (settlement or {}).get("net", {}).get(hand.player, "")
            money = (settlement or {}).get("money", {}).get(hand.player, "")
            if sets and settlement:
                share = by_set.get((hand.player, hand.hand_set + 1), {"net": 0, "money": 0})
                points, money = str(share["net"]), str(share["money"])
            if settlement:
                totals[hand.player] += as_fraction(points)
            total = str(totals[hand.player]) if settlement else ""
            if game.is_bigtwo:
                order = rnd.finish_order or []
                left = [] if hand.state == "out" else hand.cards
                writer.writerow([rnd.number, rnd.status, hand.player, " ".join(left), len(left),
                                 "yes" if hand.state == "out" else "", "yes" if hand.instant_win else "",
                                 order.index(hand.player) + 1 if hand.player in order else "", points, money, total])
                continue
            writer.writerow([
                rnd.number, rnd.status, rnd.banker or "", hand.player, *([hand.hand_set + 1] if sets else []),
                " ".join(hand.front), " ".join(hand.middle), " ".join(hand.back),
                "yes" if hand.state == "surrender" else "", "yes" if hand.declared_natural else "",
                points, money, total,
            ])
    return out.getvalue()
