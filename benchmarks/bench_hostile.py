"""The hostile corpus against a running server: does anything get a 5xx, grow memory, or stall /healthz?

Starts `python -m webapp` (waitress) on 127.0.0.1 with a throwaway instance folder (SQLite; --database-url for
another database), then sends, one request at a time:
- malformed images (tests/adversaries/images.py, `malformed_images(seed, count)`), alternately to /api/read and
  as a player's photo in a game (the stored path);
- fuzzed round documents (tests/adversaries/documents.py, `fuzzed_round_documents(seed, count)`) to /api/settle;
- issue 64's repros: huge stakes and per-point amounts, the 56-byte PNG chunk bomb, extreme aspect ratios, deep
  nesting in every JSON body, a NUL body, bad hand fields, an upload past the size limit, cookie-only writes on a
  PIN game, a wrong-PIN flood, an open-redirect try.
Meanwhile a thread polls /healthz every 50 ms. Prints status counts, the 5xx count, the largest memory growth of
one request (the server's peak RSS during it, reset before each request through /proc/<pid>/clear_refs, minus its
RSS before), the slowest corpus request and the slowest /healthz answer.

    .venv/bin/python benchmarks/bench_hostile.py [--images 1105] [--documents 2100] [--seed 64]

Linux only (reads /proc). Not a test: it prints figures.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from measuring import free_port  # noqa: E402 (benchmarks/ is on the path)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
HEALTH_EVERY_S = 0.05
Request = tuple[str, str, str, bytes, dict[str, str]]  # (label, method, path, body, headers)


def send(port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
         timeout: float = 120) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    except (ConnectionError, http.client.HTTPException) as err:  # the server closed on us (e.g. after a 413)
        return 0, {"error": type(err).__name__}, b""
    finally:
        conn.close()


def multipart(photo: bytes, name: str = "photo.jpg") -> tuple[bytes, dict[str, str]]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + photo + f"\r\n--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def as_json(value: Any) -> tuple[bytes, dict[str, str]]:
    return json.dumps(value).encode(), {"Content-Type": "application/json"}


class Memory:
    """The server process' resident memory, from /proc; peak since the last reset."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def _status(self, field: str) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
        raise KeyError(field)

    def rss(self) -> int:
        return self._status("VmRSS")

    def reset_peak(self) -> None:
        Path(f"/proc/{self.pid}/clear_refs").write_text("5")  # resets VmHWM to the current RSS

    def peak(self) -> int:
        return self._status("VmHWM")


class HealthPoller(threading.Thread):
    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port, self.latencies, self.started, self.failures = port, [], [], 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.perf_counter()
            status, _, _ = send(self.port, "GET", "/healthz", timeout=600)
            self.latencies.append(time.perf_counter() - start)
            self.started.append(start)
            self.failures += status != 200
            self.stop.wait(HEALTH_EVERY_S)


def image_requests(seed: int, count: int, token: str) -> Iterator[Request]:
    from adversaries.images import malformed_images

    for i, (kind, data) in enumerate(malformed_images(seed, count)):
        body, headers = multipart(data)
        player = ("Ann", "Bob", "Cy", "Dee")[i % 4]
        path = "/api/read" if i % 2 == 0 else f"/api/games/{token}/rounds/1/hands/{player}/photo"
        yield f"image:{kind}", "POST", path, body, headers


def document_requests(seed: int, count: int) -> Iterator[Request]:
    from adversaries.documents import as_text, fuzzed_round_documents

    for document in fuzzed_round_documents(seed, count):
        text = as_text(document).encode("utf-8", "surrogatepass")
        yield "document", "POST", "/api/settle", text, {"Content-Type": "application/json"}


def _jpeg(width: int, height: int) -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((height, width, 3), 128, np.uint8))
    assert ok
    return data.tobytes()


