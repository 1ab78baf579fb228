"""Photo reading as jobs (REDIS_URL): a real redis-server, RQ workers in this process (burst) or as processes.

The photo is stored and queued, the pages say "reading…", a worker reads it and the round's version moves (so live
pages refresh); a worker killed mid-read loses nothing (RQ retries the job); a photo that keeps failing ends with a
message on the hand; one waiting past the deadline is reported; header refusals stay 4xx with nothing stored.
Skipped where redis-server is not installed (scripts/setup.sh test installs it)."""
from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from webapp_testkit import create_game, csrf_token, jpeg_bytes, new_round, reading_of

ROOT = Path(__file__).resolve().parents[2]
ROWS = {"front": ["AS", "KS", "QS"], "middle": ["2H", "3H", "4H", "5H", "6H"],
        "back": ["7C", "8C", "9C", "TC", "JC"]}
READING = reading_of(ROWS, [])

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None,
                                reason="redis-server is not installed (apt-get install redis-server)")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A throwaway redis-server for this module (nothing on disk)."""
    from redis import Redis

    port, folder = _free_port(), tmp_path_factory.mktemp("redis")
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", str(folder)], stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.time() + 60  # a loaded CI host
    while True:
        try:
            Redis.from_url(url).ping()
            break
        except Exception:  # noqa: BLE001 - not up yet
            assert time.time() < deadline and server.poll() is None, "redis-server did not start"
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(10)


@pytest.fixture
def app_config(app_config, redis_url, tmp_path):
    return {**app_config, "REDIS_URL": redis_url, "JOBS_SYNC": False, "JOBS_QUEUE": f"jobs-{tmp_path.name}",
            "RATELIMIT_KEY_PREFIX": f"jobs-{os.getpid()}-{tmp_path.name}", "JOBS_TIMEOUT_S": 4}


def _work(app) -> None:
    """Run a reading worker in this process until the queue is empty (RQ's burst mode)."""
    from webapp.jobs.queue import photo_queue
    from webapp.jobs.worker import ReaderWorker

    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with app.app_context():
            queue = photo_queue(app)
            ReaderWorker([queue], connection=queue.connection).work(burst=True)
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _post_photo(client, token: str, number: int, data: bytes | None = None, seat: int = 0):
    return client.post(f"/g/{token}/r/{number}/p/{seat}/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(data or jpeg_bytes()), "x.jpg")},
        content_type="multipart/form-data")


def _round(client, token: str, number: int) -> dict:
    return client.get(f"/api/games/{token}/rounds/{number}").get_json()


def test_a_photo_is_queued_shows_reading_and_then_the_review(client, app, monkeypatch):
    from webapp import reader

    monkeypatch.setattr(reader, "_read", lambda data, loose: READING)
    token = create_game(client)
    number = new_round(client, token)
    version = _round(client, token, number)["version"]
    assert _post_photo(client, token, number).status_code == 303
    queued = _round(client, token, number)
    assert [u["status"] for u in queued["uploads"]] == ["queued"]
    assert queued["hands"][0]["state"] == "empty" and queued["version"] == version
    assert "Reading the photo…" in client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert "Reading the photo…" in client.get(f"/g/{token}/r/{number}").get_data(as_text=True)

    _work(app)
    done = _round(client, token, number)
    assert done["version"] > version  # what makes every polling page fetch the review
    assert done["uploads"][0]["status"] == "read" and done["uploads"][0]["attempts"] == 1
    hand = done["hands"][0]
    assert (hand["front"], hand["middle"], hand["back"]) == (ROWS["front"], ROWS["middle"], ROWS["back"])
    assert "read" in done["changes"][0]["text"]
    assert "Reading the photo…" not in client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)


def test_the_api_answers_202_and_the_round_says_when_it_is_read(client, app, monkeypatch):
    from webapp import reader

    monkeypatch.setattr(reader, "_read", lambda data, loose: READING)
    token = create_game(client)
    new_round(client, token)
    response = client.post(f"/api/games/{token}/rounds/1/hands/Bob/photo",
                           data={"photo": (io.BytesIO(jpeg_bytes(seed=3)), "b.jpg")}, content_type="multipart/form-data")
    assert response.status_code == 202, response.get_data(as_text=True)
    job = response.get_json()["reading"]["job"]
    assert job["status"] == "queued"
    _work(app)
    uploads = _round(client, token, 1)["uploads"]
    assert [(u["id"], u["status"]) for u in uploads] == [(job["upload"], "read")]


def test_a_photo_that_keeps_failing_ends_with_a_message_after_bounded_retries(client, app, monkeypatch):
    from webapp import reader

    calls = []

    def broken(data, loose):
        calls.append(1)
        raise MemoryError("out of memory in the detector")  # not one of the reader's own refusals
    monkeypatch.setattr(reader, "_read", broken)
    token = create_game(client)
    number = new_round(client, token)
    _post_photo(client, token, number)
    _work(app)
    retries = app.config["JOBS_RETRIES"]
    assert len(calls) == retries + 1
    upload = _round(client, token, number)["uploads"][0]
    assert upload["status"] == "failed" and upload["attempts"] == retries + 1
    assert "out of memory in the detector" in upload["error"]
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert "could not be read" in page and "Reading the photo…" not in page
    assert "could not be read" in _round(client, token, number)["changes"][0]["text"]


