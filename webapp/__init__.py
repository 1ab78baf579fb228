"""The table web app: Flask application factory."""
from __future__ import annotations

import os
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; `test_config` replaces environment settings (used by the tests)."""
    # instance/ holds the SQLite file, the photos and the secret key; tests point it at a tmp dir.
    instance_path = (test_config or {}).get("INSTANCE_PATH") or os.environ.get("WEBAPP_INSTANCE_PATH")
    app = Flask(__name__, instance_relative_config=True, instance_path=instance_path and os.path.abspath(instance_path))
    from webapp import config

    config.load_config(app, test_config)

    from webapp import csrf, db, i18n, ratelimit, templating, validation
    from webapp.photos import open_store

    db.init_app(app)
    csrf.init_app(app)
    ratelimit.init_app(app)
    validation.init_app(app)
    i18n.init_app(app)
    templating.init_app(app)
    app.extensions["webapp.photos"] = open_store(app.config)

    from webapp.views import api, games, health, home, rounds
    from webapp.views import hindsight  # noqa: F401 - adds its route to the rounds blueprint
    from webapp.views import table  # noqa: F401 - the table photo's routes, on the rounds, games and api blueprints
    from webapp.views import hand_sets  # noqa: F401 - criss cross: every hand URL also under /s/<set>

    for module in (home, games, rounds, api, health):
        app.register_blueprint(module.bp)

    _register_error_pages(app)
    _add_security_headers(app)
    return app


def _wants_json() -> bool:
    return (request.path.startswith("/api/") or request.path == "/healthz"
            or request.accept_mimetypes.best == "application/json"
            or request.headers.get("X-Requested-With") == "fetch")


def too_large_message(limit: int) -> str:
    size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
    return f"The upload is too large; the limit is {size}."


def _register_error_pages(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException):  # type: ignore[no-untyped-def]
        message = err.description or err.name
        if err.code == 413:
            message = too_large_message(request.max_content_length or app.config["MAX_CONTENT_LENGTH"])
        # The exception's own headers: Allow (405), Retry-After (429, 503), WWW-Authenticate.
        headers = [(k, v) for k, v in err.get_headers() if k.lower() != "content-type"]
        if _wants_json():
            return jsonify(error=message, status=err.code), err.code, headers
        return render_template("error.html", code=err.code, message=message), err.code, headers


def _add_security_headers(app: Flask) -> None:
    @app.after_request
    def _headers(response):  # type: ignore[no-untyped-def]
        # Everything is served by the app itself: no CDN, no inline scripts from elsewhere.
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
            "style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")  # game links stay private
        return response
