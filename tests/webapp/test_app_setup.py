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


def test_upgrade_from_0001_keeps_existing_games_as_chinese_poker(app_config):
    """A database made by revision 0001 (before Big Two), with a game and a round in it, is upgraded at start
    (0002, then 0003): the game becomes Chinese poker, its hands get no cards left and claim no instant win,
    and it still plays; downgrading works too."""
    from alembic import command
    from alembic.migration import MigrationContext

    from webapp.db import make_engine, migration_config, run_migrations
    from webapp_testkit import ANN, BOB, csrf_token, enter_rows, round_etag

    engine = make_engine(normalise_database_url(app_config["DATABASE_URL"]))
    run_migrations(engine, "0001")
    now = "2026-11-20 10:00:00+00:00"
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, token, title, preset, options, stake, pair_stakes, rotate_banker, created_at) "
            "VALUES (1, 'old-game-token-0123456789', 'Old table', '2-4', '{}', '1', '[]', false, :now)"), {"now": now})
        conn.execute(text("INSERT INTO players (game_id, seat, name) VALUES (1, 0, 'Ann'), (1, 1, 'Bob')"))
        conn.execute(text("INSERT INTO rounds (id, game_id, number, status, revision, created_at) "
                          "VALUES (1, 1, 1, 'open', 0, :now)"), {"now": now})
        for seat, name in enumerate(("Ann", "Bob")):
            conn.execute(text("INSERT INTO hands (round_id, seat, player, state, front, middle, back, "
                              "declared_natural, updated_at) VALUES (1, :seat, :name, 'empty', '[]', '[]', '[]', "
                              "false, :now)"), {"seat": seat, "name": name, "now": now})
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == "0001"
        assert "game_type" not in {c["name"] for c in inspect(conn).get_columns("games")}

    upgraded = create_app(app_config)  # migrates to the newest revision at start
    try:
        with get_engine(upgraded).connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == _newest_revision()
            assert conn.execute(text("SELECT game_type FROM games")).scalar() == "chinese-poker"
            assert conn.execute(text("SELECT count(*) FROM hands WHERE cards IS NULL")).scalar() == 0
            assert conn.execute(text("SELECT count(*) FROM hands WHERE instant_win = false")).scalar() == 2
        client = upgraded.test_client()
        token = "old-game-token-0123456789"
        assert client.get(f"/api/games/{token}").get_json()["game"] == "chinese-poker"
        assert "Chinese poker" in client.get(f"/g/{token}").get_data(as_text=True)
        assert enter_rows(client, token, 1, 0, ANN).status_code == 303
        assert enter_rows(client, token, 1, 1, BOB).status_code == 303
        client.post(f"/g/{token}/r/1/settle", data={"if_match": round_etag(client, token, 1),
                                                    "csrf_token": csrf_token(client)})
        assert client.get(f"/api/games/{token}/rounds/1").get_json()["status"] == "settled"
    finally:
        get_engine(upgraded).dispose()
    with engine.begin() as conn:
        command.downgrade(migration_config(conn), "0002")
    with engine.connect() as conn:
        assert "instant_win" not in {c["name"] for c in inspect(conn).get_columns("hands")}
        assert "cards" in {c["name"] for c in inspect(conn).get_columns("hands")}
    with engine.begin() as conn:
        command.downgrade(migration_config(conn), "0001")
    with engine.connect() as conn:
        assert "game_type" not in {c["name"] for c in inspect(conn).get_columns("games")}
        assert conn.execute(text("SELECT title FROM games")).scalar() == "Old table"
    engine.dispose()


def _newest_revision() -> str:
    """The head of the hand-written Alembic revisions (the start-up migration's target)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from webapp.db import MIGRATIONS_DIR

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return ScriptDirectory.from_config(config).get_current_head()
