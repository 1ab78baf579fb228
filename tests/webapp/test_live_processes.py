"""Two real app processes (waitress, as `python -m webapp` serves) on one PostgreSQL: a change made through one is
seen through the other (new ETag, new state); undo through either restores the state exactly; two corrections sent
at once from the same version through the two processes lose nothing (one lands, the other is told: 412).

No state of the live round lives in one process: the version is a column, the actor and If-Match come with the
request. Needs TEST_DATABASE_URL (scripts/with_postgres.sh sets it)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from webapp_testkit import ANN, BOB

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL"),
    reason="TEST_DATABASE_URL is unset: the two-process test needs one PostgreSQL both processes share "
           "(run it under scripts/with_postgres.sh)")

# The server `python -m webapp` runs (webapp.__main__.make_server: waitress), without the reader's warm-up.
SERVE = ("import sys; from webapp import create_app; from webapp.__main__ import make_server; "
         "make_server(create_app(), '127.0.0.1', int(sys.argv[1]), 4).run()")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(base: str, method: str, path: str, body: dict | None = None,
          headers: dict | None = None) -> tuple[int, Any, dict]:
    """(status, headers (case-insensitive), JSON body or {}) of one request; HTTP errors are answers too."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            raw = reply.read()
            return reply.status, reply.headers, json.loads(raw) if raw else {}
    except urllib.error.HTTPError as err:
        raw = err.read()
        return err.code, err.headers, json.loads(raw) if raw else {}


def _start(port: int, database_url: str, instance: Path, log: Path) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url, WEBAPP_INSTANCE_PATH=str(instance))
    return subprocess.Popen([sys.executable, "-c", SERVE, str(port)], cwd=ROOT, env=env,
                            stdout=log.open("wb"), stderr=subprocess.STDOUT)


def _wait_healthy(base: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        assert server.poll() is None, log.read_text()
        try:
            if _call(base, "GET", "/healthz")[0] in (200, 503):  # 503: reader models absent is fine here
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not start: {log.read_text()}")


@pytest.fixture
def two_servers(tmp_path, app_config):
    """Two app processes on one freshly emptied PostgreSQL database: their base URLs."""
    servers, bases = [], []
    try:
        for name in ("a", "b"):  # one after the other: the first runs the migrations
            port = _free_port()
            log = tmp_path / f"server-{name}.log"
            server = _start(port, app_config["DATABASE_URL"], tmp_path / f"instance-{name}", log)
            servers.append(server)
            bases.append(f"http://127.0.0.1:{port}")
            _wait_healthy(bases[-1], server, log)
        yield bases
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=10)


def _hand(data: dict, player: str) -> dict:
    return next(h for h in data["hands"] if h["player"] == player)


def test_two_processes_see_each_others_changes_undo_and_concurrent_corrections(two_servers):
    a, b = two_servers
    status, _, game = _call(a, "POST", "/api/games", {"players": ["Ann", "Bob"], "rules": "2-4"})
    assert status == 201
    rounds = f"/api/games/{game['token']}/rounds"
    status, _, created = _call(a, "POST", rounds, {"hands": {"Ann": ANN, "Bob": BOB}})
    assert status == 201
    path = f"{rounds}/{created['number']}"

    status, headers, seen_by_b = _call(b, "GET", path)
    assert status == 200 and headers["ETag"] == created["etag"]
    assert _call(b, "GET", path, headers={"If-None-Match": headers["ETag"]})[0] == 304

    # a change through A is seen through B: a new ETag, the new state, who made it
    status, _, moved = _call(a, "POST", f"{path}/hands/Ann/move", headers={"X-Actor": "Ann"},
                             body={"from": {"row": "middle", "index": 3}, "to": {"row": "back", "index": 0}})
    assert status == 200
    status, headers, after = _call(b, "GET", path, headers={"If-None-Match": seen_by_b["etag"]})
    assert status == 200 and headers["ETag"] == moved["etag"] != seen_by_b["etag"]
    assert _hand(after, "Ann") == _hand(moved, "Ann") and _hand(after, "Ann")["back"][0] == "JH"
    assert after["changes"][0]["text"] == "Ann moved J♥ from Ann's middle to back".replace("Ann's", "their")

    # undo through B restores, as A sees it, exactly the state before the move
    status, _, undone = _call(b, "POST", f"{path}/undo", headers={"If-Match": after["etag"], "X-Actor": "Bob"})
    assert status == 200
    status, _, seen_by_a = _call(a, "GET", path)
    assert [_hand(seen_by_a, p) for p in ("Ann", "Bob")] == [_hand(seen_by_b, p) for p in ("Ann", "Bob")]
    assert seen_by_a["changes"][0]["by"] == "Bob"

    # two corrections at once from the same version, one through each process: one lands, the other gets 412
    fixes = {a: {"row": "front", "index": 0, "code": "AC"}, b: {"row": "back", "index": 4, "code": "9C"}}
    barrier = threading.Barrier(2)
    answers: dict[str, tuple[int, Any, dict]] = {}

    def correct(base: str) -> None:
        barrier.wait()
        answers[base] = _call(base, "POST", f"{path}/hands/Ann/correct", fixes[base],
                              headers={"If-Match": seen_by_a["etag"]})

    threads = [threading.Thread(target=correct, args=(base,)) for base in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer[0] for answer in answers.values()) == [200, 412]
    loser = next(base for base, answer in answers.items() if answer[0] == 412)
    told = answers[loser][2]
    assert len(told["changes"]) == 1 and told["changes"][0]["text"].startswith("Someone changed")
    status, _, _ = _call(loser, "POST", f"{path}/hands/Ann/correct", fixes[loser],
                         headers={"If-Match": told["round"]["etag"]})
    assert status == 200
    final = _call(a, "GET", path)[2]
    assert _hand(final, "Ann")["front"][0] == "AC" and _hand(final, "Ann")["back"][4] == "9C"
    assert final == _call(b, "GET", path)[2]
