"""Which player sits at which seat of a table photo, remembered per game (`games.table_seats`: {"0": "Ann", …},
"" for a seat nobody sits at). Asked the first time a table photo shows a hand at a seat the game does not know yet,
changeable from the game page."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from webapp.models import Game
from webapp.rounds.errors import RoundError
from webapp.table_reading import SIDES

NOBODY = ""


def remembered(game: Game) -> dict[str, str]:
    """The game's seats as stored (only well-formed entries naming a player of the game, or nobody)."""
    stored = game.table_seats if isinstance(game.table_seats, dict) else {}
    names = set(game.player_names)
    return {seat: name for seat, name in stored.items()
            if seat in _SEAT_KEYS and isinstance(name, str) and (name == NOBODY or name in names)}


def knows(game: Game, seats: Iterable[int]) -> bool:
    """Whether the game already says who sits at each of these seats (a player, or nobody)."""
    known = remembered(game)
    return all(str(seat) in known for seat in seats)


def proposal(game: Game, seats: Iterable[int]) -> dict[str, str]:
    """What the seat page offers first: the remembered seats, then the players not yet seated, in the game's order,
    at the other seats clockwise from the bottom (one tap changes any of them)."""
    known = remembered(game)
    offered = {str(seat): known[str(seat)] for seat in seats if str(seat) in known}
    free = [name for name in game.player_names if name not in known.values() and name not in offered.values()]
    for seat in seats:
        if str(seat) not in offered:
            offered[str(seat)] = free.pop(0) if free else NOBODY
    return offered


def parse(game: Game, chosen: Mapping[str, Any]) -> dict[str, str]:
    """{"0": "Ann", "2": "", …} checked: seats 0–3, each a player of the game or nobody, no player at two seats."""
    seats: dict[str, str] = {}
    for seat, name in chosen.items():
        if str(seat) not in _SEAT_KEYS:
            raise RoundError(f"Seat '{seat}' does not exist: seats are 0 (bottom), 1 (left), 2 (top), 3 (right).")
        if not isinstance(name, str) or (name != NOBODY and name not in game.player_names):
            raise RoundError(f"'{name}' is not a player in this game.")
        seats[str(seat)] = name
    named = [name for name in seats.values() if name != NOBODY]
    twice = sorted({name for name in named if named.count(name) > 1})
    if twice:
        raise RoundError(f"{twice[0]} cannot sit at two seats; pick one seat for {twice[0]}.")
    return seats


def remember(game: Game, chosen: Mapping[str, str]) -> dict[str, str]:
    """Store `chosen` as the game's seats: the seats chosen replace what was known of them, and a player chosen
    for one seat leaves any other seat remembered for them. Returns the game's seats now."""
    kept = {seat: name for seat, name in remembered(game).items()
            if seat not in chosen and (name == NOBODY or name not in chosen.values())}
    game.table_seats = {**kept, **chosen}
    return dict(game.table_seats)


def replace(game: Game, chosen: Mapping[str, str] | None) -> None:
    """The game page's change: exactly these seats (None or empty: forget them; the next table photo asks)."""
    game.table_seats = dict(chosen) if chosen else None


_SEAT_KEYS = tuple(str(seat) for seat in range(len(SIDES)))