def repro_requests(token: str, pin_token: str, limit: int) -> Iterator[Request]:
    deep = b"[" * 5000 + b"]" * 5000
    json_type = {"Content-Type": "application/json"}
    png_bomb = (b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00"
                + b":~\x9bU" + b"\x7f\xff\xff\xfftEXtabc" + b"\x00\x00\x00\x00IEND\xaeB`\x82")
    yield ("repro:huge stake", "POST", "/api/games",
           *as_json({"players": ["A", "B"], "rules": "2-4", "stake": "1e3000000"}))
    yield ("repro:huge per_point", "POST", "/api/settle",
           *as_json({"rules": "2-4", "players": {"A": "", "B": ""}, "stakes": {"per_point": "1e10000000"}}))
    for value in ("1e5000", "1e-5000"):
        yield ("repro:per_point digits", "POST", "/api/settle",
               *as_json({"rules": "2-4", "players": {"A": "", "B": ""}, "stakes": {"per_point": value}}))
    for game in ([], {}):
        yield "repro:settle game type", "POST", "/api/settle", *as_json({"game": game, "rules": "2-4", "players": {}})
    yield "repro:png chunk bomb", "POST", "/api/read", *multipart(png_bomb, "bomb.png")
    yield "repro:png chunk bomb", "POST", f"/api/games/{token}/rounds/1/hands/Ann/photo", *multipart(png_bomb, "b.png")
    for width, height in ((40000, 1), (1, 1000), (2, 8000), (16, 16000), (30, 60000)):
        yield "repro:extreme aspect", "POST", "/api/read", *multipart(_jpeg(width, height))
    for path in ("/api/settle", "/api/games", f"/api/games/{token}/rounds"):
        yield "repro:deep nesting", "POST", path, deep, json_type
    yield "repro:deep nesting", "PUT", f"/api/games/{token}/rounds/1/hands/Ann", deep, json_type
    yield "repro:NUL body", "POST", f"/api/games/{token}/rounds", b"\x00", {}
    yield "repro:natural -4116", "PUT", f"/api/games/{token}/rounds/1/hands/Ann", *as_json({"natural": -4116})
    yield "repro:405", "DELETE", "/api/games", b"", {}
    # Announced past the limit: refused from the headers, before any of it is sent or buffered.
    yield "repro:too large", "POST", "/api/read", b"", {"Content-Length": str(limit + 1024),
                                                         "Content-Type": "multipart/form-data; boundary=x"}
    yield "repro:cookie-only write", "POST", f"/api/games/{pin_token}/rounds", b"{}", {"Content-Type": "text/plain"}
    for i in range(12):
        yield "repro:wrong PIN", "GET", f"/api/games/{pin_token}", b"", {"X-Game-PIN": f"{i:04d}"}


