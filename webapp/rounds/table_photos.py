"""A round filled from one photo of the whole table (an overhead webcam's shot, or a phone held above the table).

Two steps, each its own short transaction:
1. `store_table_photo`: the photo is read outside any lock (`reader.read_table`; Big Two: loose, one group of cards
   left per seat), stored once (content-addressed, as a hand's photo), and recorded as one Upload of kind "table"
   (player "", the whole reading). Nothing of the round changes yet.
2. `fill_from_table`: with the seats known (`webapp.table_seats`), every seat's hand becomes its player's hand: one
   Upload of kind "hand" per player (the seat's own reading, with "table_upload" and "seat" added, the same photo),
   so the review, the overlay and the one-tap suggestions read it exactly as a single-hand photo's; and one
   RoundEvent "table" for them all (the version bump other phones see, one undo reverts the whole photo).
A seat's hand with no player there, a surrendered hand and Big Two's winner are left as they are, and the report
says so; so does a player whose seat showed no hand. With REDIS_URL a reading job does step 1's reading and, when
the seats are known, step 2 (webapp/table_jobs.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from sqlalchemy.orm import Session

from webapp import reader
from webapp.models import Round, RoundEvent, Upload
from webapp.photos import PhotoStorage, sniff_content_type
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_hand, locked_round, record_event, require_open
from webapp.rounds.photos import _insert_photo_once
from webapp.rounds.sets import is_criss_cross
from webapp.rounds.shape import ROWS
from webapp.table_reading import SIDES, photo_warnings, table_hands

TABLE = "table"  # Upload.kind of a whole-table photo; RoundEvent.kind of filling a round from one
TABLE_READ = "table_read"  # RoundEvent.kind: a reading job read a table photo whose seats are still to be given
NO_HAND_FOUND = "No hand found on this table photo"


@dataclass
class TableFill:
    """What filling a round from a table photo did: per player the cards read, and what it left alone."""

    filled: dict[str, int] = field(default_factory=dict)
    # {"seat", "side", "reason": no_player | surrendered | went_out, "player"?, "cards"}
    skipped: list[dict[str, Any]] = field(default_factory=list)
    # {"seat", "side", "player"}: a seat the game gives a player, where the photo showed no hand
    empty_seats: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"filled": self.filled, "skipped": self.skipped, "empty_seats": self.empty_seats}


CRISS_CROSS_TABLE = ("A table photo fills one hand a seat; in criss cross each player has two sets: photograph each "
                     "set on its own.")


def store_table_photo(session: Session, store: PhotoStorage, rnd: Round, data: bytes, *, source: str = "photo",
                      read_slots: int = 0) -> Upload:
    """Read a table photo and keep it as the round's Upload of kind "table"; refused (nothing stored) when the photo
    is bad, the reader is missing, or it shows no hand."""
    live.require_current(rnd)  # before the slow read, as for a hand's photo
    require_open(rnd)
    if is_criss_cross(rnd.game):  # a seat holds two sets; one photo of the table cannot say which is which
        raise RoundError(CRISS_CROSS_TABLE, 409)
    loose = rnd.game.is_bigtwo  # cards left in hand lie loose, one group per seat
    round_id = rnd.id
    content_type = sniff_content_type(data)
    if current_app.config.get("REDIS_URL"):  # a club: a reading job reads it, as a hand's photo (webapp/jobs)
        from webapp.table_jobs import queue_table_photo

        return queue_table_photo(session, store, rnd, data, content_type, source=source)
    session.commit()  # no lock is held while reading
    try:
        reading = reader.read_table(data, loose=loose, slots=read_slots)
    except reader.ReaderUnavailable as err:
        raise RoundError(f"The card reader is unavailable ({err}); photograph each hand on its own or type the "
                         f"cards.", 503) from err
    problem = no_hand_problem(reading)
    if problem:
        raise RoundError(problem, 422)
    sha = store.save(data, content_type)
    rnd = locked_round(session, round_id)
    require_open(rnd)
    _insert_photo_once(session, sha, content_type, len(data))
    upload = Upload(round_id=rnd.id, player="", photo_sha256=sha, source=source, kind=TABLE, reading=reading)
    session.add(upload)
    session.commit()
    return upload


def no_hand_problem(reading: dict[str, Any]) -> str | None:
    """Why a table reading cannot fill anything (it found no hand), in one line; None when it found one."""
    if table_hands(reading):
        return None
    said = "; ".join(photo_warnings(reading))
    return f"{NO_HAND_FOUND}: {said}" if said else \
        f"{NO_HAND_FOUND}: make sure the whole table and every hand's cards are in the picture."


def table_upload(session: Session, rnd: Round, upload_id: int) -> Upload:
    upload = session.get(Upload, upload_id)
    if upload is None or upload.round_id != rnd.id or upload.kind != TABLE:
        raise RoundError(f"This round has no table photo {upload_id}.", 404)
    return upload


def fill_from_table(session: Session, rnd: Round, upload_id: int, seats: dict[str, str], *,
                    check_version: bool = True) -> TableFill:
    """Make each seat's hand of the table photo its player's hand (`seats`: {"0": "Ann", …}, "" nobody).

    `check_version`: compare the request's If-Match under the lock (a seat form or an API call); a photo just taken
    was compared before its read, as a hand's photo is."""
    rnd = locked_round(session, rnd.id)
    if check_version:
        live.require_current(rnd)
    require_open(rnd)
    upload = table_upload(session, rnd, upload_id)
    bigtwo = rnd.game.is_bigtwo
    report = TableFill()
    found = table_hands(upload.reading)
    for table_hand in found:
        seat, side = table_hand.seat, table_hand.side
        player = seats.get(str(seat)) or None
        if player is None:
            report.skipped.append({"seat": seat, "side": side, "reason": "no_player",
                                   "cards": table_hand.card_count})
            continue
        hand = locked_hand(session, rnd, player)
        if hand.state in ("surrender", "out"):
            reason = "surrendered" if hand.state == "surrender" else "went_out"
            report.skipped.append({"seat": seat, "side": side, "reason": reason, "player": player,
                                   "cards": table_hand.card_count})
            continue
        hand_upload = Upload(round_id=rnd.id, player=player, photo_sha256=upload.photo_sha256,
                             source=upload.source, kind="hand",
                             reading={**table_hand.reading, "table_upload": upload.id, "seat": seat})
        session.add(hand_upload)
        session.flush()
        summary = reader.summarise(hand_upload.reading)
        if bigtwo:
            hand.cards = [card["code"] for card in summary["cards"]]  # in reading order
        else:
            hand.front, hand.middle, hand.back = (summary["rows"][r] for r in ROWS)
        hand.state, hand.source, hand.upload_id = "cards", TABLE, hand_upload.id
        report.filled[player] = len(hand.cards) if bigtwo else sum(len(summary["rows"][r]) for r in ROWS)
    seats_found = {table_hand.seat for table_hand in found}
    states = {hand.player: hand.state for hand in rnd.hands}
    for seat, player in sorted(seats.items()):
        if player and int(seat) not in seats_found and states.get(player) != "out":
            report.empty_seats.append({"seat": int(seat), "side": SIDES[int(seat)], "player": player})
    if not report.filled:
        raise RoundError("No hand was filled: " + "; ".join(skip_line(s) for s in report.skipped) + ".", 409)
    record_event(session, rnd, TABLE, None, upload=upload.id, photo=upload.photo_sha256, source=upload.source,
                 seats=dict(seats), **report.as_dict())
    session.commit()
    return report


