"""Fast corrections that keep a hand's cards and change where they lie: move one card to another row or slot, swap
two cards, and apply the legal fix of a fouled hand (scoring's arrangement of the same 13 cards)."""
from __future__ import annotations

from sqlalchemy.orm import Session

from webapp.models import Hand, Round
from webapp.rounds.corrections import check_row
from webapp.rounds.errors import RoundError
from webapp.rounds.fouls import foul_of
from webapp.rounds.loading import changing_hand, record_event, require_game, require_holding
from webapp.rounds.sets import hand_label, set_detail
from webapp.rounds.shape import ROWS


def _card_at(hand: Hand, row: str, index: int) -> str:
    cards = getattr(hand, row)
    if not 0 <= index < len(cards):
        raise RoundError(f"The {row} row has no card number {index + 1}.")
    return cards[index]


def move_card(session: Session, rnd: Round, player: str, from_row: str, from_index: int, to_row: str,
              to_index: int | None = None, hand_set: int = 0) -> Hand:
    """Take the card at (from_row, from_index) and insert it at (to_row, to_index): before the card now at that
    slot, or at the row's end when `to_index` is None (or past the end). A row may hold more than its size for a
    while (a 6/6/1 photo is put right one card at a time); the review says so until it is right."""
    check_row(rnd.game, from_row)
    check_row(rnd.game, to_row)
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        require_holding(hand)
        code = _card_at(hand, from_row, from_index)
        source = list(getattr(hand, from_row))
        source.pop(from_index)
        target = source if to_row == from_row else list(getattr(hand, to_row))
        slot = len(target) if to_index is None else max(0, min(int(to_index), len(target)))
        target.insert(slot, code)
        setattr(hand, from_row, source)
        if to_row != from_row:
            setattr(hand, to_row, target)
        record_event(session, rnd, "move", player, card=code, from_row=from_row, from_index=from_index,
                     to_row=to_row, to_index=slot, **set_detail(hand))
    return hand


def swap_cards(session: Session, rnd: Round, player: str, row_a: str, index_a: int, row_b: str,
               index_b: int, hand_set: int = 0) -> Hand:
    """Swap two cards of one hand (in one row or two)."""
    check_row(rnd.game, row_a)
    check_row(rnd.game, row_b)
    if (row_a, index_a) == (row_b, index_b):
        raise RoundError("Choose two different cards to swap.")
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        require_holding(hand)
        a, b = _card_at(hand, row_a, index_a), _card_at(hand, row_b, index_b)
        first = list(getattr(hand, row_a))
        second = first if row_b == row_a else list(getattr(hand, row_b))
        first[index_a], second[index_b] = b, a
        setattr(hand, row_a, first)
        setattr(hand, row_b, second)
        record_event(session, rnd, "swap_cards", player, a=a, b=b, rows=[row_a, row_b],
                     indices=[index_a, index_b], **set_detail(hand))
    return hand


def apply_fix(session: Session, rnd: Round, player: str, hand_set: int = 0) -> Hand:
    """Rearrange a fouled hand as scoring's legal fix has it, worked out again under the lock (the hand may have
    changed since the page showed the fix)."""
    require_game(rnd.game, False, "The legal fix of a fouled hand")
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        foul = foul_of(rnd.game, hand)
        if foul is None:
            raise RoundError(f"{hand_label(hand)}'s hand is not fouled as it is now: nothing to fix.", 409)
        fix = foul["fix"]
        if fix is None or sorted(c for r in ROWS for c in fix[r]) != sorted(c for r in ROWS for c in getattr(hand, r)):
            raise RoundError(f"No legal arrangement of {hand_label(hand)}'s cards was found; move the cards by hand.", 409)
        before = hand.rows()
        moved = sum(1 for row in ROWS for code in fix[row] if code not in before[row])
        hand.front, hand.middle, hand.back = (list(fix[row]) for row in ROWS)
        record_event(session, rnd, "fix", player, reason=foul["reason"], before=before, after=fix, moved=moved,
                     **set_detail(hand))
    return hand