def test_a_photo_the_decoder_refuses_is_not_kept_and_the_hand_says_why(client, app):
    from test_hostile_uploads import _damaged_scan_jpeg

    from webapp.db import get_session
    from webapp.models import Photo, Upload

    token = create_game(client)
    number = new_round(client, token)
    assert _post_photo(client, token, number, _damaged_scan_jpeg()).status_code == 303  # the header is sound
    _work(app)
    with app.app_context():
        session = get_session()
        assert [session.scalar(select(func.count()).select_from(m)) for m in (Upload, Photo)] == [0, 0]
    assert not [p for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()]
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert "Corrupt JPEG data" in page


def test_header_refusals_stay_in_the_request_and_queue_nothing(client, app):
    from test_hostile_uploads import _bomb

    from webapp.jobs.queue import depth

    token = create_game(client)
    number = new_round(client, token)
    response = _post_photo(client, token, number, _bomb())
    assert response.status_code == 413
    assert depth(app) == 0 and _round(client, token, number)["uploads"] == []


def test_a_photo_waiting_past_the_deadline_is_reported(client, app):
    app.config["JOBS_STUCK_AFTER_S"] = 0
    token = create_game(client)
    number = new_round(client, token)
    _post_photo(client, token, number)
    time.sleep(1.1)
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert "waited 0 min for a reader" in page and "Reading the photo…" not in page


def test_a_newer_photo_read_first_is_not_overwritten_by_an_older_one(client, app, monkeypatch):
    from webapp import reader

    other = reading_of({"front": ["2S", "3S", "4S"], "middle": ROWS["middle"], "back": ROWS["back"]}, [])
    readings = iter([other, READING])  # the queue is first in, first out: the older photo is read first
    monkeypatch.setattr(reader, "_read", lambda data, loose: next(readings))
    token = create_game(client)
    number = new_round(client, token)
    _post_photo(client, token, number, jpeg_bytes(seed=1))
    _post_photo(client, token, number, jpeg_bytes(seed=2))
    _work(app)
    assert _round(client, token, number)["hands"][0]["front"] == ROWS["front"]
    # and the other way round: the newer one read, then a stale one must not replace it
    from webapp.jobs.reading import read_upload
    from webapp.db import get_session
    from webapp.models import Upload

    with app.app_context():
        session = get_session()
        older = session.scalars(select(Upload).order_by(Upload.id)).first()
        older.status, older_id = "queued", older.id
        session.commit()
        session.close()  # the job opens its own sessions
        monkeypatch.setattr(reader, "_read", lambda data, loose: other)
        assert read_upload(older_id, False, "Ann")["status"] == "superseded"
    assert _round(client, token, number)["hands"][0]["front"] == ROWS["front"]


# A worker process whose reader is replaced: "hang" reads forever (to be killed mid-read), "read" answers at once.
WORKER = """
import pathlib, sys, time
from webapp import reader
mode, flag = sys.argv[1], pathlib.Path(sys.argv[2])
def fake(data, loose):
    flag.write_text("reading")
    if mode == "hang":
        time.sleep(600)
    return %r
reader._read = fake
from webapp.jobs.worker import main
sys.exit(main(["--maintenance-s", "1", "--no-warm-up"]))
""" % (READING,)


def _worker(app, mode: str, folder: Path) -> tuple[subprocess.Popen, Path]:
    flag = folder / f"{mode}.flag"
    env = dict(os.environ, DATABASE_URL=app.config["DATABASE_URL"], REDIS_URL=app.config["REDIS_URL"],
               WEBAPP_INSTANCE_PATH=str(Path(app.instance_path)), WEBAPP_PHOTO_DIR=app.config["PHOTO_DIR"],
               WEBAPP_JOBS_QUEUE=app.config["JOBS_QUEUE"], WEBAPP_MIGRATE_ON_START="false",
               WEBAPP_SECRET_KEY="test-secret", WEBAPP_WEBCAM_DEVICE="")
    log = (folder / f"{mode}.log").open("wb")
    return subprocess.Popen([sys.executable, "-c", WORKER, mode, str(flag)], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT), flag


def _wait(what, timeout: float, message: str):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(message)


def test_a_worker_killed_mid_read_loses_nothing(client, app, tmp_path):
    token = create_game(client)
    number = new_round(client, token)
    hanging, hanging_flag = _worker(app, "hang", tmp_path)
    try:
        _post_photo(client, token, number)
        _wait(hanging_flag.exists, 60, (tmp_path / "hang.log").read_text)
        assert _round(client, token, number)["uploads"][0]["status"] == "reading"
        os.kill(hanging.pid, signal.SIGKILL)  # as an OOM kill or a pulled plug would
        hanging.wait(10)
    finally:
        if hanging.poll() is None:
            hanging.kill()
    worker, flag = _worker(app, "read", tmp_path)
    try:
        # RQ notices the dead worker's job once its timeout and grace are past, and retries it
        upload = _wait(lambda: next((u for u in _round(client, token, number)["uploads"] if u["status"] == "read"),
                                    None),
                       app.config["JOBS_TIMEOUT_S"] + 150,  # generous: a CI machine under load starts workers slowly
                       "the killed worker's photo was never read: "
                       + (tmp_path / "read.log").read_text())
        assert upload["attempts"] == 2
        assert _round(client, token, number)["hands"][0]["front"] == ROWS["front"]
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(15)
        except subprocess.TimeoutExpired:
            worker.kill()
