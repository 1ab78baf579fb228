"""Database engine, per-request sessions and start-up migrations."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def _tune_sqlite(engine: Engine) -> None:
    """WAL for concurrent readers, a busy timeout, foreign keys, and BEGIN IMMEDIATE.

    BEGIN IMMEDIATE takes the write lock at the start of a transaction, so two requests never
    deadlock upgrading read locks (SQLite would fail one at once instead of waiting)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA busy_timeout = 30000")
        cur.execute("PRAGMA foreign_keys = ON")
        if engine.url.database not in (None, "", ":memory:"):
            cur.execute("PRAGMA journal_mode = WAL")
            cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn) -> None:  # type: ignore[no-untyped-def]
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        _tune_sqlite(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)


def migration_config(connection: Connection) -> Config:
    """Alembic's configuration for our revisions, bound to a live connection (see migrations/env.py)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["connection"] = connection
    return cfg


def run_migrations(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to a revision, the newest by default (creates every table on a fresh database)."""
    with engine.begin() as connection:
        command.upgrade(migration_config(connection), revision)


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    if app.config.get("MIGRATE_ON_START", True):
        run_migrations(engine)
    app.extensions["webapp.engine"] = engine
    app.extensions["webapp.sessions"] = sessionmaker(engine)
    app.teardown_appcontext(_close_session)


def get_engine(app: Flask | None = None) -> Engine:
    return (app or current_app).extensions["webapp.engine"]


def get_session() -> Session:
    """One session per request, closed (and rolled back if uncommitted) at teardown."""
    if "db_session" not in g:
        g.db_session = current_app.extensions["webapp.sessions"]()
    return g.db_session


def _close_session(_exc: BaseException | None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
