"""`python -m webapp [--host H] [--port P]`: serve the app with waitress (migrations run at start)."""
from __future__ import annotations

import argparse
import logging

from waitress import serve

from webapp import create_app
from webapp.reader import warm_up_in_background


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
    # Large photos: let waitress buffer as much as Flask accepts before refusing.
    serve(app, host=args.host, port=args.port, threads=args.threads,
          max_request_body_size=int(app.config["MAX_CONTENT_LENGTH"]) + 1024 * 1024)


if __name__ == "__main__":
    main()
