"""`python -m webapp` serves with waitress and creates + migrates the SQLite database on first start."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_python_m_webapp_starts_on_a_fresh_instance(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, WEBAPP_INSTANCE_PATH=str(tmp_path / "instance"))
    env.pop("DATABASE_URL", None)
    log = tmp_path / "server.log"
    log_file = log.open("wb")
    server = subprocess.Popen([sys.executable, "-m", "webapp", "--host", "127.0.0.1", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        deadline, health = time.time() + 30, None
        while time.time() < deadline and health is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as reply:
                    health = json.loads(reply.read())
            except OSError:
                assert server.poll() is None, log.read_text()
                time.sleep(0.2)
        assert health and health["database"] == "ok"
        assert (tmp_path / "instance" / "webapp.sqlite3").exists()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/new", timeout=5) as reply:
            assert reply.headers["Server"].startswith("waitress")
        # the reader's models are loaded and run at start, in the background (the shipped models are in the repo)
        deadline = time.time() + 60
        while time.time() < deadline and "card reader" not in log.read_text():
            time.sleep(0.2)
        assert "card reader ready" in log.read_text(), log.read_text()
    finally:
        server.terminate()
        server.wait(timeout=10)
        log_file.close()
