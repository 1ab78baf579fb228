"""Four phones upload 12-megapixel photos of one round at once: photo-to-review latency.

Starts `python -m webapp` (waitress) on a free port with a throwaway instance directory, creates a
four-player game, then for each round four client threads each POST one player's photo and GET that
player's review page. Latency = start of the upload to the review page fully received.

    .venv/bin/python benchmarks/bench_webapp.py [--rounds 5] [--photo PATH]

Target on the 2-core machine: p95 <= 1.5 s, no errors.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def twelve_megapixel_photo(source: Path | None, seed: int) -> bytes:
    """A 4000x3000 JPEG: a sample render scaled up when given, else a felt table with 13 white cards."""
    if source is not None:
        image = cv2.imread(str(source))
        image = cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    else:
        image = np.zeros((3000, 4000, 3), np.uint8)
        image[:] = (60, 110, 30)
        for row, count in enumerate((3, 5, 5)):
            for i in range(count):
                x, y = 400 + i * 640 + (640 if count == 3 else 0), 250 + row * 900
                cv2.rectangle(image, (x, y), (x + 560, y + 800), (245, 245, 245), -1)
                cv2.putText(image, "AKQJT98765432"[(seed + row * 5 + i) % 13], (x + 30, y + 150),
                            cv2.FONT_HERSHEY_SIMPLEX, 5, (0, 0, 200), 12)
    # Sensor noise: phone photos of 12 MP are 3-6 MB because of it (a clean upscale compresses to ~1 MB).
    noise = np.random.default_rng(seed).normal(0, 6, image.shape)
    image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buf.tobytes()


def shrink_like_the_page(photo: bytes, long_side: int = 2400) -> bytes:
    """What webapp/static/app.js uploads for a big photo: long side 2400 px, JPEG quality 0.9."""
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    scale = long_side / max(image.shape[:2])
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def request(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def multipart(photo: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"hand.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode()
    return head + photo + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def wait_until_up(port: int, server: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--read-slots", type=int, default=None,
                        help="WEBAPP_READ_SLOTS for the server: photos read at once (0 = no limit)")
    parser.add_argument("--as-page-sends", action="store_true",
                        help="send what the page's script sends: the photo shrunk to 2400 px (JPEG q90)")
    parser.add_argument("--photo", type=Path, help="an image to scale to 12 MP (default: sample_images/ or drawn)")
    args = parser.parse_args()
    samples = sorted((ROOT / "sample_images").glob("layout_p*.jpg"))
    source = args.photo or (samples[0] if samples else None)
    photos = [twelve_megapixel_photo(source, seed) for seed in range(4)]
    if args.as_page_sends:
        photos = [shrink_like_the_page(p) for p in photos]
    port = free_port()
    instance = tempfile.mkdtemp(prefix="bench-webapp-")
    env = dict(os.environ, WEBAPP_INSTANCE_PATH=instance, WEBAPP_WEBCAM_DEVICE="")
    env.pop("DATABASE_URL", None)
    if args.read_slots is not None:
        env["WEBAPP_READ_SLOTS"] = str(args.read_slots)
    server = subprocess.Popen([sys.executable, "-m", "webapp", "--port", str(port)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_up(port, server)
        health = json.loads(request(port, "GET", "/healthz")[1])
        status, body = request(port, "POST", "/api/games", json.dumps(
            {"players": PLAYERS, "rules": "2-4"}).encode(), {"Content-Type": "application/json"})
        assert status == 201, body
        token = json.loads(body)["token"]
        # Warm-up: the first read loads the ONNX models.
        data, ctype = multipart(photos[0])
        request(port, "POST", f"/api/games/{token}/rounds", b"{}", {"Content-Type": "application/json"})
        request(port, "POST", f"/api/games/{token}/rounds/1/hands/Ann/photo", data, {"Content-Type": ctype})

        latencies: list[float] = []
        errors: list[str] = []
        cards_read: list[int] = []
        lock = threading.Lock()

        def one_phone(number: int, seat: int, barrier: threading.Barrier) -> None:
            body, content_type = multipart(photos[seat])
            player = urllib.parse.quote(PLAYERS[seat])
            barrier.wait()
            start = time.perf_counter()
            status, reply = request(port, "POST", f"/api/games/{token}/rounds/{number}/hands/{player}/photo",
                                    body, {"Content-Type": content_type})
            review_status, _page = request(port, "GET", f"/g/{token}/r/{number}/p/{seat}")
            elapsed = time.perf_counter() - start
            with lock:
                if status != 201 or review_status != 200:
                    errors.append(f"round {number} seat {seat}: HTTP {status}/{review_status} {reply[:120]!r}")
                else:
                    latencies.append(elapsed)
                    cards_read.append(len(json.loads(reply)["reading"].get("cards") or []))

        wall = time.perf_counter()
        for r in range(args.rounds):
            status, body = request(port, "POST", f"/api/games/{token}/rounds", b"{}",
                                   {"Content-Type": "application/json"})
            number = json.loads(body)["number"]
            barrier = threading.Barrier(4)
            threads = [threading.Thread(target=one_phone, args=(number, seat, barrier)) for seat in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        wall = time.perf_counter() - wall
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    latencies.sort()
    p95 = latencies[max(0, int(round(0.95 * len(latencies))) - 1)] if latencies else float("nan")
    size = "2400x1800 (as the page sends it)" if args.as_page_sends else "4000x3000"
    print(f"photo: {len(photos[0]) / 1e6:.1f} MB JPEG, {size} ({'from ' + source.name if source else 'drawn'})")
    print(f"reader model present: {health.get('reader_model')}   cpu cores: {os.cpu_count()}   "
          f"read slots: {'default' if args.read_slots is None else args.read_slots}")
    print(f"uploads: {len(latencies) + len(errors)} ({args.rounds} rounds x 4 phones at once), errors: {len(errors)}")
    if latencies:
        print(f"photo-to-review latency: p50 {statistics.median(latencies):.3f} s   p95 {p95:.3f} s   "
              f"max {latencies[-1]:.3f} s   (target p95 <= 1.5 s)")
        print(f"cards read per photo: median {statistics.median(cards_read):.0f}")
        print(f"throughput: {(len(latencies)) / wall:.2f} photos/s")
    for line in errors[:5]:
        print("error:", line)


if __name__ == "__main__":
    main()
