"""Who may see a game: whoever holds its unguessable link, plus its PIN when it has one."""
from __future__ import annotations

import threading
import time

from flask import abort, request, session
from werkzeug.security import check_password_hash

from webapp.db import get_session
from webapp.games import find_game
from webapp.models import Game

KNOWN_GAMES_LIMIT = 30
# A 4-digit PIN falls to guessing unless guesses are slowed: after this many wrong PINs for a game,
# further tries for that game are refused for the rest of the window (per process, in memory).
PIN_TRIES = 5
PIN_WINDOW_S = 300.0
_wrong_pins: dict[str, list[float]] = {}
_wrong_pins_lock = threading.Lock()


class TooManyPinTries(Exception):
    """Too many wrong PINs for this game lately; `retry_after` seconds until the next try."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many wrong PINs; try again in {retry_after} s.")
        self.retry_after = retry_after


def _check_pin(game: Game, pin: str) -> bool:
    if not pin:
        return False  # no guess made: nothing to count
    now = time.monotonic()
    with _wrong_pins_lock:
        recent = [t for t in _wrong_pins.get(game.token, []) if now - t < PIN_WINDOW_S]
        _wrong_pins[game.token] = recent
        if len(recent) >= PIN_TRIES:
            raise TooManyPinTries(int(PIN_WINDOW_S - (now - recent[0])) + 1)
    ok = game.pin_hash is not None and check_password_hash(game.pin_hash, pin)
    if not ok:
        with _wrong_pins_lock:
            _wrong_pins.setdefault(game.token, []).append(now)
    return ok


def remember_game(token: str) -> None:
    """This browser's own list of games (the home page lists only these, never everyone's)."""
    known = [t for t in session.get("games", []) if t != token]
    session["games"] = [token, *known][:KNOWN_GAMES_LIMIT]


def is_unlocked(game: Game) -> bool:
    return game.pin_hash is None or game.token in session.get("unlocked", [])


def unlock(game: Game, pin: str) -> bool:
    """Remember in the session that this browser knows the PIN; raises TooManyPinTries."""
    if game.pin_hash is None or _check_pin(game, pin):
        session["unlocked"] = [game.token, *session.get("unlocked", [])][:KNOWN_GAMES_LIMIT]
        return True
    return False


def game_or_404(token: str) -> Game:
    game = find_game(get_session(), token)
    if game is None:
        abort(404, description="No such game. Check the link you were given.")
    return game


def api_game(token: str) -> Game:
    """Game for an API call: the PIN comes in the X-Game-PIN header (or an unlocked session)."""
    game = game_or_404(token)
    if game.pin_hash is not None and not is_unlocked(game):
        try:
            ok = _check_pin(game, request.headers.get("X-Game-PIN", ""))
        except TooManyPinTries as err:
            abort(429, description=str(err))
        if not ok:
            abort(401, description="This game needs its PIN in the X-Game-PIN header.")
    return game
