"""`python -m webapp.jobs.worker`: one RQ worker reading photos for the app configured by the environment
(DATABASE_URL, REDIS_URL, WEBAPP_PHOTO_DIR, …, as the app processes see it).

A SimpleWorker (no fork per job): the reader's models load once and stay warm, a read costs ~0.3 s instead of a
model load; ONNX Runtime's threads would not survive a fork anyway. The job's timeout is RQ's SIGALRM, so a job
cannot outlive it, which lets a dead worker's job be noticed `HEARTBEAT_GRACE_S` after that timeout (RQ's own
margin is 60 s) by another worker's registry cleanup, run every `--maintenance-s`, which retries it."""
from __future__ import annotations

import argparse
import logging
import sys

from redis import Redis
from rq import Queue, SimpleWorker
from rq.job import Job

HEARTBEAT_GRACE_S = 5


class ReaderWorker(SimpleWorker):
    """RQ's SimpleWorker whose running job counts as abandoned soon after its timeout, not a minute later."""

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        if job.timeout and job.timeout > 0:
            return int(job.timeout) + HEARTBEAT_GRACE_S
        return super().get_heartbeat_ttl(job, working_time)


def _warm_up() -> None:
    """Load the reader and run it once, so the first photo is read as fast as the later ones."""
    try:
        from vision.reader import default_reader

        default_reader().warm_up()
    except Exception:  # noqa: BLE001 - each read reports a missing reader itself
        logging.getLogger(__name__).warning("the card reader could not be warmed up", exc_info=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m webapp.jobs.worker", description="Read queued photos")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument("--maintenance-s", type=int, default=15,
                        help="how often to look for jobs of dead workers (RQ's default is 600 s)")
    parser.add_argument("--name", default=None, help="worker name (default: RQ's)")
    parser.add_argument("--no-warm-up", action="store_true", help="do not load the reader before the first job")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from webapp import create_app

    app = create_app()
    if not app.config.get("REDIS_URL"):
        print("REDIS_URL is not set: there is no queue to read from.", file=sys.stderr)
        return 2
    with app.app_context():
        if not args.no_warm_up:
            _warm_up()
        connection = Redis.from_url(str(app.config["REDIS_URL"]))
        queue = Queue(str(app.config["JOBS_QUEUE"]), connection=connection)
        # An idle worker waits on the queue for worker_ttl - 15 s between maintenance checks: keep that short.
        worker = ReaderWorker([queue], connection=connection, name=args.name,
                              maintenance_interval=args.maintenance_s, worker_ttl=max(args.maintenance_s, 1) + 15)
        worker.work(burst=args.burst, logging_level="INFO")
    return 0


if __name__ == "__main__":
    sys.exit(main())
