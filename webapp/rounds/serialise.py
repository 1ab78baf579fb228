"""A round and its hands as JSON (the API and the JSON export): hands with their warnings, fouls, naturals and
what each still lacks, uploads, events, the settlement; the live round's version, ETag, change lines and undo."""
from __future__ import annotations

from typing import Any

from webapp.models import Game, Hand, Round
from webapp.rounds.changes import changes_since, recent_changes
from webapp.rounds.fouls import foul_of, natural_of
from webapp.rounds.live import etag
from webapp.rounds.review import hand_warnings, missing_by_player, round_warnings, settle_blockers
from webapp.rounds.sets import hand_label, is_criss_cross
from webapp.rounds.undo import undo_preview


def hand_json(hand: Hand, game: Game) -> dict[str, Any]:
    photo = hand.upload.photo_sha256 if hand.upload else None
    if game.is_bigtwo:
        return {"player": hand.player, "state": hand.state, "cards": hand.cards, "instant_win": hand.instant_win,
                "source": hand.source, "photo": photo}
    return {"player": hand.player, "set": hand.hand_set + 1, "state": hand.state, "front": hand.front,
            "middle": hand.middle, "back": hand.back, "natural": hand.declared_natural, "source": hand.source,
            "photo": photo,
            "foul": foul_of(game, hand), "natural_detected": natural_of(game, hand)}


def round_json(rnd: Round) -> dict[str, Any]:
    warnings = hand_warnings(rnd)
    missing = missing_by_player(rnd, warnings)
    sets = is_criss_cross(rnd.game)
    extra = {"finish_order": rnd.finish_order, "failed_to_block": rnd.failed_to_block} if rnd.game.is_bigtwo else {}
    return {
        "number": rnd.number, "status": rnd.status, "banker": rnd.banker, "revision": rnd.revision, **extra,
        "version": rnd.version, "etag": etag(rnd),
        "hands": [hand_json(h, rnd.game) | {"warnings": warnings[hand_label(h)], "missing": missing[hand_label(h)]}
                  for h in rnd.hands],
        "warnings": round_warnings(rnd), "ready": not settle_blockers(rnd, warnings), "settlement": rnd.settlement,
        "changes": recent_changes(rnd), "undo": undo_preview(rnd),
        "uploads": [{"id": u.id, "player": u.player, "photo": u.photo_sha256, "source": u.source, "kind": u.kind,
                     "created_at": u.created_at.isoformat(), "status": u.status, "attempts": u.attempts, "error": u.error,
                     **({"set": u.hand_set + 1} if sets else {})}
                    for u in rnd.uploads],
        "events": [{"kind": e.kind, "player": e.player, "actor": e.actor, "at": e.created_at.isoformat(),
                    "detail": e.detail} for e in rnd.events],
        "created_at": rnd.created_at.isoformat(),
        "settled_at": rnd.settled_at.isoformat() if rnd.settled_at else None,
    }


def stale_json(rnd: Round, seen_version: int, message: str) -> dict[str, Any]:
    """The 412 answer to a change sent from an old version: what changed since, and the round as it is now."""
    return {"error": message, "status": 412, "changes": changes_since(rnd, seen_version), "round": round_json(rnd)}
