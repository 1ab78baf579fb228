"""A table photo read by a reading job, as a hand's photo is when REDIS_URL is set (webapp/jobs).

The request checks the header, stores the photo, adds the table upload with status "queued" and enqueues
`read_table_upload`. The worker reads it (vision.read_table), keeps the reading on the upload, then fills the round
when the game knows the seats (the RoundEvent "table", as in the request), else records "table_read" so that every
open round page offers the seat page. A photo the decoder refuses or that shows no hand is not kept; its reason is a
"read_failed" change (webapp.jobs.reading.fail), shown on the round page's table panel. Retries and the final
failure are webapp.jobs' (its failure callback works from the upload id, the job's first argument)."""
from __future__ import annotations

from typing import Any

from flask import Flask, current_app
from redis.exceptions import RedisError
from rq import Callback, Retry
from sqlalchemy.orm import Session

from webapp import reader, table_seats
from webapp.jobs.reading import DONE, claim_photo, fail, on_read_failure, raise_if_refused
from webapp.jobs.submit import QUEUE_DOWN
from webapp.models import Round, Upload
from webapp.photos import PhotoStorage, UploadRejected
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_round, record_event, require_open
from webapp.rounds.photos import _insert_photo_once
from webapp.rounds.table_photos import TABLE, TABLE_READ, fill_from_table, no_hand_problem
from webapp.table_reading import table_hands


def queue_table_photo(session: Session, store: PhotoStorage, rnd: Round, data: bytes, content_type: str, *,
                      source: str) -> Upload:
    """The table upload, stored and queued (with JOBS_SYNC: already read, and the round filled if it could be)."""
    reader.check_photo(data)  # header refusals (type, size, pixels) before anything is kept
    round_id, loose = rnd.id, rnd.game.is_bigtwo
    session.commit()
    sha = store.save(data, content_type)
    rnd = locked_round(session, round_id)
    require_open(rnd)
    _insert_photo_once(session, sha, content_type, len(data))
    upload = Upload(round_id=round_id, player="", photo_sha256=sha, source=source, kind=TABLE, reading={},
                    status="queued")
    session.add(upload)
    session.flush()
    upload_id = upload.id
    session.commit()  # and nothing loaded until the job is queued: with JOBS_SYNC it runs here and needs the lock
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    from webapp.jobs.queue import photo_queue

    try:
        job = photo_queue(app).enqueue(
            read_table_upload, upload_id, loose, live.current_actor(), job_timeout=int(app.config["JOBS_TIMEOUT_S"]),
            retry=Retry(max=int(app.config["JOBS_RETRIES"])), on_failure=Callback(on_read_failure), result_ttl=600,
            failure_ttl=24 * 3600, description=f"read table upload {upload_id}")
    except RedisError as err:
        session.rollback()
        kept = session.get(Upload, upload_id)
        if kept is not None:
            kept.status, kept.error = "failed", QUEUE_DOWN
            session.commit()
        raise RoundError(QUEUE_DOWN, 503) from err
    session.expire_all()
    outcome = raise_if_refused(job)
    if outcome.get("status") == "failed":
        raise RoundError(str(outcome.get("error")), 503)
    found = session.get(Upload, upload_id)
    if found is None:
        raise RoundError("The table photo could not be read.", 503)
    return found


def read_table_upload(upload_id: int, loose: bool, actor: str) -> dict[str, Any]:
    """RQ job: read table upload `upload_id`; fill its round when the seats are known. {"status": read | filled |
    refused | failed | done, …}; raises (so RQ retries) only on an unexpected error."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    sessions = app.extensions["webapp.sessions"]
    data, outcome = claim_photo(app, upload_id)
    if data is None:
        return outcome or {"status": "done"}
    with sessions() as session:
        round_id = session.get(Upload, upload_id).round_id
    try:
        reading = reader.read_table(data, loose=loose)
    except UploadRejected as err:  # the decoder found what the header did not
        fail(app, upload_id, str(err), forget_photo=True)
        return {"status": "refused", "error": str(err), "http_status": err.status}
    except reader.ReaderUnavailable as err:
        message = f"The card reader is unavailable ({err}); photograph each hand on its own or type the cards."
        fail(app, upload_id, message)
        return {"status": "failed", "error": message}
    problem = no_hand_problem(reading)
    if problem:
        fail(app, upload_id, problem, forget_photo=True)
        return {"status": "refused", "error": problem, "http_status": 422}
    token = live.begin(actor)
    try:
        return _apply(sessions, round_id, upload_id, reading)
    finally:
        live.end(token)


def _apply(sessions: Any, round_id: int, upload_id: int, reading: dict[str, Any]) -> dict[str, Any]:
    with sessions() as session:
        rnd = locked_round(session, round_id)
        upload = session.get(Upload, upload_id)
        if upload is None or upload.status in DONE:
            return {"status": "done"}
        upload.reading, upload.status, upload.error = reading, "read", None
        session.commit()
        if rnd.status != "open":  # kept: its seat page can fill the round once it is re-opened
            return {"status": "read"}
        seats = [hand.seat for hand in table_hands(reading)]
        if table_seats.knows(rnd.game, seats):
            try:
                fill_from_table(session, rnd, upload_id, table_seats.remembered(rnd.game), check_version=False)
                return {"status": "filled"}
            except RoundError:  # e.g. every hand at a seat nobody sits at: the seat page says why
                session.rollback()
        rnd = locked_round(session, round_id)
        record_event(session, rnd, TABLE_READ, None, upload=upload_id)  # every page now offers the seat page
        session.commit()
        return {"status": "read"}
