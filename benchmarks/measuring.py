"""What the server benchmarks share: a free local port, a keep-alive client, percentiles, a process's CPU time."""
from __future__ import annotations

import http.client
import os
import socket
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(q * len(ordered))) - 1)] if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat); 0 once it has gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


class Client:
    """One keep-alive connection, as a phone's browser keeps one. A dropped connection is reopened; the call is then
    either reported as status 0 (`retry=False`: the club bench counts drops as errors) or sent once more and raises
    if it drops again (`retry=True`: the live bench's server closes idle keep-alive connections)."""

    def __init__(self, port: int, *, retry: bool = False) -> None:
        self.port, self.retry = port, retry
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: bytes | None = None,
             headers: dict | None = None) -> tuple[int, dict[str, str], bytes]:
        # the live bench stopped only on dropped connections (a timeout raised at once), as before
        dropped = (http.client.HTTPException, ConnectionError) if self.retry else (http.client.HTTPException, OSError)
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                response = self.conn.getresponse()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
            except dropped:
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if not self.retry:
                    return 0, {}, b""
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
