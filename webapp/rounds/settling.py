"""Settling a round with scoring (once, however often it is asked) and re-opening it."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp import rules
from webapp.models import Game, Hand, Round
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_round, record_event
from webapp.rounds.review import round_input, settle_blockers

NOT_READY = {
    "chinese-poker": "Every hand needs 13 valid cards (or a surrender) before settling.",
    "bigtwo": "Mark who went out and give every other player's cards left (valid, no card twice) before "
              "settling.",
}


def not_ready_message(game: Game, rnd: Round, blockers: list[str]) -> str:
    """Why a round cannot be settled yet, per player ("Ann: back row: 2 cards missing; Bob: no cards yet"); a
    pending instant-win claim is named first, as the round page does."""
    claimant = next((hand for hand in rnd.hands if hand.instant_win), None)
    said = "; ".join(blockers)
    if claimant is not None:
        return (f"{claimant.player} claims an instant win: give the 13 cards dealt to {claimant.player} "
                f"and to every other player (or withdraw the claim) before settling. Still missing: {said}.")
    return f"{NOT_READY[game.game_type]} Still missing: {said}."


def settle(session: Session, game: Game, rnd: Round) -> tuple[Round, bool]:
    """Settle with scoring; (round, newly_settled). Settling a settled round changes nothing,
    so a double-submitted form cannot record two settlements."""
    rnd = locked_round(session, rnd.id)
    if rnd.status == "settled":
        session.commit()
        return rnd, False
    # Only what the settler has seen is settled: a page from before another phone's change gets 412.
    live.require_current(rnd)
    # Re-read every hand inside the lock: another phone may have changed one a moment ago.
    session.scalars(select(Hand).where(Hand.round_id == rnd.id).execution_options(populate_existing=True)).all()
    blockers = settle_blockers(rnd)
    if blockers:
        raise RoundError(not_ready_message(game, rnd, blockers), 409)
    round_data = round_input(game, rnd)
    try:
        result = rules.settle(round_data)
    except rules.ScoringError as err:
        raise RoundError(str(err), 422) from err
    previous = rnd.settlement
    rnd.status, rnd.settlement = "settled", result
    rnd.revision += 1
    rnd.settled_at = datetime.now(timezone.utc)
    record_event(session, rnd, "settle", revision=rnd.revision, net=result.get("net"), money=result.get("money"),
                 previous_net=(previous or {}).get("net"))
    session.commit()
    return rnd, True


def reopen(session: Session, rnd: Round) -> Round:
    rnd = locked_round(session, rnd.id)
    if rnd.status != "settled":
        session.commit()
        return rnd
    live.require_current(rnd)
    rnd.status = "open"
    record_event(session, rnd, "reopen", revision=rnd.revision, net=(rnd.settlement or {}).get("net"))
    session.commit()
    return rnd
