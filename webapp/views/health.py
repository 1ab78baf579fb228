"""Liveness: the database answers and the reader's model files are present."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, jsonify
from sqlalchemy import text

from webapp.db import get_session

bp = Blueprint("health", __name__)
MODELS = Path(__file__).resolve().parents[2] / "models"


@bp.get("/healthz")
def healthz():  # type: ignore[no-untyped-def]
    try:
        get_session().execute(text("SELECT 1"))
        database = "ok"
    except Exception as err:  # noqa: BLE001 - any failure means "not healthy"
        database = f"error: {type(err).__name__}"
    reader = all((MODELS / name).exists() for name in ("cards.onnx", "cards_cls.onnx"))
    status = 200 if database == "ok" else 503
    return jsonify(status="ok" if status == 200 else "error", database=database, reader_model=reader), status