def skip_line(skip: dict[str, Any]) -> str:
    """A hand the photo showed but the round did not take, as a line ("the hand at the right seat (13 cards): no
    player sits there")."""
    where = f"the hand at the {skip['side']} seat ({skip['cards']} cards)"
    if skip["reason"] == "surrendered":
        return f"{where}: {skip['player']} surrendered, so it was not used"
    if skip["reason"] == "went_out":
        return f"{where}: {skip['player']} went out (holds no cards), so it was not used"
    return f"{where}: no player sits there, so it was not used; give that seat a player to use it"


def empty_seat_line(empty: dict[str, Any]) -> str:
    return f"No hand was found at {empty['player']}'s seat ({empty['side']}); {empty['player']}'s hand is unchanged"


def latest_table_fill(rnd: Round) -> RoundEvent | None:
    """The round's newest table fill that no undo has reverted (what the round page reports), or None."""
    reverted = {(e.detail or {}).get("reverts") for e in rnd.events if e.kind == "undo"}
    for event in reversed(list(rnd.events)):
        if event.kind == TABLE and event.id not in reverted:
            return event
    return None


def filled_by(rnd: Round, upload_id: int) -> dict[str, Any] | None:
    """What the newest fill from this table photo did (TableFill.as_dict), None when none used it (a reading job may
    have filled the round already)."""
    for event in reversed(list(rnd.events)):
        detail = event.detail or {}
        if event.kind == TABLE and detail.get("upload") == upload_id:
            return {key: detail.get(key) for key in ("filled", "skipped", "empty_seats")}
    return None


def waiting_table_photo(rnd: Round) -> Upload | None:
    """The round's newest table photo when it is read but no fill used it yet (its seats still to be given)."""
    tables = [u for u in rnd.uploads if u.kind == TABLE]
    if tables and tables[-1].status == "read" and filled_by(rnd, tables[-1].id) is None:
        return tables[-1]
    return None


def reading_table_photo(rnd: Round) -> Upload | None:
    """The round's newest table photo while a reading job has not read it yet (REDIS_URL), else None."""
    tables = [u for u in rnd.uploads if u.kind == TABLE]
    return tables[-1] if tables and tables[-1].status in ("queued", "reading") else None


def failed_table_photo(rnd: Round) -> str | None:
    """Why the newest table photo a reading job took could not be read, while it is the round's newest news of one."""
    for event in reversed(list(rnd.events)):
        if event.kind in (TABLE, TABLE_READ):
            return None
        if event.kind == "read_failed" and not event.player:
            return str((event.detail or {}).get("error") or "")
    return None
