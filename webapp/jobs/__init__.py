"""Photo reading as jobs on Redis (RQ), for a club running several app processes: used only when `REDIS_URL` is
set; without it the request reads the photo itself, as on a table's laptop.

The path of one photo: the request checks the header (type, size, pixels), stores the photo (content-addressed),
adds an upload with status "queued" and enqueues `reading.read_upload` (`submit.py`); the hand shows "reading…"
(`status.py`). A worker (`python -m webapp.jobs.worker`) reads it, makes the reading the hand and records a "read"
change, which bumps the round's version, so every open page refreshes. A failed attempt (an error, a timeout, a
worker killed mid-read) is retried JOBS_RETRIES times (RQ's Retry); then the hand says the photo could not be
read. A photo still waiting after JOBS_STUCK_AFTER_S is reported on its hand too."""
