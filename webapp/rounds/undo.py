"""Undo of the last change in the round, from any phone. Each undo reverts the newest change not yet undone, so
undoing again walks one change further back (an undo is itself recorded, and is never what an undo reverts).
Settling and re-opening are not undone (re-open is its own action); they are stepped over.

The round before a change is the round after the change just before it: every change keeps that (snapshots), so
undo puts it back exactly."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp.models import Round, RoundEvent
from webapp.rounds import live
from webapp.rounds.changes import describe
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_round, record_event, require_open
from webapp.rounds.snapshots import restore

NOT_UNDONE = frozenset({"create", "settle", "reopen", "undo", "read_failed", "table_read"})  # kinds undo steps over


def undo_target(events: list[RoundEvent]) -> tuple[RoundEvent, RoundEvent | None] | None:
    """(the change undo would revert, the event just before it) for events in order; None when nothing is left."""
    reverted = {(e.detail or {}).get("reverts") for e in events if e.kind == "undo"}
    for position in range(len(events) - 1, 0, -1):
        event = events[position]
        if event.kind not in NOT_UNDONE and event.id not in reverted:
            return event, events[position - 1]
    return None


def _has_state(event: RoundEvent) -> bool:
    """Whether the event keeps the round after it; those recorded since migration 0004 do (and carry a version),
    told without loading the deferred state."""
    return "version" in (event.detail or {})


def undo_preview(rnd: Round) -> dict[str, str] | None:
    """{"text": what undo would revert} for the round JSON, or None (nothing to undo, or the round is settled)."""
    if rnd.status != "open":
        return None
    events = list(rnd.events)
    found = undo_target(events)
    if found is None or not _has_state(found[1]):
        return None
    return {"text": describe(found[0], {e.id: e for e in events})}


def undo(session: Session, rnd: Round) -> Round:
    """Revert the newest change not yet undone; RoundError when there is none (or it predates undo)."""
    rnd = locked_round(session, rnd.id)
    live.require_current(rnd)
    require_open(rnd)
    events = list(session.scalars(select(RoundEvent).where(RoundEvent.round_id == rnd.id).order_by(RoundEvent.id)))
    found = undo_target(events)
    if found is None:
        raise RoundError("Nothing to undo in this round.", 409)
    target, before = found
    state = before.state if _has_state(before) else None
    if state is None:
        raise RoundError("This change was made before undo existed; correct it by hand.", 409)
    restore(session, rnd, state)
    record_event(session, rnd, "undo", target.player, reverts=target.id, reverted_kind=target.kind)
    session.commit()
    return rnd
