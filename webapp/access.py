"""Who may see a game: whoever holds its unguessable link, plus its PIN when it has one.

Wrong PINs are throttled per game in two buckets, both kept in the database (every app process shares them):
- the *client*: this browser's device id (a random id in the signed session cookie) together with its network
  (the remote address; an IPv6 address counts by its /64, which one machine can rotate through). A client gets
  CLIENT_FREE_TRIES free tries, then waits BACKOFF_BASE_S, doubling with each further wrong PIN (at most
  BACKOFF_MAX_S). Its right PIN clears it.
- the *network*: every client behind one address together, with NETWORK_FREE_TRIES free tries, then the same
  back-off. Dropping the cookie makes a new client, so this bound is what keeps a 4-digit PIN from falling.
A stranger thus slows only their own device and network: a player at the table on another address, or one
already unlocked (the session remembers the games it unlocked; it is never asked again), is never locked out.
A bucket forgets its wrong PINs FORGET_S after the last one.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import secrets
import time

from flask import abort, current_app, request, session
from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from werkzeug.exceptions import TooManyRequests
from werkzeug.security import check_password_hash

from webapp import csrf
from webapp.db import get_session
from webapp.games import find_game
from webapp.models import Game, PinThrottle

KNOWN_GAMES_LIMIT = 30
CLIENT_FREE_TRIES = 5
NETWORK_FREE_TRIES = 20  # a table of guests behind one router may all mistype now and then
BACKOFF_BASE_S = 30.0
BACKOFF_MAX_S = 3600.0
FORGET_S = 24 * 3600.0  # longer than the longest wait, so waiting out a lock never restores the free tries
PIN_HEADER = "X-Game-PIN"
_now = time.time  # the tests move the clock


class TooManyPinTries(Exception):
    """Too many wrong PINs from this client or network lately; `retry_after` seconds until the next try."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many wrong PINs from this device or network; try again in {retry_after} s.")
        self.retry_after = retry_after


def device_id() -> str:
    """This browser's random id, kept in the signed session cookie (made on first need)."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(12)
    return str(session["device"])


def _network() -> str:
    address = request.remote_addr or "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _keyed(kind: str, value: str) -> str:
    digest = hmac.new(str(current_app.config["SECRET_KEY"]).encode(), value.encode(), hashlib.sha256)
    return f"{kind}:{digest.hexdigest()[:40]}"


def _buckets() -> dict[str, int]:
    """This request's buckets -> their free tries."""
    network = _network()
    return {_keyed("client", f"{device_id()}|{network}"): CLIENT_FREE_TRIES,
            _keyed("network", network): NETWORK_FREE_TRIES}


def backoff_s(failures: int, free_tries: int) -> float:
    """Seconds a bucket waits after its `failures`-th wrong PIN in a row (0 while within its free tries)."""
    if failures < free_tries:
        return 0.0
    return min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2.0 ** min(failures - free_tries, 32))


def _ensure_rows(db: Session, game_id: int, buckets: list[str]) -> None:
    """Create the buckets' rows if missing, racing other processes harmlessly (ON CONFLICT DO NOTHING)."""
    rows = [{"game_id": game_id, "bucket": b, "failures": 0, "last_failure": 0.0, "locked_until": 0.0}
            for b in buckets]
    insert = postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert
    db.execute(insert(PinThrottle).values(rows).on_conflict_do_nothing())


def _pin_matches(pin_hash: str, pin: str) -> bool:
    """The slow hash check (scrypt: ~0.1 s, 32 MB), run outside any transaction: on SQLite every transaction holds
    the write lock (BEGIN IMMEDIATE), and other requests, /healthz included, would queue behind the hash."""
    get_session().commit()  # nothing is pending yet: this ends the read that found the game
    return check_password_hash(pin_hash, pin)


