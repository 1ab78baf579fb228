"""A hand from a photo (upload or webcam): read it outside any lock, store the photo once, make the
reading that player's hand."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import current_app
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from webapp import reader
from webapp.models import Hand, Photo, Round, Upload
from webapp.photos import PhotoStore, sniff_content_type
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_hand, locked_round, record_event, require_holding, require_open
from webapp.rounds.sets import set_detail
from webapp.rounds.shape import ROWS


def _insert_photo_once(session: Session, sha: str, content_type: str, size: int) -> None:
    """Insert the photo row unless it exists (two phones may send the very same bytes at once)."""
    dialect = session.get_bind().dialect.name
    values = {"sha256": sha, "content_type": content_type, "size": size, "created_at": datetime.now(timezone.utc)}
    if dialect == "postgresql":
        stmt = postgresql.insert(Photo).values(**values).on_conflict_do_nothing()
    elif dialect == "sqlite":
        stmt = sqlite.insert(Photo).values(**values).on_conflict_do_nothing()
    else:  # other databases: check, then insert (a rare race would fail loudly, not silently)
        if session.get(Photo, sha) is None:
            session.add(Photo(**values))
        return
    session.execute(stmt)


def add_photo(session: Session, store: PhotoStore, rnd: Round, player: str, data: bytes, *,
              source: str = "photo", loose: bool = False, read_slots: int = 0,
              hand_set: int = 0) -> tuple[Hand, dict[str, Any]]:
    """Read a photo of one player's rows and make it that player's hand; (hand, vision's JSON).

    The slow reading happens outside any transaction so four phones can upload at once; the
    photo is stored only after the reader accepted it."""
    if player not in {h.player for h in rnd.hands}:
        raise RoundError(f"'{player}' is not a player in this game.", 404)
    # If-Match is checked before the slow read, not after: four phones sending four hands at once from the same
    # page must not refuse each other (each replaces only its own player's hand).
    live.require_current(rnd)
    require_open(rnd)
    bigtwo = rnd.game.is_bigtwo
    if bigtwo:
        require_holding(next(h for h in rnd.hands if h.player == player))
        loose = True  # cards left in hand lie loose, never in 3/5/5 rows
    round_id = rnd.id
    content_type = sniff_content_type(data)
    if current_app.config.get("REDIS_URL"):  # a club: a worker reads it (webapp/jobs), the page shows "reading…"
        from webapp.jobs import submit

        return submit.queue_photo(session, store, rnd, player, data, content_type, source=source, loose=loose,
                                  hand_set=hand_set)
    session.commit()  # end the read transaction: no lock is held while reading
    reading = read_or_explain(data, loose=loose, read_slots=read_slots)
    sha = store.save(data, content_type)
    rnd = locked_round(session, round_id)
    require_open(rnd)
    upload = store_upload(session, rnd, player, sha, content_type, len(data), source=source, hand_set=hand_set,
                          reading=reading)
    hand = apply_reading(session, rnd, upload, reading)
    session.commit()
    return hand, reading


def read_or_explain(data: bytes, *, loose: bool, read_slots: int = 0) -> dict[str, Any]:
    """The reader's JSON; a reader that cannot run gives an empty reading that says so (the photo is kept and
    the cards are entered by hand). Bad photos raise UploadRejected."""
    try:
        return reader.read(data, loose=loose, slots=read_slots)
    except reader.ReaderUnavailable as err:
        return {"cards": [], "rows": {r: [] for r in ROWS}, "warnings": [f"{err}; enter or correct the cards by hand."]}


def store_upload(session: Session, rnd: Round, player: str, sha: str, content_type: str, size: int, *,
                 source: str, hand_set: int = 0, reading: dict[str, Any] | None = None,
                 status: str = "read") -> Upload:
    """The photo row (once) and a new upload of it for this player (call with the round locked)."""
    _insert_photo_once(session, sha, content_type, size)
    upload = Upload(round_id=rnd.id, player=player, photo_sha256=sha, source=source, reading=reading or {},
                    hand_set=hand_set, status=status)
    session.add(upload)
    session.flush()
    return upload


def apply_reading(session: Session, rnd: Round, upload: Upload, reading: dict[str, Any]) -> Hand:
    """Make an upload's reading its player's hand and record the change (call with the round locked and open;
    the caller commits). Used by the request (in-process reading) and by the reading job alike."""
    summary = reader.summarise(reading)
    hand = locked_hand(session, rnd, upload.player, upload.hand_set)
    require_holding(hand)
    bigtwo = rnd.game.is_bigtwo
    if bigtwo:
        hand.cards = [card["code"] for card in summary["cards"]]  # in reading order
    else:
        hand.front, hand.middle, hand.back = (summary["rows"][r] for r in ROWS)
    hand.state, hand.source, hand.upload_id = "cards", upload.source, upload.id
    upload.reading, upload.status, upload.error = reading, "read", None
    record_event(session, rnd, "read", upload.player, upload=upload.id, photo=upload.photo_sha256,
                 source=upload.source,
                 cards=len(summary["cards"]) if bigtwo else sum(len(summary["rows"][r]) for r in ROWS),
                 **set_detail(hand))
    return hand