def start_server(port: int, instance: str, database_url: str | None) -> subprocess.Popen:
    env = dict(os.environ, WEBAPP_INSTANCE_PATH=instance, WEBAPP_WEBCAM_DEVICE="")
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    log = open(Path(instance) / "server.log", "wb")  # noqa: SIM115 - open for the server's lifetime
    server = subprocess.Popen([sys.executable, "-m", "webapp", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited: {(Path(instance) / 'server.log').read_text()[-2000:]}")
        if send(port, "GET", "/healthz", timeout=5)[0] == 200:
            return server
        time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not answer /healthz within 120 s")


def wait_for_reader(instance: str, timeout: float = 120) -> None:
    """The reader warms up in the background at start; wait for it so its load is not counted as growth."""
    log = Path(instance) / "server.log"
    deadline = time.time() + timeout
    while time.time() < deadline and "card reader" not in log.read_text(errors="replace"):
        time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=1105)
    parser.add_argument("--documents", type=int, default=2100)
    parser.add_argument("--seed", type=int, default=64)
    parser.add_argument("--database-url", default=None, help="default: SQLite in the throwaway instance folder")
    args = parser.parse_args()

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as instance:
        server = start_server(port, instance, args.database_url)
        try:
            wait_for_reader(instance)
            limit = 20 * 1024 * 1024
            status, _, body = send(port, "POST", "/api/games", *as_json(
                {"players": ["Ann", "Bob", "Cy", "Dee"], "rules": "2-4"}))
            token = json.loads(body)["token"]
            _, _, body = send(port, "POST", "/api/games", *as_json({"players": ["Ann", "Bob"], "rules": "2-4",
                                                                    "pin": "246810"}))
            pin_token = json.loads(body)["token"]
            send(port, "POST", f"/api/games/{token}/rounds")
            run(port, server.pid, args, token, pin_token, limit)
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()


def run(port: int, pid: int, args: argparse.Namespace, token: str, pin_token: str, limit: int) -> None:
    memory = Memory(pid)
    poller = HealthPoller(port)
    statuses: Counter[int] = Counter()
    by_label: dict[str, Counter[int]] = {}
    server_errors: list[str] = []
    growth: list[tuple[int, str]] = []
    latencies: list[tuple[float, str]] = []
    spans: list[tuple[float, float, str]] = []  # (start, end, label): what was in flight when /healthz was slow
    rss_start = memory.rss()
    sources = [("images", image_requests(args.seed, args.images, token)),
               ("documents", document_requests(args.seed, args.documents)),
               ("repros", repro_requests(token, pin_token, limit))]
    poller.start()
    started = time.perf_counter()
    for _name, requests in sources:
        for label, method, path, body, headers in requests:
            before = memory.rss()
            memory.reset_peak()
            start = time.perf_counter()
            status, _, reply = send(port, method, path, body, headers)
            latencies.append((time.perf_counter() - start, label))
            spans.append((start, time.perf_counter(), label))
            growth.append((memory.peak() - before, label))
            statuses[status] += 1
            by_label.setdefault(label.split(":")[0] if label.startswith("image") else label, Counter())[status] += 1
            if status >= 500 or status == 0:
                server_errors.append(f"{status} {label} {method} {path}: {reply[:200]!r}")
    elapsed = time.perf_counter() - started
    poller.stop.set()
    poller.join(timeout=600)
    rss_end = memory.rss()

    total = sum(statuses.values())
    print(f"hostile corpus: {args.images} images, {args.documents} round documents, "
          f"{sum(by_label.get(k, Counter()).total() for k in by_label if k.startswith('repro'))} repro requests "
          f"(seed {args.seed}); {total} requests in {elapsed:.1f} s, one at a time")
    print("status counts:", dict(sorted(statuses.items())))
    for label, counts in sorted(by_label.items()):
        print(f"  {label:28s} {dict(sorted(counts.items()))}")
    print(f"5xx (or connection dropped): {len(server_errors)}")
    for line in server_errors[:20]:
        print("   ", line)
    worst_growth, worst_label = max(growth)
    print(f"max RSS growth in one request: {worst_growth / 2**20:.1f} MB ({worst_label}); "
          f"RSS {rss_start / 2**20:.0f} MB at start, {rss_end / 2**20:.0f} MB at the end")
    for kind in ("image", "document", "repro"):
        grown, label = max((g, lbl) for g, lbl in growth if lbl.startswith(kind))
        print(f"  largest for {kind + 's':10s} {grown / 2**20:6.1f} MB ({label})")
    slowest, slowest_label = max(latencies)
    print(f"corpus request latency: median {statistics.median(t for t, _ in latencies) * 1000:.0f} ms, "
          f"max {slowest * 1000:.0f} ms ({slowest_label})")
    health = poller.latencies
    worst = max(range(len(health)), key=health.__getitem__)
    poll_start, poll_end = poller.started[worst], poller.started[worst] + health[worst]
    during = sorted({label for start, end, label in spans if start < poll_end and end > poll_start})
    print(f"/healthz while the corpus ran: {len(health)} polls, {poller.failures} not 200, "
          f"median {statistics.median(health) * 1000:.0f} ms, max {max(health) * 1000:.0f} ms "
          f"(meanwhile: {', '.join(during) or 'nothing'})")


if __name__ == "__main__":
    main()
