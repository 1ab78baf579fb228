"""A club's processes (scripts/club.sh's pieces): two gunicorn app processes on one PostgreSQL and one Redis, and a
reading worker process. The rate limits count across both processes, a photo sent through one is read by the
worker and seen through the other (the round's ETag moves), and a change through one shows through the other.

Needs TEST_DATABASE_URL (scripts/with_postgres.sh) and redis-server."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from test_jobs import WORKER, redis_url  # noqa: F401 - the module's throwaway redis-server
from test_live_processes import _call, _free_port, _wait_healthy
from webapp_testkit import jpeg_bytes

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"),
                       reason="TEST_DATABASE_URL is unset: the club's processes share one PostgreSQL "
                              "(run under scripts/with_postgres.sh)"),
    pytest.mark.skipif(shutil.which("redis-server") is None or shutil.which("gunicorn", path=str(
        Path(sys.executable).parent)) is None, reason="redis-server or gunicorn is not installed"),
]

LIMIT = 6  # requests a minute per address, across every process, in the limit's test


def _env(app_config: dict, redis: str, tmp_path: Path, limit: int) -> dict:
    return dict(os.environ, DATABASE_URL=app_config["DATABASE_URL"], REDIS_URL=redis,
                WEBAPP_INSTANCE_PATH=str(tmp_path / "instance"), WEBAPP_PHOTO_DIR=str(tmp_path / "photos"),
                WEBAPP_JOBS_QUEUE=f"club-{tmp_path.name}", WEBAPP_RATELIMIT_KEY_PREFIX=f"club-{uuid.uuid4().hex}",
                WEBAPP_RATELIMIT_APPLICATION=f"{limit} per minute", WEBAPP_SECRET_KEY="club-secret",
                WEBAPP_WEBCAM_DEVICE="")


@pytest.fixture
def club(request, tmp_path, app_config, redis_url):  # noqa: F811 - the fixture imported above
    """Two gunicorn app processes (the first runs the migrations) and one reading worker: their base URLs. The
    overall rate limit is the test's parameter (indirect), else the app's default."""
    env = _env(app_config, redis_url, tmp_path, getattr(request, "param", 3000))
    processes, bases = [], []
    try:
        for index in range(2):
            port, log = _free_port(), tmp_path / f"app-{index}.log"
            process_env = dict(env, WEBAPP_MIGRATE_ON_START="true" if index == 0 else "false")
            processes.append(subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "--workers", "1", "--worker-class", "gthread",
                 "--threads", "4", "--bind", f"127.0.0.1:{port}", "webapp:create_app()"],
                cwd=ROOT, env=process_env, stdout=log.open("wb"), stderr=subprocess.STDOUT))
            bases.append(f"http://127.0.0.1:{port}")
            _wait_healthy(bases[-1], processes[-1], log)
        worker_log = tmp_path / "worker.log"
        processes.append(subprocess.Popen([sys.executable, "-c", WORKER, "read", str(tmp_path / "flag")], cwd=ROOT,
                                          env=dict(env, WEBAPP_MIGRATE_ON_START="false"),
                                          stdout=worker_log.open("wb"), stderr=subprocess.STDOUT))
        yield bases
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()


def _multipart(data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n'
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def _post_photo(base: str, token: str, player: str) -> tuple[int, dict]:
    import json
    import urllib.error
    import urllib.request

    body, content_type = _multipart(jpeg_bytes(seed=11))
    request = urllib.request.Request(f"{base}/api/games/{token}/rounds/1/hands/{player}/photo", data=body,
                                     method="POST", headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_a_photo_sent_through_one_process_is_read_by_a_worker_and_seen_through_the_other(club):
    one, other = club
    status, _headers, game = _call(one, "POST", "/api/games", {"players": ["Ann", "Bob"], "rules": "2-4"})
    assert status == 201
    token = game["token"]
    assert _call(one, "POST", f"/api/games/{token}/rounds", {}, {"Idempotency-Key": "k"})[0] == 201
    _status, headers, _ = _call(other, "GET", f"/api/games/{token}/rounds/1")
    tag = headers["ETag"]
    status, answer = _post_photo(one, token, "Ann")
    assert status == 202 and answer["reading"]["job"]["status"] == "queued"
    deadline = time.time() + 60
    while time.time() < deadline:  # as a live page polls
        status, headers, body = _call(other, "GET", f"/api/games/{token}/rounds/1", headers={"If-None-Match": tag})
        if status == 200 and body["uploads"][0]["status"] == "read":
            break
        time.sleep(0.3)
    else:
        raise AssertionError("the photo was never read")
    assert headers["ETag"] != tag and body["hands"][0]["front"] == ["AS", "KS", "QS"]
    # and a change through the second process shows through the first
    assert _call(other, "POST", f"/api/games/{token}/rounds/1/undo", {})[0] == 200
    assert _call(one, "GET", f"/api/games/{token}/rounds/1")[2]["hands"][0]["state"] == "empty"


@pytest.mark.parametrize("club", [LIMIT], indirect=True)
def test_the_rate_limits_count_across_processes(club):
    one, other = club
    answers = [_call(club[i % 2], "GET", "/api/presets")[0] for i in range(2 * LIMIT)]
    # Counted apart, each process would let LIMIT through; together they let LIMIT through in all (less the
    # fixture's two /healthz checks, which count too).
    assert LIMIT - 2 <= answers.count(200) <= LIMIT and set(answers) == {200, 429}
    assert answers[-2:] == [429, 429]
    assert _call(one, "GET", "/api/presets")[0] == 429
    assert _call(other, "GET", "/api/presets")[0] == 429
