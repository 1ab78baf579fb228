"""The OpenAPI 3.1 description of the JSON API (served at /api/openapi.json)."""
from __future__ import annotations

from typing import Any


def _json(schema: dict[str, Any] | None = None, description: str = "OK") -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": schema or {"type": "object"}}}}


ERROR = {"$ref": "#/components/schemas/Error"}
TOKEN = {"name": "token", "in": "path", "required": True, "schema": {"type": "string"},
         "description": "The game's unguessable token (from its link)."}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
PLAYER = {"name": "player", "in": "path", "required": True, "schema": {"type": "string"},
          "description": "The player's name (URL-encoded)."}
PIN = {"name": "X-Game-PIN", "in": "header", "required": False, "schema": {"type": "string"},
       "description": "Needed when the game was created with a PIN."}
PHOTO_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["photo"],
    "properties": {"photo": {"type": "string", "format": "binary", "description": "JPEG, PNG or WebP"},
                   "mode": {"type": "string", "enum": ["loose"],
                            "description": "Loose cards, no rows (Big Two games always read loose)"}}}}}}
ROUND = {"$ref": "#/components/schemas/Round"}
GAME_PARAMS = [TOKEN, PIN]
ROUND_PARAMS = [TOKEN, NUMBER, PIN]
HAND_PARAMS = [TOKEN, NUMBER, PLAYER, PIN]
FAIL = {"400": _json(ERROR, "Bad input"), "401": _json(ERROR, "PIN missing or wrong"),
        "404": _json(ERROR, "No such game, round or player"), "409": _json(ERROR, "Round is settled / not ready")}


HANDS_HELP = ("player -> Chinese poker: \"AS KS QS / … / …\", {\"surrender\": true} or {\"rows\": …, "
              "\"natural\": true}; Big Two: \"2S KD 5C\" (cards left), \"\" (went out), {\"cards\": …}, "
              "{\"out\": true} or {\"cards\": \"<the 13 dealt>\", \"instant_win\": true} (claims an instant win; "
              "the others then give the cards they were dealt)")
HAND_INPUT = {"type": "object", "properties": {
    "rows": {"type": "string", "description": "Chinese poker: \"AS KS QS / … / …\""},
    "surrender": {"type": "boolean"}, "natural": {"type": "boolean", "description": "Chinese poker: declare a natural"},
    "cards": {"type": ["string", "array"], "items": {"type": "string"},
              "description": "Big Two: the cards left (\"2S KD 5C\" or a list); with instant_win, the 13 dealt"},
    "out": {"type": "boolean", "description": "Big Two: went out (the winner, no cards)"},
    "instant_win": {"type": "boolean",
                    "description": "Big Two: claims an instant win (一條龍, four 2s when the rules pay it) with "
                                   "these cards or the ones entered; scoring's message when they make none"}}}
HAND = {"type": "object", "properties": {
    "player": {"type": "string"}, "state": {"enum": ["empty", "cards", "surrender", "out"]},
    "front": {"type": "array"}, "middle": {"type": "array"}, "back": {"type": "array"},
    "natural": {"type": "boolean"}, "cards": {"type": "array", "items": {"type": "string"},
                                              "description": "Big Two: cards left (an instant win: the 13 dealt)"},
    "instant_win": {"type": "boolean", "description": "Big Two: this player claims an instant win"},
    "source": {"type": ["string", "null"]}, "photo": {"type": ["string", "null"]},
    "warnings": {"type": "array"}}}
BIGTWO_ROUND = {
    "order": {"type": "array", "items": {"type": "string"}, "description": "Big Two: players, first place first"},
    "failed_to_block": {"type": ["string", "null"], "description": "Big Two: the player who failed to block (頂大)"},
}


