"""The round as it stands after each change, kept in that change's RoundEvent (its deferred `state` column): what
undo puts back. A whole-round snapshot (four hands of 13 codes and the Big Two details: about a kilobyte) rather than a
per-change inverse, so every change, present and future, is undoable the same way and undo is exact."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp.models import Hand, Round
from webapp.rounds.sets import snapshot_key

# What a change may touch on a hand; all of it comes back on undo (the photo's upload too, never deleted).
HAND_FIELDS = ("state", "front", "middle", "back", "cards", "declared_natural", "instant_win", "source", "upload_id")
ROUND_FIELDS = ("finish_order", "failed_to_block")


def current_hands(session: Session, rnd: Round) -> list[Hand]:
    """The round's hands as the database has them inside this transaction (pending changes flushed first)."""
    return list(session.scalars(select(Hand).where(Hand.round_id == rnd.id).order_by(Hand.seat, Hand.hand_set)
                                .execution_options(populate_existing=True)))


def round_state(session: Session, rnd: Round) -> dict[str, Any]:
    hands = {snapshot_key(hand.player, hand.hand_set): {field: _copy(getattr(hand, field)) for field in HAND_FIELDS}
             for hand in current_hands(session, rnd)}
    return {"hands": hands, "round": {field: _copy(getattr(rnd, field)) for field in ROUND_FIELDS}}


def restore(session: Session, rnd: Round, state: dict[str, Any]) -> None:
    """Put the round's hands and details back as `state` has them (call with the round locked)."""
    for hand in current_hands(session, rnd):
        saved = state["hands"].get(snapshot_key(hand.player, hand.hand_set))
        if saved is None:
            continue
        for field in HAND_FIELDS:
            setattr(hand, field, _copy(saved.get(field, getattr(hand, field))))
    for field in ROUND_FIELDS:
        setattr(rnd, field, _copy(state["round"].get(field)))


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value
