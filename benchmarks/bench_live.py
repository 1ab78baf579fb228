"""The live round's cost: change-to-visible latency on a second client polling as the page does, and the polling
load of many open pages (issue 63).

Starts `python -m webapp` (waitress, its default threads) on a free port with a throwaway instance (SQLite, or the
PostgreSQL of TEST_DATABASE_URL with --postgres), waits for the card reader to be warm, then:

1. quiet: one client changes a round (swaps two cards through the API) at random moments, a second client polls
   the round every second with If-None-Match as the page does; latency = from the change being sent (the tap)
   to the answer of the first poll that shows it (p50/p95 over --changes changes);
2. load: --tables tables x 4 open pages (default 50 x 4 = 200), each polling its round every second with
   If-None-Match on its own keep-alive connection, while each table changes about every --change-every seconds
   and one phone uploads a sample photo (sample_images/) to a hand again and again; prints requests/s served,
   the server's CPU share, poll latency, change-to-visible latency under load, and the upload's p95 (compared
   with the same uploads on an idle server).

    .venv/bin/python benchmarks/bench_live.py [--tables 50] [--seconds 30] [--changes 50] [--postgres]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from measuring import Client, cpu_seconds, free_port, percentile  # noqa: E402 (benchmarks/ is on the path)

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HANDS = {"Ann": "2S 7H 9D / 3C 3D 8S JH KC / 4H 5H 6C 7C 8D", "Bob": "QS QD 5S / 2H 2D 9C 9H KH / TS TD TH AS AD",
         "Cy": "2C 3H 5C / 6S 6H 8C 9S KD / JS JD JC 4D 4S", "Dee": "3S 5D 8H / 7D 7S 4C 6D TC / QC QH KS AC AH"}
SWAP = json.dumps({"a": {"row": "front", "index": 0}, "b": {"row": "front", "index": 1}}).encode()
JSON = {"Content-Type": "application/json"}


def version_of(etag: str) -> int:
    return int(etag.strip('"').split("-")[1])


def make_table(client: Client) -> str:
    """A four-player game with one round whose four hands are typed: the round's path."""
    status, _, body = client.call("POST", "/api/games", json.dumps({"players": PLAYERS, "rules": "2-4"}).encode(),
                                  JSON)
    assert status == 201, body
    token = json.loads(body)["token"]
    status, _, body = client.call("POST", f"/api/games/{token}/rounds", json.dumps({"hands": HANDS}).encode(), JSON)
    assert status == 201, body
    return f"/api/games/{token}/rounds/1"


