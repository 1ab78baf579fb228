"""The live round's request context: who is making a change (the actor of its RoundEvent) and the version the
device last saw (If-Match), checked under the round's lock so that of two phones changing the same round from the
same version one lands and the other is told what changed (412), never a silent lost update.

The views set both once per request (`begin` … `end`); the round operations read them, so no operation's signature
carries them. Context variables, not module globals: waitress serves requests on several threads."""
from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from webapp.models import Game, Round, SettlePayment
from webapp.rounds.errors import RoundError

SOMEONE = "Someone"  # the actor of a change when the device chose no name
ACTOR_MAX = 40  # RoundEvent.actor's column size

_TAG = re.compile(r'(W/)?"([^"]*)"')


@dataclass
class _Request:
    actor: str
    # The entity tags If-Match named (strong ones only; None: no If-Match, anything goes). After a change lands
    # it becomes the round's new tag, so a request making two changes in a row does not trip over its own first.
    if_match: set[str] | None


_current: ContextVar[_Request | None] = ContextVar("live_round_request", default=None)


def etag(rnd: Round) -> str:
    """The round's strong entity tag, quoted as HTTP writes it: "<round id>-<version>"."""
    return f'"{rnd.id}-{rnd.version}"'


def current_etag(session: Session, game: Game, number: int) -> str | None:
    """A round's ETag from its version column alone (no hands loaded): what a conditional poll costs. None when
    the game has no such round."""
    found = session.execute(select(Round.id, Round.version).where(Round.game_id == game.id,
                                                                  Round.number == number)).first()
    return None if found is None else f'"{found.id}-{found.version}"'


_PEEK_ROUND = ("SELECT g.pin_hash, r.id, r.version FROM games g JOIN rounds r ON r.game_id = g.id "
               "WHERE g.token = {token} AND r.number = {number}")
_PEEK_GAME = ("SELECT g.pin_hash, g.id, count(r.id), coalesce(sum(r.version), 0), "
              "(SELECT count(p.id) FROM settle_payments p WHERE p.game_id = g.id), "
              "(SELECT coalesce(max(p.id), 0) FROM settle_payments p WHERE p.game_id = g.id) FROM games g "
              "LEFT JOIN rounds r ON r.game_id = g.id WHERE g.token = {token} GROUP BY g.id, g.pin_hash")


def peek_etag(engine: Engine, token: str, number: int | None = None) -> tuple[str | None, str] | None:
    """(the game's PIN hash, the round's ETag — or the game's when `number` is None) in one read outside any
    transaction, or None when there is no such game or round: what a page's poll costs when nothing changed.

    A raw DBAPI read on purpose: the app's SQLite transactions begin IMMEDIATE (one writer at a time), and two
    hundred polls a second must not queue for that lock behind photo uploads (WAL readers never wait)."""
    marker = "%({})s" if engine.dialect.name == "postgresql" else ":{}"
    sql = (_PEEK_GAME if number is None else _PEEK_ROUND).format(token=marker.format("token"),
                                                                 number=marker.format("number"))
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, {"token": token, "number": number})
        row = cursor.fetchone()
        cursor.close()
    finally:
        connection.close()  # back to the pool, which rolls back whatever the driver began
    if row is None:
        return None
    if number is None:
        return row[0], f'"g{row[1]}-{row[2]}-{row[3]}-p{row[4]}-{row[5]}"'
    return row[0], f'"{row[1]}-{row[2]}"'


def game_etag(session: Session, game: Game) -> str:
    """The game's ETag: changes when any of its rounds changes (versions only grow) or a round is added, and
    when a settle-up payment is marked or unmarked (ids only grow, so count and newest id tell every change)."""
    count, total = session.execute(select(func.count(Round.id), func.coalesce(func.sum(Round.version), 0))
                                   .where(Round.game_id == game.id)).one()
    paid, newest = session.execute(select(func.count(SettlePayment.id), func.coalesce(func.max(SettlePayment.id), 0))
                                   .where(SettlePayment.game_id == game.id)).one()
    return f'"g{game.id}-{count}-{total}-p{paid}-{newest}"'


def if_none_match(header: str | None, tag: str) -> bool:
    """Whether an If-None-Match header names `tag` (weak comparison, as RFC 9110 13.1.2 says; "*" matches)."""
    if not header:
        return False
    if header.strip() == "*":
        return True
    return any(found.group(2) == tag.strip('"') for found in _TAG.finditer(header))


def tag_version(tag: str | None) -> int | None:
    """The version an entity tag of ours names ("12-7" -> 7); None for anything else."""
    found = re.fullmatch(r'"?\d+-(\d+)"?', (tag or "").strip())
    return int(found.group(1)) if found else None


def parse_if_match(value: str | None) -> set[str] | None:
    """The strong tags of an If-Match header (or a form's `if_match` field, quotes optional); None when absent.

    "*" matches any current round (it is returned as {"*"}); weak tags never match (RFC 9110 13.1.1 compares
    If-Match strongly), so a header of only weak tags yields an empty set: always 412."""
    value = (value or "").strip()
    if not value:
        return None
    if value == "*":
        return {"*"}
    if '"' not in value:  # a hidden form field may lose its quotes on the way
        return {f'"{part.strip()}"' for part in value.split(",") if part.strip()}
    return {f'"{found.group(2)}"' for found in _TAG.finditer(value) if not found.group(1)}


def clean_actor(name: str | None) -> str:
    name = " ".join((name or "").split())[:ACTOR_MAX]
    return name or SOMEONE


def begin(actor: str | None, if_match: set[str] | None = None) -> object:
    """From here on (until `end` with the token returned), changes are recorded as made by `actor` and must find
    the round at one of the `if_match` tags (None: at any version)."""
    return _current.set(_Request(clean_actor(actor), if_match))


def end(token: object) -> None:
    _current.reset(token)  # type: ignore[arg-type]


def current_actor() -> str:
    request = _current.get()
    return request.actor if request else SOMEONE


def expected_tags() -> set[str] | None:
    request = _current.get()
    return request.if_match if request else None


class StaleRound(RoundError):
    """The device's If-Match no longer names the round as it is: nothing was changed (HTTP 412)."""

    def __init__(self, rnd: Round, seen: set[str]) -> None:
        super().__init__("This round changed since your page was loaded; nothing was changed. "
                         "Look at the changes and try again.", 412)
        self.round_id = rnd.id
        versions = [v for v in (tag_version(tag) for tag in seen) if v is not None]
        self.seen_version = max(versions) if versions else 0


def require_current(rnd: Round) -> None:
    """StaleRound unless the request's If-Match names the round as it is now (call with the round locked)."""
    tags = expected_tags()
    if tags is None or "*" in tags or etag(rnd) in tags:
        return
    raise StaleRound(rnd, tags)


def changed(rnd: Round) -> None:
    """After a change to the round: the request now expects the round's new version (its own change)."""
    request = _current.get()
    if request is not None and request.if_match is not None:
        request.if_match = {etag(rnd)}
