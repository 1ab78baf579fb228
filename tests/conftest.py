"""Shared fixtures: the web app on a throwaway database (SQLite in tmp, or TEST_DATABASE_URL)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest


def _fresh_database_url(tmp_path: Path) -> str:
    """SQLite under tmp by default; with TEST_DATABASE_URL (PostgreSQL in CI) an emptied schema."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    from sqlalchemy import create_engine, text

    from webapp.config import normalise_database_url

    url = normalise_database_url(url)
    engine = create_engine(url)
    with engine.begin() as conn:  # every test starts from an empty database, migrations included
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


def _job_mode(tmp_path: Path) -> dict:
    """With REDIS_URL set (`REDIS_URL=redis://127.0.0.1:6379 pytest tests/webapp`, scripts/with_redis.sh) every
    photo goes through a real RQ job on that Redis, run inside the request (JOBS_SYNC), and the rate limits count
    there; each test has its own queue and key prefix. tests/webapp/test_jobs.py runs real worker processes."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return {}
    unique = f"test-{os.getpid()}-{tmp_path.name}"
    return {"REDIS_URL": url, "JOBS_SYNC": True, "JOBS_QUEUE": unique, "RATELIMIT_KEY_PREFIX": unique}


@pytest.fixture
def app_config(tmp_path: Path) -> dict:
    return {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": _fresh_database_url(tmp_path),
        "PHOTO_DIR": str(tmp_path / "photos"),
        "WEBCAM_DEVICE": "",
        **_job_mode(tmp_path),
    }


@pytest.fixture
def app(tmp_path: Path, app_config: dict):
    from webapp import create_app

    flask_app = create_app(app_config)
    yield flask_app
    from webapp.db import get_engine

    get_engine(flask_app).dispose()


@pytest.fixture
def client(app):
    return app.test_client()
