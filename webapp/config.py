"""Settings: defaults, then `WEBAPP_*` environment variables, then `DATABASE_URL` and `REDIS_URL`."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

DEFAULTS: dict[str, object] = {
    # Phones send 12-megapixel JPEGs of 3-8 MB; 20 MB leaves room without inviting abuse.
    "MAX_CONTENT_LENGTH": 20 * 1024 * 1024,
    # Waitress closes a connection idle this long (a slow or stalled client holds no worker thread meanwhile:
    # waitress buffers the whole request before the app sees it).
    "CHANNEL_TIMEOUT_S": 60,
    # Device index or path/URL for the server-attached overhead webcam; "" turns the button off.
    "WEBCAM_DEVICE": "0",
    "MIGRATE_ON_START": True,
    # Photos read at the same time (0 = no limit). Measured on 2 cores: no limit gave the best p95
    # (decoding one photo overlaps the network run of another); see docs/webapp.md.
    "READ_SLOTS": 0,
    # Photo reading as jobs (webapp/jobs): on when REDIS_URL is set, else photos are read in the request.
    "REDIS_URL": "",
    "JOBS_QUEUE": "photos",
    "JOBS_TIMEOUT_S": 30,  # a read (~0.3-1 s) past this is stopped and retried; a dead worker's job ~20 s later
    "JOBS_RETRIES": 2,  # attempts after the first, then the hand says the photo could not be read
    "JOBS_STUCK_AFTER_S": 300,  # a photo still waiting this long is reported on its hand (workers down?)
    "JOBS_SYNC": False,  # tests only: RQ runs the job inside the request (Queue(is_async=False))
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
}


def normalise_database_url(url: str) -> str:
    """Make plain `postgresql://` URLs use psycopg 3, the driver the project installs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _persistent_secret(instance_path: Path) -> str:
    """A secret key kept under instance/ so sessions survive restarts without configuration."""
    key_file = instance_path / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_hex(32)
    tmp = key_file.with_suffix(".tmp" + secrets.token_hex(4))
    tmp.write_text(key)
    os.replace(tmp, key_file)
    return key_file.read_text().strip()


def load_config(app: Flask, test_config: dict | None) -> None:
    """Fill `app.config`; `test_config` replaces the environment entirely (tests stay hermetic)."""
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(DEFAULTS)
    app.config["DATABASE_URL"] = f"sqlite:///{instance / 'webapp.sqlite3'}"
    app.config["PHOTO_DIR"] = str(instance / "photos")
    if test_config is None:
        app.config.from_prefixed_env("WEBAPP")
        if os.environ.get("DATABASE_URL"):
            app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
        if os.environ.get("REDIS_URL"):
            app.config["REDIS_URL"] = os.environ["REDIS_URL"]
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _persistent_secret(instance)
    app.config["DATABASE_URL"] = normalise_database_url(str(app.config["DATABASE_URL"]))
    Path(app.config["PHOTO_DIR"]).mkdir(parents=True, exist_ok=True)