def multipart(photo: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"hand.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode()
    return head + photo + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Poller(threading.Thread):
    """An open page: GET the round every second with If-None-Match; notes when each new version is first seen."""

    def __init__(self, port: int, path: str, stop: threading.Event, changed_at: dict, seen: list, polls: list,
                 lock: threading.Lock, interval: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.client, self.path, self.stop, self.interval = Client(port, retry=True), path, stop, interval
        self.changed_at, self.seen, self.polls, self.lock = changed_at, seen, polls, lock
        self.etag = ""

    def run(self) -> None:
        next_poll = time.perf_counter() + random.random() * self.interval  # pages opened at random moments
        while not self.stop.is_set():
            time.sleep(max(0.0, next_poll - time.perf_counter()))
            next_poll += self.interval
            start = time.perf_counter()
            status, headers, _ = self.client.call("GET", self.path, headers={"If-None-Match": self.etag})
            now = time.perf_counter()
            with self.lock:
                self.polls.append((now - start, status))
                if status == 200:
                    old = version_of(self.etag) if self.etag else None
                    new = version_of(headers["etag"])
                    if old is not None:  # matched with the changes' times at the end (no race with them)
                        self.seen.extend((self.path, version, now) for version in range(old + 1, new + 1))
                    self.etag = headers["etag"]


def change(client: Client, path: str, changed_at: dict, lock: threading.Lock) -> float:
    """Swap Ann's first two cards; notes when the change was sent (the tap). Returns the request's latency."""
    start = time.perf_counter()
    status, headers, body = client.call("POST", f"{path}/hands/Ann/swap-cards", SWAP, {**JSON, "X-Actor": "Bob"})
    assert status == 200, body
    with lock:
        changed_at[(path, version_of(headers["etag"]))] = start
    return time.perf_counter() - start


def visible_after(seen: list[tuple[str, int, float]], changed_at: dict) -> list[float]:
    """For each (page, version) a page first showed: seconds from the change's tap to the page showing it."""
    return [now - changed_at[(path, version)] for path, version, now in seen if (path, version) in changed_at]


def uploads(client: Client, path: str, photo: bytes, count: int, stop: threading.Event | None = None) -> list[float]:
    """Upload the photo as Dee's hand `count` times one after the other: each upload's latency."""
    body, content_type = multipart(photo)
    latencies = []
    for _ in range(count):
        if stop is not None and stop.is_set():
            break
        start = time.perf_counter()
        status, _, reply = client.call("POST", f"{path}/hands/Dee/photo", body, {"Content-Type": content_type})
        assert status == 201, reply[:200]
        latencies.append(time.perf_counter() - start)
    return latencies


def quiet_latency(port: int, changes: int) -> list[float]:
    """Phase 1: one round, one changer, one polling page."""
    lock, stop = threading.Lock(), threading.Event()
    changed_at: dict = {}
    seen: list[tuple[str, int, float]] = []
    path = make_table(Client(port, retry=True))
    poller = Poller(port, path, stop, changed_at, seen, [], lock)
    poller.start()
    time.sleep(1.5)  # the page has loaded and holds the round's tag
    changer = Client(port, retry=True)
    for _ in range(changes):
        time.sleep(random.uniform(0.2, 1.4))  # changes land at any moment of the page's polling second
        change(changer, path, changed_at, lock)
    time.sleep(1.5)
    stop.set()
    poller.join()
    return visible_after(seen, changed_at)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables with 4 open pages each (default 50)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the load phase (default 30)")
    parser.add_argument("--changes", type=int, default=50, help="changes in the quiet phase (default 50)")
    parser.add_argument("--change-every", type=float, default=10.0,
                        help="seconds between two changes at one table under load (default 10)")
    parser.add_argument("--threads", type=int, default=None, help="the server's waitress threads (its default)")
    parser.add_argument("--postgres", action="store_true", help="use TEST_DATABASE_URL (scripts/with_postgres.sh)")
    parser.add_argument("--photo", type=Path, default=ROOT / "sample_images" / "layout_p1.jpg")
    args = parser.parse_args()
    photo = args.photo.read_bytes()

    port = free_port()
    instance = tempfile.mkdtemp(prefix="bench-live-")
    env = dict(os.environ, WEBAPP_INSTANCE_PATH=instance, WEBAPP_WEBCAM_DEVICE="")
    env.pop("DATABASE_URL", None)
    if args.postgres:
        if not os.environ.get("TEST_DATABASE_URL"):
            raise SystemExit("--postgres needs TEST_DATABASE_URL (run under scripts/with_postgres.sh)")
        env["DATABASE_URL"] = os.environ["TEST_DATABASE_URL"]
    command = [sys.executable, "-m", "webapp", "--port", str(port)]
    if args.threads:
        command += ["--threads", str(args.threads)]
    log = Path(instance) / "server.log"
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while "card reader" not in log.read_text(errors="replace"):
            if server.poll() is not None or time.time() > deadline:
                raise SystemExit(f"the server did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.3)
        print(f"server: python -m webapp ({'PostgreSQL' if args.postgres else 'SQLite'}), cpu cores: "
              f"{os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f} (other jobs on the machine)")

        seen = quiet_latency(port, args.changes)
        print(f"change-to-visible, quiet (one page polling every 1 s with If-None-Match, {len(seen)} changes): "
              f"p50 {statistics.median(seen):.3f} s   p95 {percentile(seen, 0.95):.3f} s   max {max(seen):.3f} s")

        setup = Client(port, retry=True)
        paths = [make_table(setup) for _ in range(args.tables)]
        upload_path = make_table(setup)
        uploads(setup, upload_path, photo, 1)  # the first read after start
        idle_uploads = uploads(setup, upload_path, photo, 8)

        lock, stop = threading.Lock(), threading.Event()
        changed_at: dict = {}
        seen_loaded: list[tuple[str, int, float]] = []
        polls: list[tuple[float, int]] = []
        pollers = [Poller(port, path, stop, changed_at, seen_loaded, polls, lock) for path in paths for _ in PLAYERS]
        for poller in pollers:
            poller.start()
        time.sleep(2.0)  # every page has loaded once
        change_latency: list[float] = []

        def changer() -> None:
            client = Client(port, retry=True)
            while not stop.is_set():
                time.sleep(random.expovariate(len(paths) / args.change_every))
                change_latency.append(change(client, random.choice(paths), changed_at, lock))

        threading.Thread(target=changer, daemon=True).start()
        windows = {}
        for window in ("polling", "polling + uploads"):
            upload_stop = threading.Event()
            window_uploads: list[float] = []
            if window != "polling":
                threading.Thread(target=lambda: window_uploads.extend(
                    uploads(Client(port, retry=True), upload_path, photo, 10 ** 6, upload_stop)), daemon=True).start()
            with lock:
                polls.clear()
                seen_loaded.clear()
                changes_before = len(change_latency)
            server_cpu, client_cpu, wall = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
            time.sleep(args.seconds)
            with lock:
                served, seen_now = list(polls), list(seen_loaded)
            windows[window] = {"served": served, "seen": seen_now, "uploads": window_uploads,
                               "server_cpu": cpu_seconds(server.pid) - server_cpu,
                               "client_cpu": time.process_time() - client_cpu, "wall": time.perf_counter() - wall,
                               "changes": change_latency[changes_before:]}
            upload_stop.set()
            time.sleep(2.0)  # the upload in flight ends before the next window
        stop.set()
        for thread in pollers:
            thread.join(timeout=30)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print(f"load: {len(pollers)} open pages ({args.tables} tables x 4) polling every 1 s with If-None-Match, a change "
          f"per table every ~{args.change_every:g} s; {args.seconds:g} s without, then with, one phone uploading "
          f"{args.photo.name} ({len(photo) / 1e6:.2f} MB) again and again")
    for name, w in windows.items():
        served, wall = w["served"], w["wall"]
        latencies = [latency for latency, _ in served]
        not_modified = sum(1 for _, status in served if status == 304)
        errors = sum(1 for _, status in served if status not in (200, 304))
        loaded_latency = visible_after(w["seen"], changed_at)
        print(f"  {name}: {len(served) / wall:.1f} requests/s served ({not_modified / max(1, len(served)):.1%} 304, "
              f"{errors} errors), poll p50 {statistics.median(latencies) * 1000:.1f} ms  "
              f"p95 {percentile(latencies, 0.95) * 1000:.1f} ms; server CPU {w['server_cpu'] / wall:.1%} of one core "
              f"({w['server_cpu'] / wall / os.cpu_count():.1%} of the machine; the benchmark's clients "
              f"{w['client_cpu'] / wall:.1%} of one core)")
        if loaded_latency and w["changes"]:
            print(f"    {len(w['changes'])} changes (request p95 {percentile(w['changes'], 0.95) * 1000:.0f} ms), "
                  f"change-to-visible over {len(loaded_latency)} page updates: p50 "
                  f"{statistics.median(loaded_latency):.3f} s  p95 {percentile(loaded_latency, 0.95):.3f} s")
        if w["uploads"]:
            print(f"    photo upload p95 {percentile(w['uploads'], 0.95):.3f} s (p50 "
                  f"{statistics.median(w['uploads']):.3f} s, {len(w['uploads'])} uploads); idle server: p95 "
                  f"{percentile(idle_uploads, 0.95):.3f} s ({len(idle_uploads)})")


if __name__ == "__main__":
    main()
