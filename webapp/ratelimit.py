"""General rate limits per client address (Flask-Limiter), on top of the PIN throttle in access.py.

Writes (POST, PUT, PATCH, DELETE) are limited per route, everything together per client address; reads count only
towards the overall limit, and a live page's poll (once a second, with If-None-Match) towards neither. The counters
live in memory by default (one process); with REDIS_URL set (a club: several app processes, scripts/club.sh) they
live in that Redis, so every process counts together (WEBAPP_RATELIMIT_STORAGE_URI names another storage)."""
from __future__ import annotations

import time

from flask import Flask, Response, jsonify, make_response, render_template, request
from flask_limiter import Limiter, RateLimitExceeded, RequestLimit
from flask_limiter.util import get_remote_address

DEFAULTS = {
    "RATELIMIT_STORAGE_URI": "memory://",
    # Writes, per route and address: a club's tables behind one router share an address, so 5 a second.
    "RATELIMIT_DEFAULT": "300 per minute",
    # Every request of an address except live pages' polls (If-None-Match: a 304 costs one indexed read).
    "RATELIMIT_APPLICATION": "3000 per minute",
    # No X-RateLimit-* headers on every response: they would overwrite the PIN throttle's Retry-After.
    "RATELIMIT_HEADERS_ENABLED": False,
    # Redis unreachable for a moment: count in memory meanwhile rather than fail every request.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
}


def _is_read() -> bool:
    return request.method in ("GET", "HEAD", "OPTIONS")


def _is_poll() -> bool:
    return _is_read() and bool(request.headers.get("If-None-Match"))


def _too_many(limit: RequestLimit) -> Response:
    """429 with Retry-After (seconds until the window frees up) and a one-line message, as page or JSON."""
    from webapp import _wants_json

    retry = max(1, int(limit.reset_at - time.time()) + 1)
    message = f"Too many requests from this address; try again in {retry} s."
    if _wants_json():
        response = make_response(jsonify(error=message, status=429), 429)
    else:
        response = make_response(render_template("error.html", code=429, message=message), 429)
    response.headers["Retry-After"] = str(retry)
    return response


def init_app(app: Flask) -> Limiter:
    if app.config.get("REDIS_URL") and not app.config.get("RATELIMIT_STORAGE_URI"):
        # A club (REDIS_URL): every app process counts in the same Redis as the reading jobs.
        app.config["RATELIMIT_STORAGE_URI"] = str(app.config["REDIS_URL"])
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    limiter = Limiter(get_remote_address, app=app, default_limits_exempt_when=_is_read,
                      application_limits_exempt_when=_is_poll, on_breach=_too_many)
    app.extensions["webapp.limiter"] = limiter

    @app.errorhandler(RateLimitExceeded)
    def _limited(err: RateLimitExceeded):  # type: ignore[no-untyped-def]
        return err.response  # the one _too_many made (more specific than the app's HTTPException page)

    return limiter
