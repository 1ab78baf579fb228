"""Start-up: factory, configuration, migrations, WAL, health, security headers."""
from __future__ import annotations

import os

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from webapp import create_app
from webapp.config import normalise_database_url
from webapp.db import get_engine
from webapp.models import Base


def test_migrations_create_every_table(app):
    tables = set(inspect(get_engine(app)).get_table_names())
    assert {"games", "players", "rounds", "hands", "photos", "uploads", "round_events", "alembic_version"} <= tables


def test_migrations_match_the_models(app):
    """The hand-written Alembic revisions and the typed models describe the same schema."""
    with get_engine(app).connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_sqlite_runs_in_wal_mode(app):
    engine = get_engine(app)
    if engine.dialect.name != "sqlite":
        return  # PostgreSQL run: nothing to check here
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_second_start_on_the_same_database_is_harmless(app, app_config):
    again = create_app(app_config)
    with get_engine(again).connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    get_engine(again).dispose()


def test_environment_configures_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("WEBAPP_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("WEBAPP_WEBCAM_DEVICE", "/dev/video7")
    monkeypatch.setenv("WEBAPP_MAX_CONTENT_LENGTH", "1234567")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app()
    assert app.config["WEBCAM_DEVICE"] == "/dev/video7"
    assert app.config["MAX_CONTENT_LENGTH"] == 1234567
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'inst' / 'webapp.sqlite3'}"
    assert os.path.exists(tmp_path / "inst" / "webapp.sqlite3")
    assert (tmp_path / "inst" / "secret_key").read_text() == app.config["SECRET_KEY"]
    get_engine(app).dispose()


def test_postgres_urls_use_psycopg3():
    assert normalise_database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_database_url("sqlite:///x.db") == "sqlite:///x.db"


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json()["database"] == "ok"


def test_pages_forbid_foreign_scripts_and_frames(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_static_assets_are_served_locally(client):
    html = client.get("/").get_data(as_text=True)
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/app.css").status_code == 200
