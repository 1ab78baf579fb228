"""A round and its hands as JSON (the API and the JSON export): hands with their warnings, uploads,
events, the settlement."""
from __future__ import annotations

from typing import Any

from webapp.models import Game, Hand, Round
from webapp.rounds.review import hand_warnings, ready_to_settle, round_warnings


def hand_json(hand: Hand, game: Game) -> dict[str, Any]:
    photo = hand.upload.photo_sha256 if hand.upload else None
    if game.is_bigtwo:
        return {"player": hand.player, "state": hand.state, "cards": hand.cards, "instant_win": hand.instant_win,
                "source": hand.source, "photo": photo}
    return {"player": hand.player, "state": hand.state, "front": hand.front, "middle": hand.middle,
            "back": hand.back, "natural": hand.declared_natural, "source": hand.source, "photo": photo}


def round_json(rnd: Round) -> dict[str, Any]:
    warnings = hand_warnings(rnd)
    extra = {"finish_order": rnd.finish_order, "failed_to_block": rnd.failed_to_block} if rnd.game.is_bigtwo else {}
    return {
        "number": rnd.number, "status": rnd.status, "banker": rnd.banker, "revision": rnd.revision, **extra,
        "hands": [hand_json(h, rnd.game) | {"warnings": warnings[h.player]} for h in rnd.hands],
        "warnings": round_warnings(rnd), "ready": ready_to_settle(rnd), "settlement": rnd.settlement,
        "uploads": [{"id": u.id, "player": u.player, "photo": u.photo_sha256, "source": u.source,
                     "created_at": u.created_at.isoformat()} for u in rnd.uploads],
        "events": [{"kind": e.kind, "player": e.player, "detail": e.detail, "at": e.created_at.isoformat()}
                   for e in rnd.events],
        "created_at": rnd.created_at.isoformat(),
        "settled_at": rnd.settled_at.isoformat() if rnd.settled_at else None,
    }
