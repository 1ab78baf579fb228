"""Settle-up: who pays whom at the end of the night, in the fewest transfers, and which are paid.

The money each round's settlement gives a player already applies the stake and any per-pair stakes, so the
balances here are the sum of those amounts over the chosen rounds (the whole game, or rounds `first`-`last`).
A payment marked paid is recorded for its scope; the transfers still owed are the fewest that settle what is
left after the recorded payments (webapp.settlement_view.transfers: exact, every grouping tried). Ties between
equally short answers are broken the same way every time: within each group of players that settle among
themselves, the biggest debtor pays the biggest creditor, the list biggest payment first."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp.games import as_fraction
from webapp.models import Game, Round, SettlePayment
from webapp.settlement_view import money_text, transfers

WHOLE_GAME = "all"


@dataclass(frozen=True)
class Scope:
    """Which settled rounds count: all of them, or rounds first..last (inclusive)."""

    first: int | None = None
    last: int | None = None

    @property
    def key(self) -> str:
        return WHOLE_GAME if self.first is None else f"{self.first}-{self.last}"

    def covers(self, number: int) -> bool:
        return self.first is None or self.first <= number <= (self.last or number)

    @classmethod
    def parse(cls, first: Any, last: Any, newest: int) -> Scope:
        """From the form's round numbers: blank or out of range -> the whole game; reversed -> swapped."""
        try:
            low, high = int(first), int(last)
        except (TypeError, ValueError):
            return cls()
        low, high = sorted((max(1, low), min(max(newest, 1), high)))
        if low == 1 and high >= newest:
            return cls()
        return cls(low, high)

    @classmethod
    def from_key(cls, key: str) -> Scope | None:
        if key == WHOLE_GAME:
            return cls()
        low, sep, high = key.partition("-")
        if not sep or not low.isdigit() or not high.isdigit() or int(low) > int(high) or int(low) < 1:
            return None
        return cls(int(low), int(high))


def balances(game: Game, rounds: Iterable[Round], scope: Scope = Scope()) -> dict[str, Fraction]:
    """Each player's money over the scope's settled rounds (positive: is owed), exact."""
    money = {name: Fraction(0) for name in game.player_names}
    for rnd in rounds:
        if rnd.status == "settled" and rnd.settlement and scope.covers(rnd.number):
            for name, amount in (rnd.settlement.get("money") or {}).items():
                if name in money:
                    money[name] += as_fraction(amount)
    return money


def settle_up(game: Game, rounds: Iterable[Round], payments: Iterable[SettlePayment],
              scope: Scope = Scope()) -> list[dict[str, Any]]:
    """The payments recorded for this scope (paid) then the fewest transfers settling the rest (not paid):
    [{"from", "to", "amount", "paid", "id"}] with "id" the recorded payment's (None when not paid)."""
    owed = balances(game, rounds, scope)
    paid = []
    for payment in payments:
        if payment.scope != scope.key:
            continue
        amount = as_fraction(payment.amount)
        if payment.payer in owed and payment.payee in owed:
            owed[payment.payer] += amount
            owed[payment.payee] -= amount
        paid.append({"from": payment.payer, "to": payment.payee, "amount": money_text(amount), "paid": True,
                     "id": payment.id})
    due = [t | {"paid": False, "id": None} for t in transfers({n: v for n, v in owed.items()})]
    return paid + due


def public(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The API's shape: {"from", "to", "amount", "paid"}."""
    return [{key: entry[key] for key in ("from", "to", "amount", "paid")} for entry in entries]


def payments_of(session: Session, game: Game) -> list[SettlePayment]:
    return list(session.scalars(select(SettlePayment).where(SettlePayment.game_id == game.id)
                                .order_by(SettlePayment.id)))


def record_payment(session: Session, game: Game, scope: Scope, payer: str, payee: str, amount: str) -> str | None:
    """Mark the owed transfer payer -> payee of `amount` paid; None when recorded, else why nothing was.

    Only a transfer the settle-up shows as owed right now can be marked, so a form sent twice (a double tap, a
    reconnect replaying it) records one payment: the second finds the transfer paid and changes nothing. The
    game's row is locked first, so two phones marking at once are taken one after the other."""
    session.execute(select(Game.id).where(Game.id == game.id).with_for_update())
    owed = [t for t in settle_up(game, list(game.rounds), payments_of(session, game), scope) if not t["paid"]]
    if not any(t["from"] == payer and t["to"] == payee and t["amount"] == amount for t in owed):
        session.rollback()
        return f"{payer} → {payee} {amount} is not owed now (already marked paid, or the rounds changed)."
    session.add(SettlePayment(game_id=game.id, scope=scope.key, payer=payer, payee=payee,
                              amount=str(as_fraction(_exact_part(amount)))))
    session.commit()
    return None


def undo_payment(session: Session, game: Game, payment_id: str) -> Scope | None:
    """Remove a paid mark (its transfer is owed again); the scope it was for, or None if there was none."""
    if not payment_id.isdigit():
        return None
    payment = session.get(SettlePayment, int(payment_id))
    if payment is None or payment.game_id != game.id:
        return None
    scope = Scope.from_key(payment.scope)
    session.delete(payment)
    session.commit()
    return scope


def _exact_part(amount: str) -> str:
    """money_text's '2/3 (≈0.67)' -> '2/3'; '1.5' stays."""
    return amount.split(" ", 1)[0]
