"""A game's life after creation: end it, delete it with its photos, rematch with the same table, rename a player."""
from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from webapp.games import MAX_NAME
from webapp.models import Game, Hand, Photo, Player, Round, RoundEvent, SettlePayment, Upload, utcnow
from webapp.photos import PhotoStore


def end_game(session: Session, game: Game, ended: bool = True) -> None:
    """Ended: no new rounds (the rounds already there can still be corrected); `ended=False` resumes it."""
    game.ended_at = utcnow() if ended else None
    session.commit()


def delete_game(session: Session, game: Game, store: PhotoStore) -> int:
    """The game, its rounds, hands, history and payments, and every photo no other game uses; photos removed."""
    shas = set(session.scalars(select(Upload.photo_sha256).join(Round).where(Round.game_id == game.id)))
    session.delete(game)
    session.flush()
    still_used = set(session.scalars(select(Upload.photo_sha256).where(Upload.photo_sha256.in_(shas)))) if shas else set()
    orphans = sorted(shas - still_used)
    for sha in orphans:
        photo = session.get(Photo, sha)
        if photo is not None:
            session.delete(photo)
    session.commit()
    for sha in orphans:  # after the commit: a failed commit leaves every file in place
        path = store.find(sha)
        if path is not None:
            path.unlink(missing_ok=True)
    return len(orphans)


def rematch(session: Session, game: Game) -> Game:
    """A new game with the same players (same seats), rules, options, stakes, banker and PIN."""
    copy = Game(token=secrets.token_urlsafe(18), title=game.title, game_type=game.game_type, preset=game.preset,
                options=dict(game.options or {}), stake=game.stake, pair_stakes=list(game.pair_stakes or []),
                banker_seat=game.banker_seat, rotate_banker=game.rotate_banker, pin_hash=game.pin_hash,
                players=[Player(seat=p.seat, name=p.name) for p in game.players])
    session.add(copy)
    session.commit()
    return copy


def rename_problem(game: Game, old: str, new: str) -> str | None:
    if old not in game.player_names:
        return f"'{old}' is not a player in this game."
    if not new or len(new) > MAX_NAME or "/" in new:
        return f"A player's name must be 1 to {MAX_NAME} characters, without '/'."
    if any(n.casefold() == new.casefold() for n in game.player_names if n != old):
        return f"Another player is already called '{new}'."
    return None


def _renamed(value: Any, old: str, new: str) -> Any:
    """JSON with every key or string that is exactly `old` replaced (names inside sentences stay as written)."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def _state_renamed(state: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """An undo snapshot (webapp.rounds.snapshots) with the player's hand keys ("Ann", "Ann/2") and the round's
    name-valued fields renamed; the hands' own fields (codes, sources) are left as they are."""
    hands = {}
    for key, fields in (state.get("hands") or {}).items():
        player, slash, hand_set = key.partition("/")
        hands[(new if player == old else player) + slash + hand_set] = fields
    return state | {"hands": hands, "round": _renamed(state.get("round") or {}, old, new)}


def rename_player(session: Session, game: Game, old: str, new: str) -> str | None:
    """Rename everywhere the name is data (seats, hands, uploads, history, bankers, orders, settlements, stakes,
    payments); None when done, else why not. Explanations already written keep the old name in their text."""
    problem = rename_problem(game, old, new)
    if problem or old == new:
        return problem
    round_ids = select(Round.id).where(Round.game_id == game.id)
    session.execute(update(Player).where(Player.game_id == game.id, Player.name == old).values(name=new))
    session.execute(update(Hand).where(Hand.round_id.in_(round_ids), Hand.player == old).values(player=new))
    session.execute(update(Upload).where(Upload.round_id.in_(round_ids), Upload.player == old).values(player=new))
    for column in (RoundEvent.player, RoundEvent.actor):
        session.execute(update(RoundEvent).where(RoundEvent.round_id.in_(round_ids), column == old)
                        .values({column.key: new}))
    for column in (SettlePayment.payer, SettlePayment.payee):
        session.execute(update(SettlePayment).where(SettlePayment.game_id == game.id, column == old)
                        .values({column.key: new}))
    for rnd in session.scalars(select(Round).where(Round.game_id == game.id)):
        rnd.banker = new if rnd.banker == old else rnd.banker
        rnd.failed_to_block = new if rnd.failed_to_block == old else rnd.failed_to_block
        rnd.finish_order = _renamed(rnd.finish_order, old, new)
        rnd.settlement = _renamed(rnd.settlement, old, new)
        rnd.version += 1  # live pages redraw with the new name
    for event in session.scalars(select(RoundEvent).where(RoundEvent.round_id.in_(round_ids),
                                                          RoundEvent.state.is_not(None))):
        event.state = _state_renamed(event.state, old, new)
    game.pair_stakes = _renamed(game.pair_stakes, old, new)
    game.table_seats = _renamed(game.table_seats, old, new)
    session.commit()
    session.expire_all()
    return None
