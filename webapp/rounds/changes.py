"""Each change to a round as one line a person reads ("Bob moved 7♠ from Ann's middle to back"), with who made it
and the round version it produced: the live page's change line and a 412's "what changed since"."""
from __future__ import annotations

from typing import Any

from webapp.models import Round, RoundEvent
from webapp.rounds.live import SOMEONE

RECENT = 20  # change lines in the round JSON
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card(code: Any) -> str:
    """'7S' -> '7♠', 'TH' -> '10♥'; anything else as it is."""
    text = str(code or "?")
    if len(text) == 2 and text[1] in SUITS:
        return ("10" if text[0] == "T" else text[0]) + SUITS[text[1]]
    return text


def _whose(player: str | None, actor: str) -> str:
    return "their" if player == actor else f"{player}'s"


def _position(index: Any) -> str:
    return f"card {int(index) + 1}" if isinstance(index, int) else "a card"


def describe(event: RoundEvent, by_id: dict[int, RoundEvent] | None = None) -> str:
    """The event as a line, naming its actor first."""
    actor = event.actor or SOMEONE
    d = event.detail or {}
    player, kind = event.player, event.kind
    whose = _whose(player, actor)
    if d.get("set"):  # criss cross: which of the player's two sets
        whose, player = f"{whose} set {d['set']}", f"{player} (set {d['set']})"
    if kind == "create":
        return f"{actor} started the round"
    if kind == "read":
        return f"{actor} read {whose} cards from a {'webcam shot' if d.get('source') == 'webcam' else 'photo'}"
    if kind == "table":  # a round filled from one photo of the whole table (rounds/table_photos.py)
        filled = d.get("filled") or {}
        return f"{actor} read {len(filled)} hand{'' if len(filled) == 1 else 's'} from a table photo"
    if kind == "table_read":  # a reading job read a table photo; its seats are still to be given
        return f"{actor}'s table photo was read: say who sits where"
    if kind == "read_failed":
        return f"{actor}'s photo of {whose} cards could not be read: {d.get('error', '')}"
    if kind == "manual":
        return f"{actor} typed {whose} cards"
    if kind == "correct":
        if d.get("before") is None:
            return f"{actor} added {card(d.get('after'))} to {whose} {d.get('row')}"
        return f"{actor} changed {card(d.get('before'))} to {card(d.get('after'))} in {whose} {d.get('row')}"
    if kind == "remove":
        return f"{actor} removed {card(d.get('before'))} from {whose} {d.get('row')}"
    if kind == "move":
        if d.get("from_row") == d.get("to_row"):
            return f"{actor} moved {card(d.get('card'))} within {whose} {d.get('to_row')}"
        return f"{actor} moved {card(d.get('card'))} from {whose} {d.get('from_row')} to {d.get('to_row')}"
    if kind == "swap_cards":
        return f"{actor} swapped {card(d.get('a'))} and {card(d.get('b'))} in {whose} hand"
    if kind == "swap":
        rows = d.get("rows") or ["?", "?"]
        return f"{actor} swapped {whose} {rows[0]} and {rows[1]} rows"
    if kind == "fix":
        return f"{actor} rearranged {whose} fouled hand ({d.get('moved', '?')} card(s) moved)"
    if kind in ("surrender", "unsurrender"):
        return f"{actor} marked {player} as {'surrendered' if kind == 'surrender' else 'playing (no surrender)'}"
    if kind == "natural":
        return f"{actor} {'declared' if d.get('declared') else 'withdrew'} {whose} natural"
    if kind in ("out", "not_out"):
        return f"{actor} marked {player} as {'the one who went out' if kind == 'out' else 'not out'}"
    if kind in ("instant_win", "no_instant_win"):
        return f"{actor} {'claimed' if kind == 'instant_win' else 'withdrew'} {whose} instant win"
    if kind == "details":
        return f"{actor} set the finishing order and 頂大"
    if kind == "settle":
        return f"{actor} settled the round" + (f" (settlement {d['revision']})" if d.get("revision", 1) > 1 else "")
    if kind == "reopen":
        return f"{actor} re-opened the round"
    if kind == "undo":
        undone = (by_id or {}).get(d.get("reverts"))
        return f"{actor} undid: {describe(undone, by_id)}" if undone is not None else f"{actor} undid a change"
    return f"{actor}: {kind}" + (f" ({player})" if player else "")


def change_line(event: RoundEvent, by_id: dict[int, RoundEvent]) -> dict[str, Any]:
    """One change as the round JSON lists it; "player" is whose hand it touched (None: the round as a whole), so
    a page told 412 can see whether the change concerned the hand it was changing."""
    return {"text": describe(event, by_id), "by": event.actor or SOMEONE, "at": event.created_at.isoformat(),
            "version": (event.detail or {}).get("version"), "player": event.player,
            **({"set": event.detail["set"]} if (event.detail or {}).get("set") else {})}


def recent_changes(rnd: Round, limit: int = RECENT) -> list[dict[str, Any]]:
    """The last `limit` change lines, newest first."""
    events = list(rnd.events)
    by_id = {e.id: e for e in events}
    return [change_line(e, by_id) for e in reversed(events[-limit:])]


def changes_since(rnd: Round, version: int) -> list[dict[str, Any]]:
    """The change lines after `version` (what a device that last saw that version has not seen), newest first."""
    events = list(rnd.events)
    by_id = {e.id: e for e in events}
    return [change_line(e, by_id) for e in reversed(events)
            if ((e.detail or {}).get("version") or 0) > version][:50]
