"""Every API request is checked against the schemas /api/openapi.json publishes for its operation.

One before-request hook finds the operation (the Flask rule, written as an OpenAPI path, and the method) and
validates its path, header and query parameters, its multipart form fields and, when it takes a JSON body, the
body (JSON Content-Type and syntax required) with `jsonschema`, answering 400 with one line naming the first
problem. Views may then trust the input's shape; their own checks of meaning (cards, players, rules) stay.

JSON bodies are small (a round's hands are about 1 KB), so they are capped at MAX_JSON_BYTES and
MAX_JSON_DEPTH levels of nesting: parsing, validating and walking them stays a matter of milliseconds.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from itertools import islice
from typing import Any

from flask import Flask, jsonify, request
from flask.json.provider import DefaultJSONProvider
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32
_MESSAGE_CHARS = 160
_MAX_ERRORS = 10
_RULE_PARAM = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def json_depth(value: Any) -> int:
    """How deeply `value` nests lists and objects (a scalar: 0), walked without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_JSON_DEPTH:
            break  # deep enough to refuse: no need to walk the rest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")


def parse_json(text: str | bytes) -> Any:
    """Parse JSON, refusing nesting deeper than MAX_JSON_DEPTH and NaN/Infinity (Python's json takes them, JSON
    does not) with a ValueError, never a RecursionError."""
    try:
        value = json.loads(text, parse_constant=_not_json)
    except RecursionError:
        value = None
        too_deep = True
    else:
        too_deep = json_depth(value) > MAX_JSON_DEPTH
    if too_deep:
        raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
    return value


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON with the nesting bound: request.get_json() answers 400, never RecursionError (500)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if kwargs:
            return super().loads(s, **kwargs)
        return parse_json(s)


def openapi_path(rule: str) -> str:
    """A Flask rule as the OpenAPI document writes its path: /games/<token>/rounds/<int:number> ->
    /games/{token}/rounds/{number}."""
    return _RULE_PARAM.sub(r"{\1}", rule)


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    from webapp.openapi import openapi_document

    return openapi_document("")


class _Operation:
    """An operation's validators: its parameters (where, name, required, validator) and its JSON body."""

    def __init__(self, document: dict[str, Any], operation: dict[str, Any]) -> None:
        components = document.get("components", {})

        def validator(schema: dict[str, Any]) -> Draft202012Validator:
            # The schema at the root, with the document's components beside it for its $refs.
            return Draft202012Validator({**schema, "components": components})

        self.params = [(p["in"], p["name"], bool(p.get("required")), validator(p.get("schema", {})))
                       for p in operation.get("parameters", []) if p.get("in") in ("path", "header", "query")]
        body = operation.get("requestBody") or {}
        json_body = body.get("content", {}).get("application/json")
        self.body_required = bool(body.get("required"))
        self.body = validator(json_body["schema"]) if json_body else None
        form = body.get("content", {}).get("multipart/form-data")
        self.form = validator(form["schema"]) if form else None


@lru_cache(maxsize=None)
def _operation(path: str, method: str) -> _Operation | None:
    document = _document()
    operation = document["paths"].get(path, {}).get(method)
    return None if operation is None else _Operation(document, operation)


def _message(err: ValidationError, where: str) -> str:
    custom = err.schema.get("x-error") if isinstance(err.schema, dict) else None
    if custom:
        value = f"'{err.instance[:40]}'" if isinstance(err.instance, str) else \
            json.dumps(err.instance, ensure_ascii=False)[:40]
        return str(custom).replace("{value}", value)
    path = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".")
    message = " ".join(err.message.split())
    if len(message) > _MESSAGE_CHARS:
        message = message[:_MESSAGE_CHARS] + "…"
    return f"Invalid {where}{' at ' + path if path else ''}: {message}"


def _refusal(validator: Draft202012Validator, value: Any, where: str):  # type: ignore[no-untyped-def]
    """None if `value` is valid, else a 400 JSON response: the best message first, then every problem."""
    errors = list(islice(validator.iter_errors(value), _MAX_ERRORS))
    if not errors:
        return None
    first = _message(best_match(errors), where)
    messages = list(dict.fromkeys([first, *(_message(e, where) for e in errors)]))
    return _bad(first, messages)


def _bad(message: str, errors: list[str] | None = None):  # type: ignore[no-untyped-def]
    return jsonify(error=message, errors=errors or [message], status=400), 400


def validate_request():  # type: ignore[no-untyped-def]
    """The before-request hook: refuse parameters or a body that do not match the operation's schemas."""
    if request.url_rule is None:
        return None
    operation = _operation(openapi_path(request.url_rule.rule), request.method.lower())
    if operation is None:
        return None
    sources = {"path": request.view_args or {}, "header": request.headers, "query": request.args}
    for where, name, required, validator in operation.params:
        value = sources[where].get(name)
        if value is None:
            if required:
                return _bad(f"Missing {where} parameter {name}.")
            continue
        refused = _refusal(validator, value, f"{name}")
        if refused is not None:
            return refused
    if operation.form is not None:
        # The form's text fields as they are, each uploaded file as "" (its bytes are the view's to judge).
        fields = {**request.form.to_dict(), **{name: "" for name in request.files}}
        return _refusal(operation.form, fields, "form")
    if operation.body is None:
        return None
    request.max_content_length = MAX_JSON_BYTES
    raw = request.get_data(cache=True)  # 413 past the limit
    if not raw:
        return _bad("This request needs a JSON body (Content-Type: application/json).") if operation.body_required \
            else None
    if not request.is_json:
        return _bad("Send the body as JSON, with Content-Type: application/json.")
    try:
        value = parse_json(raw)
    except (ValueError, UnicodeDecodeError) as err:
        return _bad(f"The body is not valid JSON: {' '.join(str(err).split())[:_MESSAGE_CHARS]}")
    return _refusal(operation.body, value, "request body")


def init_app(app: Flask) -> None:
    app.json = BoundedJSONProvider(app)
    app.before_request(validate_request)