def _op(summary: str, responses: dict[str, Any], params: list[dict[str, Any]] | None = None,
        body: dict[str, Any] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if params:
        op["parameters"] = params
    if body:
        op["requestBody"] = body
    return op


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def openapi_document(server_url: str) -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table scorer API", "version": "1.0",
                 "description": "Read card photos, settle Chinese-poker and Big Two rounds, keep games. "
                                "Game resources are reached through the game's unguessable token."},
        "servers": [{"url": server_url}],
        "paths": {
            "/healthz": {"get": _op("Liveness: database reachable, reader model present",
                                    {"200": _json(description="Healthy"), "503": _json(description="Unhealthy")})},
            "/api/openapi.json": {"get": _op("This document", {"200": _json()})},
            "/api/presets": {"get": _op("Rule presets and their options (scoring.list_presets)", {"200": _json()})},
            "/api/read": {"post": _op("Read one photo; returns the same object as `python -m vision read`",
                                      {"200": _json(description="The reading"), "400": _json(ERROR),
                                       "413": _json(ERROR, "Too large"), "415": _json(ERROR, "Not an image"),
                                       "503": _json(ERROR, "Reader model unavailable")}, body=PHOTO_BODY)},
            "/api/settle": {"post": _op("Settle a round given as `python -m scoring settle` input",
                                        {"200": _json(description="The settlement"), "400": _json(ERROR)},
                                        body=_json_body({"$ref": "#/components/schemas/RoundInput"}))},
            "/api/games": {
                "get": _op("Games this client created or opened (cookie session)", {"200": _json()}),
                "post": _op("Create a game", {"201": _json({"$ref": "#/components/schemas/Game"}),
                                              "400": _json(ERROR, "Invalid settings (scoring's messages)")},
                            body=_json_body({"$ref": "#/components/schemas/GameInput"})),
            },
            "/api/games/{token}": {"get": _op("A game with its rounds and standings", {"200": _json(), **FAIL},
                                              GAME_PARAMS)},
            "/api/games/{token}/export": {"get": _op("Everything about a game as JSON", {"200": _json(), **FAIL},
                                                     GAME_PARAMS)},
            "/api/games/{token}/rounds": {"post": _op(
                "New round (Idempotency-Key header: same key, same round); optional hands and settle",
                {"201": _json(ROUND, "Created"), "200": _json(ROUND, "Already created with this key"), **FAIL},
                GAME_PARAMS + [{"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}],
                {"required": False, "content": {"application/json": {"schema": {
                    "type": "object", "properties": {
                        "hands": {"type": "object", "description": HANDS_HELP}, "settle": {"type": "boolean"},
                        **BIGTWO_ROUND}}}}})},
            "/api/games/{token}/rounds/{number}": {
                "get": _op("A round: hands, warnings, settlement, history", {"200": _json(ROUND), **FAIL},
                           ROUND_PARAMS),
                "put": _op("Big Two: set the finishing order (points by place) and who failed to block (頂大)",
                           {"200": _json(ROUND), **FAIL}, ROUND_PARAMS,
                           _json_body({"type": "object", "properties": BIGTWO_ROUND}))},
            "/api/games/{token}/rounds/{number}/settle": {"post": _op(
                "Settle (settling a settled round changes nothing)", {"200": _json(ROUND), "422": _json(ERROR), **FAIL},
                ROUND_PARAMS)},
            "/api/games/{token}/rounds/{number}/reopen": {"post": _op(
                "Re-open a settled round for corrections", {"200": _json(ROUND), **FAIL}, ROUND_PARAMS)},
            "/api/games/{token}/rounds/{number}/hands/{player}": {"put": _op(
                "Set a hand: {\"rows\": \"AS KS QS / … / …\"}, {\"surrender\": true} or {\"natural\": true}; "
                "Big Two: {\"cards\": \"2S KD 5C\"} (cards left), {\"out\": true} (went out, the winner) or "
                "{\"instant_win\": true} (claims an instant win, with \"cards\": the 13 dealt or those entered)",
                {"200": _json(ROUND), **FAIL}, HAND_PARAMS, _json_body(HAND_INPUT))},
            "/api/games/{token}/rounds/{number}/hands/{player}/photo": {"post": _op(
                "Read a photo as this player's hand", {"201": _json(), "413": _json(ERROR), "415": _json(ERROR),
                                                      **FAIL}, HAND_PARAMS, PHOTO_BODY)},
            "/api/games/{token}/rounds/{number}/hands/{player}/webcam": {"post": _op(
                "Take a shot with the server's overhead webcam as this player's hand",
                {"201": _json(), "503": _json(ERROR, "No webcam"), **FAIL}, HAND_PARAMS)},
            "/api/games/{token}/rounds/{number}/hands/{player}/correct": {"post": _op(
                "Replace (or with no code, remove) one card", {"200": _json(ROUND), **FAIL}, HAND_PARAMS,
                _json_body({"type": "object", "required": ["row", "index"], "properties": {
                    "row": {"enum": ["front", "middle", "back", "cards"],
                            "description": "cards: a Big Two hand's cards left"}, "index": {"type": "integer"},
                    "code": {"type": "string"}}}))},
            "/api/games/{token}/rounds/{number}/hands/{player}/swap": {"post": _op(
                "Swap two rows", {"200": _json(ROUND), **FAIL}, HAND_PARAMS,
                _json_body({"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "string"}}}}))},
        },
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"],
                      "properties": {"error": {"type": "string"}, "status": {"type": "integer"}}},
            "RoundInput": {"type": "object", "required": ["rules", "players"], "properties": {
                "game": {"enum": ["chinese-poker", "bigtwo"]}, "rules": {"type": "string"}, "options": {"type": "object"},
                "players": {"type": ["object", "array"],
                            "description": "name -> hand; Big Two: cards left, \"\" (went out) or {\"cards\": "
                                           "\"<13 dealt>\", \"instant_win\": true}"},
                "banker": {"type": "string"}, "stakes": {"type": "object"}}},
            "GameInput": {"type": "object", "required": ["players", "rules"], "properties": {
                "title": {"type": "string"}, "players": {"type": "array", "minItems": 2, "maxItems": 4,
                                                         "items": {"type": "string"}},
                "game": {"enum": ["chinese-poker", "bigtwo"],
                         "description": "Left out: the game of the rules; the rules must be this game's"},
                "rules": {"type": "string"}, "options": {"type": "object"}, "stake": {"type": "string"},
                "pair_stakes": {"type": "object"}, "banker": {"type": "string"},
                "rotate_banker": {"type": "boolean"}, "pin": {"type": "string"}}},
            "Game": {"type": "object", "properties": {"token": {"type": "string"}, "url": {"type": "string"},
                                                      "game": {"enum": ["chinese-poker", "bigtwo"]}}},
            "Round": {"type": "object", "properties": {
                "number": {"type": "integer"}, "status": {"enum": ["open", "settled"]},
                "hands": {"type": "array", "items": HAND}, "ready": {"type": "boolean"}, "settlement": {"type": ["object", "null"]},
                "warnings": {"type": "array", "description": "What the round lacks (Big Two: winner, order)"},
                "events": {"type": "array"}, **BIGTWO_ROUND}},
        }},
    }
