"""Corrections to a hand's cards: change (or fill in) one card, remove one, swap two rows."""
from __future__ import annotations

from sqlalchemy.orm import Session

from webapp.models import Game, Hand, Round
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import changing_hand, record_event, require_holding
from webapp.rounds.parsing import normalise
from webapp.rounds.sets import set_detail
from webapp.rounds.shape import ROWS, layout


def check_row(game: Game, row: str) -> int:
    """The row's size (Big Two: the most cards left); RoundError for a row this game's hands lack."""
    sizes = layout(game)
    if row not in sizes:
        raise RoundError(f"Unknown row '{row}'; use {', '.join(sizes)}.")
    return sizes[row]


def correct_card(session: Session, rnd: Round, player: str, row: str, index: int, code: str,
                 hand_set: int = 0) -> Hand:
    size = check_row(rnd.game, row)
    new_code = normalise(code)
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        require_holding(hand)
        cards = list(getattr(hand, row))
        if index == len(cards) and len(cards) < size:
            cards.append(new_code)  # filling a card the reader missed
            old = None
        elif 0 <= index < len(cards):
            old, cards[index] = cards[index], new_code
        else:
            raise RoundError(f"The {row} row has no card number {index + 1}.")
        setattr(hand, row, cards)
        hand.state = "cards"
        record_event(session, rnd, "correct", player, row=row, index=index, before=old, after=new_code,
                     **set_detail(hand))
    return hand


def remove_card(session: Session, rnd: Round, player: str, row: str, index: int, hand_set: int = 0) -> Hand:
    check_row(rnd.game, row)
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        cards = list(getattr(hand, row))
        if not 0 <= index < len(cards):
            raise RoundError(f"The {row} row has no card number {index + 1}.")
        old = cards.pop(index)
        setattr(hand, row, cards)
        record_event(session, rnd, "remove", player, row=row, index=index, before=old, **set_detail(hand))
    return hand


def swap_rows(session: Session, rnd: Round, player: str, first: str, second: str, hand_set: int = 0) -> Hand:
    if first not in ROWS or second not in ROWS or first == second:
        raise RoundError("Choose two different rows to swap (front, middle, back).")
    with changing_hand(session, rnd, player, hand_set) as (rnd, hand):
        a, b = list(getattr(hand, first)), list(getattr(hand, second))
        setattr(hand, first, b)
        setattr(hand, second, a)
        record_event(session, rnd, "swap", player, rows=[first, second], **set_detail(hand))
    return hand
