"""A club under load (issue 70): 50 tables x 4 phones against `scripts/club.sh`'s stack on this box.

Starts the club (PostgreSQL, Redis, --app gunicorn processes, --readers reading workers) in a throwaway CLUB_DIR on
free ports, bound to 127.0.0.1, and makes --tables four-player games. Each phone uploads its hand's photo (a 12 MP
JPEG made from sample_images/, each upload made unique with a comment segment) at Poisson moments, one per
--round-s on average (200 phones / 180 s = 1.1 photos a second), and keeps its round page open: it polls the round's
JSON every second with If-None-Match as the live page does, and on a new version fetches the page's HTML as the page
does. Halfway, one reading worker and one gunicorn worker are killed (SIGKILL) unless --no-kill; the club starts
them again (a reader's loop, gunicorn's master). After --seconds, uploads stop and the run waits (--drain-s) for every
photo the club accepted (202) to be read.

Prints: photo -> review latency p50 / p95 / max, measured two ways (on the server: the upload stored -> the hand
filled, from the round's events; on the phone: the POST sent -> its poll first shows the hand read, which adds up
to the 1 s poll); errors (any answer but 2xx / 304, any dropped connection) before and after the kill; the queue
depth every --sample-s; the CPU of each part of the club; the load average; and whether every photo ended read.

    .venv/bin/python benchmarks/bench_club.py [--seconds 300] [--tables 50] [--app 2] [--readers 2]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path

import cv2
import numpy as np

from measuring import Client, cpu_seconds, free_port, percentile  # noqa: E402 (benchmarks/ is on the path)

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
JSON = {"Content-Type": "application/json"}


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def twelve_megapixel_photos(count: int) -> list[bytes]:
    """4000x3000 JPEGs of the sample layouts with sensor noise (a phone's 12 MP photo is 3-6 MB)."""
    sources = sorted((ROOT / "sample_images").glob("layout_p*.jpg"))
    photos = []
    for i in range(count):
        image = cv2.resize(cv2.imread(str(sources[i % len(sources)])), (4000, 3000), interpolation=cv2.INTER_CUBIC)
        noise = np.random.default_rng(i).normal(0, 6, image.shape)
        image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        photos.append(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes())
    return photos


def unique(photo: bytes) -> bytes:
    """The same picture with a JPEG comment segment after SOI: another sha256, so no upload is deduplicated."""
    text = uuid.uuid4().hex.encode()
    return photo[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + photo[2:]


def multipart(photo: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"hand.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode()
    return head + photo + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.errors: list[tuple[float, str]] = []
        self.sent: dict[int, float] = {}  # upload id -> POST sent (perf_counter)
        self.seen: dict[int, float] = {}  # upload id -> the phone's poll first showed it read
        self.refused: list[str] = []
        self.requests = 0
        self.dropped = 0  # connections the killed app process took with it (the phone sends again)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append((time.perf_counter(), what))


class Phone(threading.Thread):
    """A phone at a table: its round page open (poll every second, HTML on a new version) and its player's photo
    sent at Poisson moments."""

    def __init__(self, port: int, token: str, player: str, photos: list[bytes], rate: float, stop_uploads: float,
                 stop: threading.Event, stats: Stats) -> None:
        super().__init__(daemon=True)
        self.client, self.token, self.player, self.photos = Client(port), token, player, photos
        self.rate, self.stop_uploads, self.stop, self.stats = rate, stop_uploads, stop, stats
        self.api = f"/api/games/{token}/rounds/1"
        self.etag = ""
        self.waiting: set[int] = set()

    def run(self) -> None:
        now = time.perf_counter()
        next_poll = now + random.random()
        next_upload = now + random.expovariate(self.rate)
        while not self.stop.is_set():
            wake = min(next_poll, next_upload)
            time.sleep(max(0.0, wake - time.perf_counter()))
            if time.perf_counter() >= next_upload:
                if next_upload < self.stop_uploads:
                    self.upload()
                next_upload += random.expovariate(self.rate)
            if time.perf_counter() >= next_poll:
                self.poll()
                next_poll += 1.0
                if next_poll < time.perf_counter():  # fell behind (a slow answer): poll again a second later
                    next_poll = time.perf_counter() + 1.0

    def upload(self) -> None:
        body, content_type = multipart(unique(random.choice(self.photos)))
        sent = time.perf_counter()
        for _attempt in (1, 2):  # a connection dropped by a killed app process: the phone sends it again
            status, _, raw = self.client.call("POST", f"{self.api}/hands/{self.player}/photo", body,
                                              {"Content-Type": content_type})
            with self.stats.lock:
                self.stats.requests += 1
                self.stats.dropped += status == 0
            if status != 0:
                break
        if status != 202:
            self.stats.error(f"upload answered {status}: {raw[:120]!r}")
            return
        upload = json.loads(raw)["reading"]["job"]["upload"]
        with self.stats.lock:
            self.stats.sent[upload] = sent
        self.waiting.add(upload)

    def poll(self) -> None:
        status, headers, raw = self.client.call("GET", self.api, headers={"If-None-Match": self.etag})
        with self.stats.lock:
            self.stats.requests += 1
        if status == 304:
            return
        if status == 0:
            with self.stats.lock:
                self.stats.dropped += 1
            return  # polled again in a second, on a new connection
        if status != 200:
            self.stats.error(f"poll answered {status}")
            return
        now = time.perf_counter()
        self.etag = headers.get("etag", "")
        body = json.loads(raw)
        done = {u["id"] for u in body["uploads"] if u["status"] in ("read", "failed")}
        with self.stats.lock:
            for upload in self.waiting & done:
                self.stats.seen[upload] = now
        self.waiting -= done
        status, _, _ = self.client.call("GET", f"/g/{self.token}/r/1")  # the page swaps in its new regions
        with self.stats.lock:
            self.stats.requests += 1
            self.stats.dropped += status == 0
        if status not in (0, 200):
            self.stats.error(f"page answered {status}")


def start_club(club_dir: Path, port: int, app: int, readers: int) -> dict[str, str]:
    env = dict(os.environ, CLUB_DIR=str(club_dir), CLUB_PG_PORT=str(free_port()), CLUB_REDIS_PORT=str(free_port()))
    club_dir.chmod(0o755)  # the PostgreSQL cluster inside runs as the postgres user when we are root
    started = subprocess.run(["bash", "scripts/club.sh", "--host", "127.0.0.1", "--port", str(port), "--app",
                              str(app), "--readers", str(readers)], cwd=ROOT, env=env, capture_output=True, text=True)
    if started.returncode != 0:
        raise SystemExit(f"scripts/club.sh failed:\n{started.stdout[-3000:]}\n{started.stderr[-3000:]}")
    return env


def club_pids(club_dir: Path) -> dict[str, list[int]]:
    run = club_dir / "run"
    master = int((run / "gunicorn.pid").read_text())
    readers = [int(p.read_text()) for p in sorted(run.glob("reader-*.pid")) if not p.name.endswith(".loop.pid")]
    postgres = int((club_dir / "postgres" / "postmaster.pid").read_text().split()[0])
    return {"gunicorn": [master, *children(master)], "readers": readers,
            "postgres": [postgres, *children(postgres)], "redis": [int((run / "redis.pid").read_text())]}


class CpuMeter:
    """CPU seconds of each part of the club, counting processes killed or started during the run: each process's
    last reading is kept, less what it had used when the run began."""

    def __init__(self, pids: dict[str, list[int]]) -> None:
        self.start = {pid: cpu_seconds(pid) for found in pids.values() for pid in found}
        self.last: dict[int, tuple[str, float]] = {}
        self.sample(pids)

    def sample(self, pids: dict[str, list[int]]) -> None:
        for part, found in pids.items():
            for pid in found:
                used = cpu_seconds(pid)
                if used:
                    self.last[pid] = (part, used)

    def used(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for pid, (part, used) in self.last.items():
            totals[part] = totals.get(part, 0.0) + used - self.start.get(pid, 0.0)
        return totals


def busy_pids(redis) -> set[int]:  # type: ignore[no-untyped-def]
    from rq import Worker

    return {worker.pid for worker in Worker.all(connection=redis) if worker.get_state() == "busy" and worker.pid}


def busy_reader(redis, wait_s: float = 15.0) -> int | None:  # type: ignore[no-untyped-def]
    """The pid of a reader in the middle of a read (waiting up to `wait_s` for one), so the kill loses a photo in
    hand if anything can."""
    deadline = time.perf_counter() + wait_s
    while time.perf_counter() < deadline:
        busy = busy_pids(redis)
        if busy:
            return min(busy)
        time.sleep(0.05)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="uploading for this long (default 300)")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--round-s", type=float, default=180.0, help="a phone's mean time between photos")
    parser.add_argument("--app", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument("--readers", type=int, default=2, help="reading workers (default 2)")
    parser.add_argument("--no-kill", action="store_true", help="kill no reader and no app process halfway")
    parser.add_argument("--drain-s", type=float, default=180.0, help="wait at most this long for the last photos")
    parser.add_argument("--sample-s", type=float, default=15.0, help="queue depth sampled this often")
    args = parser.parse_args()

    from redis import Redis

    club_dir = Path(tempfile.mkdtemp(prefix="bench-club-"))
    port = free_port()
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"({os.cpu_count()} cores)", flush=True)
    env = start_club(club_dir, port, args.app, args.readers)
    redis = Redis.from_url(f"redis://127.0.0.1:{env['CLUB_REDIS_PORT']}/0")
    try:
        photos = twelve_megapixel_photos(4)
        print(f"photos: 4000x3000, {np.mean([len(p) for p in photos]) / 1e6:.1f} MB on average", flush=True)
        setup = Client(port)
        tables = []
        for _ in range(args.tables):
            status, _, body = setup.call("POST", "/api/games", json.dumps({"players": PLAYERS, "rules": "2-4"}).encode(),
                                         JSON)
            assert status == 201, body
            token = json.loads(body)["token"]
            status, _, body = setup.call("POST", f"/api/games/{token}/rounds", b"{}", JSON)
            assert status == 201, body
            tables.append(token)
        stats, stop = Stats(), threading.Event()
        meter, started = CpuMeter(club_pids(club_dir)), time.perf_counter()
        phones = [Phone(port, token, player, photos, 1.0 / args.round_s, started + args.seconds, stop, stats)
                  for token in tables for player in PLAYERS]
        for phone in phones:
            phone.start()
        depth: list[tuple[float, int, int]] = []
        killed_at = None
        kill_after = args.seconds / 2
        while time.perf_counter() - started < args.seconds:
            time.sleep(min(args.sample_s, max(0.0, args.seconds - (time.perf_counter() - started))))
            elapsed = time.perf_counter() - started
            depth.append((elapsed, redis.llen("rq:queue:photos"), redis.zcard("rq:wip:photos")))
            meter.sample(club_pids(club_dir))
            if not args.no_kill and killed_at is None and elapsed >= kill_after:
                pids = club_pids(club_dir)
                reader, app_worker = busy_reader(redis) or pids["readers"][0], pids["gunicorn"][1]
                os.kill(reader, signal.SIGKILL)
                os.kill(app_worker, signal.SIGKILL)
                killed_at = time.perf_counter()
                print(f"[{elapsed:5.0f} s] killed reader {reader} (mid-read: {reader in busy_pids(redis)}) and app "
                      f"process {app_worker}", flush=True)
        uploads_stopped = time.perf_counter()
        # Drain: the phones keep polling until every accepted photo is seen read (or the drain time is up).
        while time.perf_counter() - uploads_stopped < args.drain_s:
            with stats.lock:
                left = set(stats.sent) - set(stats.seen)
            if not left:
                break
            time.sleep(1.0)
            meter.sample(club_pids(club_dir))
            depth.append((time.perf_counter() - started, redis.llen("rq:queue:photos"), redis.zcard("rq:wip:photos")))
        stop.set()
        wall = time.perf_counter() - started
        meter.sample(club_pids(club_dir))
        load = os.getloadavg()

        # The server's side: each upload's own time from stored to read, from the rounds' JSON.
        server_latency, statuses, retried = [], {}, []
        for token in tables:
            for _attempt in range(3):  # the setup connection may have been to the app process killed
                status, _, body = setup.call("GET", f"/api/games/{token}/rounds/1")
                if status == 200:
                    break
            round_json = json.loads(body)
            created = {u["id"]: datetime.fromisoformat(u["created_at"]) for u in round_json["uploads"]}
            statuses.update({u["id"]: u["status"] for u in round_json["uploads"]})
            attempts = {u["id"]: u["attempts"] for u in round_json["uploads"]}
            for event in round_json["events"]:
                upload = (event.get("detail") or {}).get("upload")
                if event["kind"] == "read" and upload in created:
                    server_latency.append((datetime.fromisoformat(event["at"]) - created[upload]).total_seconds())
                    if attempts[upload] > 1:
                        retried.append((upload, attempts[upload], server_latency[-1]))
        phone_latency = [stats.seen[u] - stats.sent[u] for u in stats.seen if u in stats.sent]
        accepted = len(stats.sent)
        read = sum(1 for u in stats.sent if statuses.get(u) == "read")
        before = [e for t, e in stats.errors if killed_at is None or t < killed_at]
        after = [e for t, e in stats.errors if killed_at is not None and t >= killed_at]

        print(f"\n{args.tables} tables x 4 phones, {args.seconds:.0f} s of uploads ({accepted} photos accepted, "
              f"{accepted / args.seconds:.2f}/s), {args.app} app processes, {args.readers} readers, "
              f"{stats.requests} requests ({stats.requests / wall:.0f}/s)")
        print(f"photo -> review on the server (stored -> hand filled): p50 {percentile(server_latency, .5):.2f} s, "
              f"p95 {percentile(server_latency, .95):.2f} s, max {max(server_latency, default=float('nan')):.2f} s")
        print(f"photo -> review on the phone (POST sent -> its 1 s poll shows it): p50 "
              f"{percentile(phone_latency, .5):.2f} s, p95 {percentile(phone_latency, .95):.2f} s, "
              f"max {max(phone_latency, default=float('nan')):.2f} s")
        print(f"errors before the kill: {len(before)}; after: {len(after)}; connections dropped by the kill (sent "
              f"again): {stats.dropped}"
              + (f" (first: {(before or after)[0]})" if before or after else ""))
        print("photos read on a retry (upload, attempts, stored -> read): "
              + (", ".join(f"{u} {a} {t:.1f} s" for u, a, t in retried) or "none"))
        print(f"every accepted photo read: {read} of {accepted}"
              + ("" if read == accepted else f"; not read: {sorted(set(stats.sent) - {u for u, s in statuses.items() if s == 'read'})[:10]}"))
        print("queue depth (s: waiting + being read): "
              + ", ".join(f"{t:.0f}: {q}+{w}" for t, q, w in depth[:: max(1, len(depth) // 24)]))
        used = meter.used()
        print("CPU (cores busy on average): " + ", ".join(f"{part} {seconds / wall:.2f}" for part, seconds in used.items())
              + f"; all {sum(used.values()) / wall:.2f} of {os.cpu_count()}")
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        subprocess.run(["bash", "scripts/club.sh", "--stop"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(club_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
