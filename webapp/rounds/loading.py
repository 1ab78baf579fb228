"""Finding a round, locking it and its hands for a change, the checks a change makes first, and the
RoundEvent every change leaves (with the round's new version, who made it and the round as it now stands)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from webapp.models import Game, Hand, Round, RoundEvent
from webapp.rounds import live, snapshots
from webapp.rounds.errors import RoundError


def find_round(session: Session, game: Game, number: int) -> Round | None:
    return session.scalars(
        select(Round).where(Round.game_id == game.id, Round.number == number)
        .options(selectinload(Round.hands), selectinload(Round.events), selectinload(Round.uploads))
    ).first()


def locked_round(session: Session, round_id: int) -> Round:
    """The round row locked for this transaction (PostgreSQL row lock; SQLite is already serialised)."""
    rnd = session.scalars(
        select(Round).where(Round.id == round_id).with_for_update().execution_options(populate_existing=True)
    ).one()
    return rnd


def locked_hand(session: Session, rnd: Round, player: str, hand_set: int = 0) -> Hand:
    hand = session.scalars(
        select(Hand).where(Hand.round_id == rnd.id, Hand.player == player, Hand.hand_set == hand_set)
        .with_for_update().execution_options(populate_existing=True)
    ).first()
    if hand is None:
        raise RoundError(f"'{player}' is not a player in this game.", 404)
    return hand


def require_open(rnd: Round) -> None:
    if rnd.status != "open":
        raise RoundError("This round is settled; re-open it before changing anything.", 409)


def require_game(game: Game, bigtwo: bool, what: str) -> None:
    if game.is_bigtwo != bigtwo:
        raise RoundError(f"{what} is for {'Big Two' if bigtwo else 'Chinese-poker'} games only.")


def require_holding(hand: Hand) -> None:
    """A Big Two player marked as gone out holds no cards: say so instead of storing cards for them."""
    if hand.state == "out":
        raise RoundError(f"{hand.player} went out (the winner holds no cards); un-mark {hand.player} as the "
                         f"winner before entering cards left.", 409)


def record_event(session: Session, rnd: Round, kind: str, player: str | None = None, **detail: Any) -> RoundEvent:
    """Record a change (call with the round locked, after changing it): bumps the round's version (its ETag),
    names the request's actor, and keeps the round as it now stands for undo."""
    rnd.version = (rnd.version or 0) + 1
    live.changed(rnd)
    event = RoundEvent(round_id=rnd.id, kind=kind, player=player, actor=live.current_actor(),
                       detail={**detail, "version": rnd.version}, state=snapshots.round_state(session, rnd))
    session.add(event)
    return event


@contextmanager
def changing_hand(session: Session, rnd: Round, player: str, hand_set: int = 0) -> Iterator[tuple[Round, Hand]]:
    """One change to a player's hand (criss cross: to its set `hand_set`): the round locked and open, the hand
    locked; commits when the block ends without an error (the block records its event)."""
    rnd = locked_round(session, rnd.id)
    live.require_current(rnd)
    require_open(rnd)
    hand = locked_hand(session, rnd, player, hand_set)
    yield rnd, hand
    session.commit()
