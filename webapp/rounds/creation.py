"""A new round: numbered, its banker chosen, an empty hand per player; never two for one request."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from webapp.games import banker_for_round
from webapp.models import Game, Hand, Round
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import record_event
from webapp.rounds.sets import set_count


def new_round(session: Session, game: Game, create_key: str | None = None) -> tuple[Round, bool]:
    """A new open round with an empty hand per player (criss cross: two, sets 1 and 2); (round, created).

    The same `create_key` always yields the same round, so a double-submitted form or a retried
    API call cannot make two rounds; the numbering race is settled by the unique constraint."""
    create_key = (create_key or "").strip()[:64] or None
    for _attempt in range(5):
        if create_key:
            existing = session.scalars(
                select(Round).where(Round.game_id == game.id, Round.create_key == create_key)
            ).first()
            if existing is not None:
                session.commit()
                return existing, False
        if game.ended_at is not None:
            raise RoundError("This game has ended: no more rounds (a rematch starts a new game).", 409)
        number = (session.scalar(select(func.max(Round.number)).where(Round.game_id == game.id)) or 0) + 1
        rnd = Round(game_id=game.id, number=number, create_key=create_key, status="open",
                    banker=banker_for_round(game, number), revision=0,
                    hands=[Hand(seat=p.seat, player=p.name, hand_set=hand_set, state="empty", front=[], middle=[],
                                back=[], cards=[])
                           for p in game.players for hand_set in range(set_count(game))])
        session.add(rnd)
        try:
            session.flush()
            record_event(session, rnd, "create")
            session.commit()
            return rnd, True
        except IntegrityError:
            session.rollback()
    raise RoundError("Could not create the round (too many at once); try again.", 409)
