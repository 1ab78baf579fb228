"""A tiny CSRF guard: one random token per session, required in every form POST."""
from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session

FIELD = "csrf_token"
HEADER = "X-CSRF-Token"


def csrf_token() -> str:
    if FIELD not in session:
        session[FIELD] = secrets.token_urlsafe(32)
    return session[FIELD]


def _check() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    # The JSON API is authorised by the game token in the URL (plus PIN), not by cookies,
    # so a forged cross-site request gains nothing there; forms are cookie-authorised.
    if request.blueprint == "api" or request.endpoint in (None, "static"):
        return
    sent = request.form.get(FIELD) or request.headers.get(HEADER, "")
    expected = session.get(FIELD, "")
    if not expected or not hmac.compare_digest(str(sent), str(expected)):
        abort(400, description="The form expired or came from another site; reload the page and try again.")


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token
    if app.config.get("CSRF_ENABLED", True):
        app.before_request(_check)
