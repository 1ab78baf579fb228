"""The one error every round operation raises for a request it cannot accept."""
from __future__ import annotations


class RoundError(ValueError):
    """A request the round cannot accept (settled round, unknown player, bad cards); `status` is HTTP."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
