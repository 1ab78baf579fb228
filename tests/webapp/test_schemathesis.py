"""schemathesis against /api/openapi.json through the WSGI app: no 5xx, every response as documented.

One test per documented operation (listed from webapp.openapi itself: schemathesis' lazy pytest loader does not
work with this pytest), each against a fresh app and database holding one game with one round, so that valid
requests reach the code behind the token instead of stopping at 404. Each operation gets a few schema-valid
requests aimed at that game and a few schema-breaking ones (which must be refused). Schema-valid requests may
still be refused with a documented 4xx: the schema cannot say which cards or names make sense, so schemathesis'
check that every valid request is accepted is left out. Bounded (hypothesis' database off, no deadline): seconds."""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks
from schemathesis.generation.modes import GenerationMode

from webapp.openapi import openapi_document

# A few per operation in CI, derandomized (the same requests every run); SCHEMATHESIS_EXAMPLES=200 to hunt with
# more, different on each run.
HUNTING = "SCHEMATHESIS_EXAMPLES" in os.environ
EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "6"))
DOCUMENT = openapi_document("")
# Every check but "a schema-valid request is accepted" (see above); "no 5xx" allows the documented, deliberate
# 503s (no webcam configured, no reader model) and nothing else.
OPERATIONS = sorted((path, method) for path, methods in DOCUMENT["paths"].items() for method in methods)
EXCLUDED = [checks.positive_data_acceptance, checks.not_a_server_error]


def no_server_error_but_a_documented_503(ctx, response, case) -> bool:  # type: ignore[no-untyped-def]
    documented = case.operation.definition.raw.get("responses", {})
    assert response.status_code < 500 or (response.status_code == 503 and "503" in documented), \
        f"{response.status_code} from {case.method} {case.formatted_path}: {response.text[:300]}"
    return True


def _game_with_a_round(client) -> dict[str, object]:
    created = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": "2-4"})
    token = created.get_json()["token"]
    assert client.post(f"/api/games/{token}/rounds").status_code == 201
    return {"token": token, "number": 1, "player": "Ann"}


def _run(strategy) -> None:  # type: ignore[no-untyped-def]
    @given(case=strategy)
    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None, derandomize=not HUNTING,
              suppress_health_check=list(HealthCheck))
    def check(case):  # type: ignore[no-untyped-def]
        case.call_and_validate(excluded_checks=EXCLUDED, additional_checks=[no_server_error_but_a_documented_503])

    check()


@pytest.mark.parametrize("path, method", OPERATIONS, ids=[f"{m.upper()} {p}" for p, m in OPERATIONS])
def test_api_matches_its_openapi_document(app, client, path, method):
    operation = schemathesis.openapi.from_wsgi("/api/openapi.json", app)[path][method.upper()]
    known = {name: value for name, value in _game_with_a_round(client).items() if "{" + name + "}" in path}
    _run(operation.as_strategy(GenerationMode.POSITIVE, path_parameters=known or None))
    documented = DOCUMENT["paths"][path][method]
    if documented.get("parameters") or documented.get("requestBody"):  # else nothing can break the schema
        _run(operation.as_strategy(GenerationMode.NEGATIVE))
