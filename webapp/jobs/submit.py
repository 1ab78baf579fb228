"""The request's half: check the photo's header, store it, add a queued upload and enqueue its reading."""
from __future__ import annotations

from typing import Any

from flask import current_app
from redis.exceptions import RedisError
from sqlalchemy.orm import Session

from webapp import reader
from webapp.models import Hand, Round, Upload
from webapp.jobs.reading import raise_if_refused
from webapp.photos import PhotoStorage
from webapp.rounds import live
from webapp.rounds.errors import RoundError
from webapp.rounds.loading import locked_round, require_open
from webapp.rounds.photos import store_upload

QUEUE_DOWN = "The photo is kept but could not be queued for reading (the job queue is unreachable); try again."


def queue_photo(session: Session, store: PhotoStorage, rnd: Round, player: str, data: bytes, content_type: str, *,
                source: str, loose: bool, hand_set: int = 0) -> tuple[Hand, dict[str, Any]]:
    """(the hand, {"job": {"upload", "status"}}) once the photo is stored and queued; when the job already ran
    (JOBS_SYNC) the hand as read and the reading, exactly as an in-process read answers. Header refusals (type,
    size, pixels) are 4xx before anything is stored; the decoder's are the job's (see reading.py)."""
    reader.check_photo(data)
    round_id = rnd.id
    session.commit()  # no lock held while the file is written
    sha = store.save(data, content_type)
    rnd = locked_round(session, round_id)
    require_open(rnd)
    upload = store_upload(session, rnd, player, sha, content_type, len(data), source=source, hand_set=hand_set,
                          status="queued")
    upload_id = upload.id
    session.commit()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    from webapp.jobs.queue import enqueue_read

    try:
        job = enqueue_read(app, upload_id, loose=loose, actor=live.current_actor())
    except RedisError as err:
        _mark_unqueued(session, upload_id)
        raise RoundError(QUEUE_DOWN, 503) from err
    session.expire_all()
    raise_if_refused(job)
    upload = session.get(Upload, upload_id)
    hand = next(h for h in session.get(Round, round_id).hands if h.player == player and h.hand_set == hand_set)
    if upload is not None and upload.status == "read" and hand.upload_id == upload_id:
        return hand, upload.reading
    return hand, {"job": {"upload": upload_id, "status": upload.status if upload else "failed"}}


def _mark_unqueued(session: Session, upload_id: int) -> None:
    session.rollback()
    upload = session.get(Upload, upload_id)
    if upload is not None:
        upload.status, upload.error = "failed", QUEUE_DOWN
        session.commit()
