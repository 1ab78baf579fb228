"""The worker's half: the job that reads one stored upload and makes it the player's hand, and the failure
callback that retries or, at the last attempt, says on the hand why the photo could not be read.

Every step is safe to run twice (a worker killed after its commit but before RQ heard of it): an upload already
read or failed is left alone, and a reading is applied only while no newer photo of that hand has been."""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask, current_app
from rq.exceptions import AbandonedJobError
from rq.job import Job
from rq.timeouts import JobTimeoutException
from sqlalchemy import func, select

from webapp.models import Photo, Upload
from webapp.photos import UploadRejected
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_round, record_event
from webapp.rounds.photos import apply_reading, read_or_explain

logger = logging.getLogger(__name__)

DONE = ("read", "failed")
SETTLED = "The round was settled before this photo was read; re-open the round and send the photo again."
MISSING = "The photo's file is missing from the photo store."


def claim_photo(app: Flask, upload_id: int) -> tuple[bytes | None, dict[str, Any] | None]:
    """A job's first step, for a hand's photo or a table's: mark the upload "reading" (one more attempt) and load its
    photo. Returns (the photo, None), or (None, the job's outcome) when there is nothing to read."""
    with app.extensions["webapp.sessions"]() as session:
        upload = session.get(Upload, upload_id)
        if upload is None or upload.status in DONE:
            return None, {"status": "done"}
        upload.status, upload.attempts = "reading", upload.attempts + 1
        sha = upload.photo_sha256
        session.commit()
    data = app.extensions["webapp.photos"].load(sha)
    if data is None:
        fail(app, upload_id, MISSING)
        return None, {"status": "failed", "error": MISSING}
    return data, None


def raise_if_refused(job: Job) -> dict[str, Any]:
    """With JOBS_SYNC the job ran inside enqueue: a photo it refused is the request's 4xx, as when read in-process.
    Returns the job's outcome ({} while it has not run)."""
    if not (job.is_finished or job.is_failed):
        return {}
    outcome = job.return_value() or {}
    if outcome.get("status") == "refused":
        raise UploadRejected(str(outcome["error"]), int(outcome.get("http_status", 400)))
    return outcome


def read_upload(upload_id: int, loose: bool, actor: str) -> dict[str, Any]:
    """RQ job: read upload `upload_id` and make it its player's hand. Returns {"status": read | superseded |
    refused | failed | done, ...}; raises (so RQ retries) only on an unexpected error."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    data, outcome = claim_photo(app, upload_id)
    if data is None:
        return outcome or {"status": "done"}
    try:
        reading = read_or_explain(data, loose=loose)
    except UploadRejected as err:  # the decoder found what the header did not: the photo itself is bad
        fail(app, upload_id, str(err), forget_photo=True)
        return {"status": "refused", "error": str(err), "http_status": err.status}
    token = live.begin(actor)
    try:
        return _apply(app, upload_id, reading)
    finally:
        live.end(token)


def _apply(app: Flask, upload_id: int, reading: dict[str, Any]) -> dict[str, Any]:
    with app.extensions["webapp.sessions"]() as session:
        upload = session.get(Upload, upload_id)
        if upload is None or upload.status in DONE:
            return {"status": "done"}
        rnd = locked_round(session, upload.round_id)
        session.refresh(upload)
        if rnd.status != "open":
            session.rollback()
            fail(app, upload_id, SETTLED)
            return {"status": "failed", "error": SETTLED}
        newer = session.scalar(select(Upload.id).where(
            Upload.round_id == upload.round_id, Upload.player == upload.player, Upload.hand_set == upload.hand_set,
            Upload.status == "read", Upload.id > upload.id).limit(1))
        if newer is not None:  # a later photo of this hand was read first: keep this reading, leave the hand
            upload.reading, upload.status = reading, "read"
            session.commit()
            return {"status": "superseded", "by": newer}
        try:
            apply_reading(session, rnd, upload, reading)
        except RoundError as err:  # e.g. Big Two: the player went out meanwhile
            session.rollback()
            fail(app, upload_id, str(err))
            return {"status": "failed", "error": str(err)}
        session.commit()
        return {"status": "read"}


def fail(app: Flask, upload_id: int, message: str, *, forget_photo: bool = False) -> None:
    """End an upload that will not be read: status "failed" with the reason, and a "read_failed" change on the
    round, so every open page shows it on the hand. `forget_photo`: a photo the decoder refused is not kept
    (as an in-process read keeps nothing of it): the upload goes, and the file unless another upload has it."""
    message = " ".join(message.split())[:500]
    store = app.extensions["webapp.photos"]
    orphan = None
    with app.extensions["webapp.sessions"]() as session:
        upload = session.get(Upload, upload_id)
        if upload is None:
            return
        rnd = locked_round(session, upload.round_id)
        session.refresh(upload)
        if upload.status in DONE:
            return
        player, sha = upload.player, upload.photo_sha256
        detail = {"upload": upload_id, "error": message}
        if upload.hand_set:
            detail["set"] = upload.hand_set + 1
        if forget_photo:
            session.delete(upload)
            session.flush()
            if not session.scalar(select(func.count()).select_from(Upload).where(Upload.photo_sha256 == sha)):
                photo = session.get(Photo, sha)
                if photo is not None:
                    session.delete(photo)
                orphan = sha
        else:
            upload.status, upload.error = "failed", message
        record_event(session, rnd, "read_failed", player, **detail)
        session.commit()
    if orphan is not None:
        store.delete(orphan)


def _why(exc_type: type | None, exc_value: BaseException | None, job: Job) -> str:
    if exc_type is not None and issubclass(exc_type, AbandonedJobError):
        return "the reading worker stopped while reading it"
    if exc_type is not None and issubclass(exc_type, JobTimeoutException):
        return f"reading it took longer than {job.timeout} s"
    name = exc_type.__name__ if exc_type is not None else "error"
    text = " ".join(str(exc_value or name).split())
    return f"the reader failed ({text[:200]})"


def on_read_failure(job: Job, connection: Any, exc_type: type | None = None, exc_value: BaseException | None = None,
                    traceback: Any = None) -> None:
    """RQ failure callback (an exception, a timeout, or a worker found dead by another's registry cleanup): the
    upload waits for its retry, or after the last attempt ends "failed" with the reason on the hand."""
    upload_id = int(job.args[0])
    reason = _why(exc_type, exc_value, job)
    # Not retried: no retries left, or a job run inside the request (JOBS_SYNC) which RQ never retries.
    final = not job.should_retry or job.worker_name == "sync"
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    logger.warning("reading upload %s failed (%s); %s", upload_id, reason, "giving up" if final else "will retry")
    if final:
        fail(app, upload_id, f"The photo could not be read: {reason}.")
        return
    with app.extensions["webapp.sessions"]() as session:
        upload = session.get(Upload, upload_id)
        if upload is not None and upload.status not in DONE:
            upload.status, upload.error = "queued", reason
            session.commit()
