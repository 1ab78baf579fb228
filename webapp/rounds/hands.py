"""What is said about a hand or the round by hand: typed cards, surrender and natural (Chinese
poker); who went out, the finishing order and 頂大 (Big Two)."""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp.models import Hand, Round
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import (locked_hand, locked_round, record_event, require_game, require_holding,
                                   require_open)


def set_manual(session: Session, rnd: Round, player: str, rows: dict[str, list[str]]) -> Hand:
    """Typed cards: {"front", "middle", "back"} (Chinese poker) or {"cards"} (Big Two's cards left)."""
    rnd = locked_round(session, rnd.id)
    require_open(rnd)
    hand = locked_hand(session, rnd, player)
    require_holding(hand)
    before = {row: list(getattr(hand, row)) for row in rows} if hand.state == "cards" else None
    hand.state, hand.source, hand.upload_id = "cards", "manual", None
    for row, codes in rows.items():
        setattr(hand, row, codes)
    record_event(session, rnd, "manual", player, before=before, after=rows)
    session.commit()
    return hand


def set_surrender(session: Session, rnd: Round, player: str, surrender: bool = True) -> Hand:
    require_game(rnd.game, False, "Surrender")
    rnd = locked_round(session, rnd.id)
    require_open(rnd)
    hand = locked_hand(session, rnd, player)
    if surrender:
        hand.state = "surrender"
    else:
        hand.state = "cards" if hand.front or hand.middle or hand.back else "empty"
    record_event(session, rnd, "surrender" if surrender else "unsurrender", player)
    session.commit()
    return hand


def set_natural(session: Session, rnd: Round, player: str, declared: bool) -> Hand:
    require_game(rnd.game, False, "Declaring a natural")
    rnd = locked_round(session, rnd.id)
    require_open(rnd)
    hand = locked_hand(session, rnd, player)
    hand.declared_natural = declared
    record_event(session, rnd, "natural", player, declared=declared)
    session.commit()
    return hand


def set_out(session: Session, rnd: Round, player: str, out: bool = True) -> Hand:
    """Big Two: mark the player who went out (the winner, no cards); whoever was marked before is not."""
    require_game(rnd.game, True, "Marking who went out")
    rnd = locked_round(session, rnd.id)
    require_open(rnd)
    hand = locked_hand(session, rnd, player)
    replaced = []
    if out:
        for other in session.scalars(select(Hand).where(Hand.round_id == rnd.id, Hand.player != player,
                                                        Hand.state == "out").with_for_update()):
            other.state = "cards" if other.cards else "empty"  # cards stored before stay: nothing is lost
            replaced.append(other.player)
        hand.state = "out"
    elif hand.state == "out":
        hand.state = "cards" if hand.cards else "empty"
    record_event(session, rnd, "out" if out else "not_out", player, replaced=replaced)
    session.commit()
    return hand


def set_round_details(session: Session, rnd: Round, order: list[str] | None = None,
                      failed_to_block: str | None = None) -> Round:
    """Big Two: the finishing order (first place first; points by place) and who failed to block (頂大).

    Names are checked here; whether the rules use them is scoring's to say when settling."""
    require_game(rnd.game, True, "A finishing order or 頂大")
    names = [h.player for h in rnd.hands]
    order = [name for name in order or [] if name]
    for name in order + ([failed_to_block] if failed_to_block else []):
        if name not in names:
            raise RoundError(f"'{name}' is not a player in this game.", 404)
    repeated = sorted({name for name in order if order.count(name) > 1})
    if repeated:
        raise RoundError(f"{', '.join(repeated)} cannot take two places in the finishing order.")
    rnd = locked_round(session, rnd.id)
    require_open(rnd)
    before = {"order": rnd.finish_order, "failed_to_block": rnd.failed_to_block}
    rnd.finish_order, rnd.failed_to_block = order or None, failed_to_block or None
    record_event(session, rnd, "details", before=before, after={"order": rnd.finish_order,
                                                                "failed_to_block": rnd.failed_to_block})
    session.commit()
    return rnd
