"""Who may see a game: whoever holds its unguessable link, plus its PIN when it has one."""
from __future__ import annotations

from flask import abort, request, session
from werkzeug.security import check_password_hash

from webapp.db import get_session
from webapp.games import find_game
from webapp.models import Game

KNOWN_GAMES_LIMIT = 30


def remember_game(token: str) -> None:
    """This browser's own list of games (the home page lists only these, never everyone's)."""
    known = [t for t in session.get("games", []) if t != token]
    session["games"] = [token, *known][:KNOWN_GAMES_LIMIT]


def is_unlocked(game: Game) -> bool:
    return game.pin_hash is None or game.token in session.get("unlocked", [])


def unlock(game: Game, pin: str) -> bool:
    if game.pin_hash is None or check_password_hash(game.pin_hash, pin):
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
        pin = request.headers.get("X-Game-PIN", "")
        if not pin or not check_password_hash(game.pin_hash, pin):
            abort(401, description="This game needs its PIN in the X-Game-PIN header.")
    return game
