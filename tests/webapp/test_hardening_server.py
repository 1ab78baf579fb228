"""Hardening: waitress' own refusals (a body over the limit) are the app's JSON errors, with the app's limit."""
from __future__ import annotations

import json
import socket
import threading

import pytest

from webapp.__main__ import make_server


def _raw_request(address: str, port: int, head: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection((address, port), timeout=10) as conn:
        conn.sendall(head)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head_part, _, body = data.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("listen", [None, "127.0.0.1:0 127.0.0.1:0"])  # one listener, or one per address
def test_a_body_over_the_limit_gets_the_apps_json_413_before_it_is_sent(app, listen):
    server = make_server(app, "127.0.0.1", 0, threads=2, listen=listen)
    listening = getattr(server, "effective_listen", None) or [(server.effective_host, server.effective_port)]
    assert len(listening) == (2 if listen else 1)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        limit = app.config["MAX_CONTENT_LENGTH"]
        for (address, port), size in zip(listening * 3, (limit + 1, 10 * limit, 2**40)):
            status, headers, body = _raw_request(address, port, (
                f"POST /api/games/x/rounds/1/hands/Ann/photo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {size}\r\n\r\n").encode())
            assert status == 413 and headers["content-type"] == "application/json"
            reply = json.loads(body)
            assert reply["status"] == 413 and f"{limit // 2**20} MB" in reply["error"]
    finally:
        server.close()
        server.task_dispatcher.shutdown()
        for listener in getattr(server, "map", {}).values():
            listener.close()
        thread.join(timeout=5)
