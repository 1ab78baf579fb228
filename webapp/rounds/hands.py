"""What is said about a hand or the round by hand: typed cards, surrender and natural (Chinese
poker); who went out, an instant-win claim, the finishing order and 頂大 (Big Two)."""
from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from webapp import rules
from webapp.models import Game, Hand, Round
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import (changing_hand, locked_round, record_event, require_game, require_holding,
                                   require_open)
from webapp.rounds.sets import set_detail
from webapp.rounds.shape import CARDS_LEFT, bigtwo_rules


def set_manual(session: Session, rnd: Round, player: str, rows: dict[str, list[str]],
               instant_win: bool | None = None, hand_set: int = 0) -> Hand:
    """Typed cards: {"front", "middle", "back"} (Chinese poker) or {"cards"} (Big Two's cards left).

    Big Two: `instant_win` True/False claims or withdraws an instant win with these cards (None keeps the
    hand's claim); typed cards of a claim must make an instant win the rules pay (scoring's message if not)."""
    if instant_win:
        require_instant_wins(rnd.game)
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        require_holding(hand)
        if hand.instant_win if instant_win is None else instant_win:
            check_claim(rnd.game, player, rows[CARDS_LEFT])
        before = {row: list(getattr(hand, row)) for row in rows} if hand.state == "cards" else None
        hand.state, hand.source, hand.upload_id = "cards", "manual", None
        for row, codes in rows.items():
            setattr(hand, row, codes)
        claim = {}
        if instant_win is not None:
            claim = {"instant_win": instant_win, "replaced": _claim(session, rnd, hand, instant_win)}
        record_event(session, rnd, "manual", player, before=before, after=rows, **claim, **set_detail(hand))
    return hand


def set_surrender(session: Session, rnd: Round, player: str, surrender: bool = True, hand_set: int = 0) -> Hand:
    require_game(rnd.game, False, "Surrender")
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        if surrender:
            hand.state = "surrender"
        else:
            hand.state = "cards" if hand.front or hand.middle or hand.back else "empty"
        record_event(session, rnd, "surrender" if surrender else "unsurrender", player, **set_detail(hand))
    return hand


def set_natural(session: Session, rnd: Round, player: str, declared: bool, hand_set: int = 0) -> Hand:
    require_game(rnd.game, False, "Declaring a natural")
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        hand.declared_natural = declared
        record_event(session, rnd, "natural", player, declared=declared, **set_detail(hand))
    return hand


def _holding(hand: Hand) -> str:
    """The state of a Big Two hand that is no longer marked as gone out: its stored cards come back."""
    return "cards" if hand.cards else "empty"


def _unmark_others(session: Session, rnd: Round, player: str) -> list[str]:
    """One winner: every other player marked as gone out or claiming an instant win is no longer;
    cards stored for them stay stored (nothing is lost). Returns their names."""
    replaced = []
    for other in session.scalars(select(Hand).where(Hand.round_id == rnd.id, Hand.player != player,
                                                    or_(Hand.state == "out", Hand.instant_win))
                                 .with_for_update()):
        if other.state == "out":
            other.state = _holding(other)
        other.instant_win = False
        replaced.append(other.player)
    return replaced


def _claim(session: Session, rnd: Round, hand: Hand, claim: bool) -> list[str]:
    """Set the hand's instant-win claim; a claim makes this player the one winner. Returns who was unmarked."""
    replaced = _unmark_others(session, rnd, hand.player) if claim else []
    if claim and hand.state == "out":
        hand.state = _holding(hand)  # the claimant shows the 13 cards dealt
    hand.instant_win = claim
    return replaced


def set_out(session: Session, rnd: Round, player: str, out: bool = True) -> Hand:
    """Big Two: mark the player who went out (the winner, no cards); whoever was marked before (gone out
    or claiming an instant win) is not."""
    require_game(rnd.game, True, "Marking who went out")
    with changing_hand(session, rnd, player) as (rnd, hand):
        replaced = []
        if out:
            replaced = _unmark_others(session, rnd, player)
            hand.state, hand.instant_win = "out", False
        elif hand.state == "out":
            hand.state = _holding(hand)
        record_event(session, rnd, "out" if out else "not_out", player, replaced=replaced)
    return hand


def require_instant_wins(game: Game) -> None:
    """RoundError unless the game is Big Two and its rules pay an instant win."""
    require_game(game, True, "Claiming an instant win")
    if not bigtwo_rules(game)["instant_wins"]:
        raise RoundError(f"The rules {game.preset} pay no instant win (points by place, or every hand of option "
                         f"instant_wins off).")


def check_claim(game: Game, player: str, codes: list[str]) -> dict:
    """The claim as scoring checks it when settling (its "instant_win" object); RoundError with scoring's
    message when these cards make no instant win the rules pay."""
    try:
        return rules.check_instant_win(game.preset, game.options, player, codes)
    except rules.ScoringError as err:
        raise RoundError(str(err)) from err


def set_instant_win(session: Session, rnd: Round, player: str, claim: bool = True) -> Hand:
    """Big Two: this player claims (or withdraws) an instant win; their cards are then the 13 dealt.

    The cards themselves are checked by the review (and when typed), so a photo can be corrected first."""
    if claim:
        require_instant_wins(rnd.game)
    else:
        require_game(rnd.game, True, "Withdrawing an instant win")
    with changing_hand(session, rnd, player) as (rnd, hand):
        replaced = _claim(session, rnd, hand, claim)
        record_event(session, rnd, "instant_win" if claim else "no_instant_win", player, replaced=replaced)
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
    live.require_current(rnd)
    require_open(rnd)
    before = {"order": rnd.finish_order, "failed_to_block": rnd.failed_to_block}
    rnd.finish_order, rnd.failed_to_block = order or None, failed_to_block or None
    record_event(session, rnd, "details", before=before, after={"order": rnd.finish_order,
                                                                "failed_to_block": rnd.failed_to_block})
    session.commit()
    return rnd