def _check_pin(game: Game, pin: str) -> bool:
    """Whether `pin` is the game's PIN; raises TooManyPinTries while this client or network must wait.

    Commits the request's session: the count must survive the error response that follows a wrong PIN."""
    if not pin or game.pin_hash is None:
        return False  # no guess made: nothing to count
    db = get_session()
    buckets = _buckets()
    game_id, pin_hash = game.id, game.pin_hash
    now = _now()
    locked = db.scalars(select(PinThrottle.locked_until).where(
        PinThrottle.game_id == game_id, PinThrottle.bucket.in_(buckets))).all()
    wait = max([until - now for until in locked], default=0.0)
    if wait > 0:
        db.rollback()
        raise TooManyPinTries(math.ceil(wait))
    if _pin_matches(pin_hash, pin):
        client = next(iter(buckets))
        db.execute(delete(PinThrottle).where(PinThrottle.game_id == game_id, PinThrottle.bucket == client))
        db.commit()
        return True
    _ensure_rows(db, game_id, list(buckets))
    # SQLite: the session began with BEGIN IMMEDIATE; PostgreSQL: FOR UPDATE. Either way one writer at a time.
    for row in db.scalars(select(PinThrottle).where(PinThrottle.game_id == game_id,
                                                    PinThrottle.bucket.in_(buckets)).with_for_update()):
        row.failures = 1 if now - row.last_failure > FORGET_S else row.failures + 1
        row.last_failure = now
        row.locked_until = now + backoff_s(row.failures, buckets[row.bucket])
    db.commit()
    return False


def remember_game(token: str) -> None:
    """This browser's own list of games (the home page lists only these, never everyone's)."""
    known = [t for t in session.get("games", []) if t != token]
    session["games"] = [token, *known][:KNOWN_GAMES_LIMIT]


def is_unlocked(game: Game) -> bool:
    return game.pin_hash is None or game.token in session.get("unlocked", [])


def remember_unlocked(game: Game) -> None:
    """This browser has shown it knows the game's PIN (it typed it, or created the game with it)."""
    session["unlocked"] = [game.token, *[t for t in session.get("unlocked", []) if t != game.token]][
        :KNOWN_GAMES_LIMIT]


def unlock(game: Game, pin: str) -> bool:
    """Remember in the session that this browser knows the PIN; raises TooManyPinTries."""
    if is_unlocked(game) or _check_pin(game, pin):
        remember_unlocked(game)
        return True
    return False


def game_or_404(token: str) -> Game:
    game = find_game(get_session(), token)
    if game is None:
        abort(404, description="No such game. Check the link you were given.")
    return game


def _deliberate_unlocked_request(game: Game) -> bool:
    """An unlocked browser's own script: the session says unlocked and the request carries the session's CSRF
    token in its header, which a page on another site cannot read (so a forged request cannot send it)."""
    return is_unlocked(game) and csrf.header_is_valid(request.headers.get(csrf.HEADER, ""))


def api_game(token: str) -> Game:
    """Game for an API call. PIN games: reads need the PIN in X-Game-PIN or an unlocked session cookie; writes
    need the PIN (or, from an unlocked browser, its CSRF token in X-CSRF-Token): a cookie alone never writes."""
    game = game_or_404(token)
    if game.pin_hash is None:
        return game
    reading = request.method in ("GET", "HEAD", "OPTIONS")
    if (reading and is_unlocked(game)) or (not reading and _deliberate_unlocked_request(game)):
        return game
    pin = request.headers.get(PIN_HEADER, "")
    if pin and is_unlocked(game):  # it already knows the PIN: no throttle to wait for, just a check
        ok = _pin_matches(str(game.pin_hash), pin)
    else:
        try:
            ok = _check_pin(game, pin)
        except TooManyPinTries as err:
            raise TooManyRequests(str(err), retry_after=err.retry_after) from None
    if not ok:
        what = "its PIN in the X-Game-PIN header" if reading else \
            "its PIN in the X-Game-PIN header to change anything (a session cookie alone is not enough)"
        abort(401, description=f"This game needs {what}.")
    return game
