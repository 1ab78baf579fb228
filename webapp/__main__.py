"""`python -m webapp [--host H] [--port P]`: serve the app with waitress (migrations run at start)."""
from __future__ import annotations

import argparse
import json
import logging

from flask import Flask
from waitress import create_server
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer
from waitress.task import ErrorTask

from webapp import create_app, too_large_message
from webapp.reader import warm_up_in_background


class _JsonErrorTask(ErrorTask):
    """Waitress' own refusals (body over the limit, malformed request) as the app's JSON errors, not plain text."""

    body_limit = 0

    def execute(self) -> None:
        err = self.request.error
        message = too_large_message(self.body_limit) if err.code == 413 else f"{err.reason}: {err.body}"
        body = json.dumps({"error": message, "status": err.code}).encode()
        self.status = f"{err.code} {err.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


def make_server(app: Flask, host: str, port: int, threads: int = 8,
                listen: str | None = None) -> BaseWSGIServer | MultiSocketServer:
    """A waitress server for `app`: the app's body limit (MAX_CONTENT_LENGTH) is waitress' too, so a body over it
    is refused before it is buffered, and every refusal is JSON like the app's own."""
    limit = int(app.config["MAX_CONTENT_LENGTH"])
    error_task = type("JsonErrorTask", (_JsonErrorTask,), {"body_limit": limit})
    channel = type("JsonErrorChannel", (HTTPChannel,), {"error_task_class": error_task})
    where = {"listen": listen} if listen else {"host": host, "port": port}  # listen: "host:port host:port"
    server = create_server(app, **where, threads=threads, max_request_body_size=limit,
                           channel_timeout=int(app.config["CHANNEL_TIMEOUT_S"]))
    # Several addresses (a host name with IPv4 and IPv6 ones, or `listen`) get one listening server each.
    listeners = [server] if isinstance(server, BaseWSGIServer) else \
        [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]
    for listener in listeners:
        listener.channel_class = channel
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m webapp", description="Table scorer web app")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--threads", type=int, default=8, help="worker threads (uploads wait on the reader)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app()
    warm_up_in_background()  # the first photo at the table is read as fast as the later ones
    print(f"Table scorer on http://{args.host}:{args.port}/  (database: {app.config['DATABASE_URL'].split('@')[-1]})",
          flush=True)
    make_server(app, args.host, args.port, args.threads).run()


if __name__ == "__main__":
    main()
