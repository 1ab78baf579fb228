"""The Redis connection and the photo-reading queue of an app (one per process, made on first use)."""
from __future__ import annotations

from typing import Any

from flask import Flask
from redis import Redis
from rq import Callback, Queue, Retry

_QUEUE_KEY = "webapp.jobs.queue"


def photo_queue(app: Flask) -> Queue:
    """The app's RQ queue (JOBS_QUEUE on REDIS_URL); JOBS_SYNC runs each job inside the enqueuing call (tests)."""
    queue = app.extensions.get(_QUEUE_KEY)
    if queue is None:
        connection = Redis.from_url(str(app.config["REDIS_URL"]), socket_connect_timeout=5, socket_timeout=10)
        queue = Queue(str(app.config["JOBS_QUEUE"]), connection=connection,
                      is_async=not app.config.get("JOBS_SYNC"))
        app.extensions[_QUEUE_KEY] = queue
    return queue


def enqueue_read(app: Flask, upload_id: int, *, loose: bool, actor: str) -> Any:
    """Queue the reading of one stored upload; the RQ job (already finished when JOBS_SYNC)."""
    from webapp.jobs.reading import on_read_failure, read_upload

    timeout = int(app.config["JOBS_TIMEOUT_S"])
    return photo_queue(app).enqueue(
        read_upload, upload_id, loose, actor, job_timeout=timeout, retry=Retry(max=int(app.config["JOBS_RETRIES"])),
        on_failure=Callback(on_read_failure), result_ttl=600, failure_ttl=24 * 3600,
        description=f"read upload {upload_id}")


def depth(app: Flask) -> int:
    """Photos waiting for a worker (the load test prints it over time)."""
    return photo_queue(app).count
