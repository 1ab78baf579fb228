"""A hand from a photo (upload or webcam): read it outside any lock, store the photo once, make the
reading that player's hand."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

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
    session.commit()  # end the read transaction: no lock is held while reading
    try:
        reading = reader.read(data, loose=loose, slots=read_slots)
    except reader.ReaderUnavailable as err:
        reading = {"cards": [], "rows": {r: [] for r in ROWS},
                   "warnings": [f"{err}; enter or correct the cards by hand."]}
    summary = reader.summarise(reading)
    sha = store.save(data, content_type)
    rnd = locked_round(session, round_id)
    require_open(rnd)
    _insert_photo_once(session, sha, content_type, len(data))
    upload = Upload(round_id=rnd.id, player=player, photo_sha256=sha, source=source, reading=reading,
                    hand_set=hand_set)
    session.add(upload)
    session.flush()
    hand = locked_hand(session, rnd, player, hand_set)
    require_holding(hand)
    if bigtwo:
        hand.cards = [card["code"] for card in summary["cards"]]  # in reading order
    else:
        hand.front, hand.middle, hand.back = (summary["rows"][r] for r in ROWS)
    hand.state, hand.source, hand.upload_id = "cards", source, upload.id
    record_event(session, rnd, "read", player, upload=upload.id, photo=sha, source=source,
                 cards=len(summary["cards"]) if bigtwo else sum(len(summary["rows"][r]) for r in ROWS),
                 **set_detail(hand))
    session.commit()
    return hand, reading
