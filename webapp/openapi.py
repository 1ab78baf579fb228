"""The OpenAPI 3.1 description of the JSON API (served at /api/openapi.json).

It is also the API's input contract: webapp/validation.py checks every request's parameters and JSON body
against the operation's schemas here, so a schema says exactly what the code accepts. `x-error` on a schema
is the one-line message given when a value fails it. Each operation's schemas are written out in full below
(shared pieces are plain constants, never patched per operation)."""
from __future__ import annotations

from typing import Any


def _json(schema: dict[str, Any] | None = None, description: str = "OK") -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": schema or {"type": "object"}}}}


ERROR = {"$ref": "#/components/schemas/Error"}
TOKEN = {"name": "token", "in": "path", "required": True,
         "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z0-9_-]+$"},
         "description": "The game's unguessable token (from its link)."}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
NAME = {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "^[^/]+$"}
PLAYER = {"name": "player", "in": "path", "required": True, "schema": NAME,
          "description": "The player's name (URL-encoded)."}
PIN = {"name": "X-Game-PIN", "in": "header", "required": False,
       "schema": {"type": "string", "pattern": "^[0-9]{4,12}$", "x-error": "X-Game-PIN must be 4 to 12 digits."},
       "description": "The game's PIN, when it was created with one. Reads also work from a browser session that "
                      "unlocked the game; writes need this header (or, from that browser's own page, its CSRF "
                      "token in X-CSRF-Token)."}
IDEMPOTENCY_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
                   "schema": {"type": "string", "minLength": 1, "maxLength": 64},
                   "description": "The same key returns the same round instead of a second one."}
PHOTO_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["photo"], "x-error": "Send the photo as the multipart field 'photo'.",
    "properties": {"photo": {"type": "string", "format": "binary", "description": "JPEG, PNG or WebP"},
                   "mode": {"type": "string", "enum": ["", "strict", "loose"],
                            "x-error": "mode must be 'loose' (or left out).",
                            "description": "loose: loose cards, no rows (Big Two games always read loose); "
                                           "strict or left out: three rows"}}}}}}
ROUND = {"$ref": "#/components/schemas/Round"}
GAME_PARAMS = [TOKEN, PIN]
ROUND_PARAMS = [TOKEN, NUMBER, PIN]
HAND_PARAMS = [TOKEN, NUMBER, PLAYER, PIN]
# The live round (docs/webapp.md "Live round"): a round's strong ETag is "<round id>-<version>"; every change to a
# round accepts If-Match and answers 412 with what changed when the tag is not the round's current one.
IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string", "maxLength": 200},
            "description": "The round's ETag as this client last saw it (\"12-7\"); another tag: 412, nothing "
                           "changes. Left out: the change is made whatever the version."}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "schema": {"type": "string", "maxLength": 200},
                 "description": "The ETag last seen: 304 with no body while it is still current (cheap polling)."}
ACTOR = {"name": "X-Actor", "in": "header", "required": False, "schema": {"type": "string", "maxLength": 200},
         "description": "Who makes the change, shown in the round's change lines (default: the name the browser "
                        "chose on the game page, else \"Someone\")."}
ETAG_HEADER = {"ETag": {"description": "The current strong entity tag", "schema": {"type": "string"}}}
LIVE_ROUND_PARAMS = ROUND_PARAMS + [IF_MATCH, ACTOR]
# Criss cross (two 13-card sets per player): which set a hand request is about; every other game has set 1 only.
HAND_SET = {"name": "set", "in": "query", "required": False,
            "schema": {"type": "string", "enum": ["1", "2"], "x-error": "'set' must be 1 or 2."},
            "description": "Criss cross: the player's set, 1 (the default) or 2; other games deal one hand (set 1), "
                           "so set 2 is 404 there."}
LIVE_HAND_PARAMS = HAND_PARAMS + [HAND_SET, IF_MATCH, ACTOR]
STALE = {"412": _json({"$ref": "#/components/schemas/Stale"},
                      "If-Match named an older version: nothing changed; what changed since and the round now")}
NOT_MODIFIED = {"304": {"description": "Not modified since the If-None-Match tag (no body)", "headers": ETAG_HEADER}}
PLACE = {"type": "object", "required": ["row"], "additionalProperties": False, "properties": {
    "row": {"enum": ["front", "middle", "back", "cards"]}, "index": {"type": "integer", "minimum": 0, "maximum": 12}}}
FAIL = {"400": _json(ERROR, "Bad input"), "401": _json(ERROR, "PIN missing or wrong"),
        "404": _json(ERROR, "No such game, round or player"), "409": _json(ERROR, "Round is settled / not ready"),
        "413": _json(ERROR, "Body too large"), "429": _json(ERROR, "Too many wrong PINs, or too many requests, from this client (Retry-After)")}

CARD = {"type": "string", "minLength": 1, "maxLength": 8, "description": "A card code: rank then suit (AS, TD, 7h)"}
CARD_LIST = {"type": "array", "items": CARD, "maxItems": 13}
ROWS_TEXT = {"type": "string", "maxLength": 200, "description": "Chinese poker: \"AS KS QS / … / …\""}
CARDS_TEXT = {"type": "string", "maxLength": 200, "description": "Big Two: the cards left, \"2S KD 5C\""}
ROW_NAME = {"enum": ["front", "middle", "back"]}
ORDER = {"type": ["array", "null"], "items": NAME, "maxItems": 4, "x-error": "'order' must be the list of players, "
         "first place first.", "description": "Big Two: players, first place first"}
FAILED_TO_BLOCK = {"type": ["string", "null"], "maxLength": 40,
                   "description": "Big Two: the player who failed to block (頂大)"}
DECIMAL = {"type": ["string", "number"], "maxLength": 32, "pattern": r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$",
           "x-error": "An amount must be a decimal number (at most 32 characters), e.g. 1 or 0.5."}

HANDS_HELP = ("player -> Chinese poker: \"AS KS QS / … / …\", {\"surrender\": true} or {\"rows\": …, "
              "\"natural\": true}; criss cross: {\"sets\": [first hand, second hand]}; Big Two: \"2S KD 5C\" "
              "(cards left), \"\" (went out), {\"cards\": …}, {\"out\": true} or {\"cards\": \"<the 13 dealt>\", "
              "\"instant_win\": true} (claims an instant win; the others then give the cards they were dealt)")
HAND_INPUT = {"type": "object", "additionalProperties": False, "properties": {
    "rows": ROWS_TEXT,
    "front": CARD_LIST, "middle": CARD_LIST, "back": CARD_LIST,
    "surrender": {"type": "boolean"},
    "natural": {"type": "boolean", "x-error": "natural must be true or false, not {value}.",
                "description": "Chinese poker: declare a natural"},
    "cards": {"anyOf": [CARDS_TEXT, CARD_LIST],
              "description": "Big Two: the cards left (\"2S KD 5C\" or a list); with instant_win, the 13 dealt"},
    "out": {"type": "boolean", "description": "Big Two: went out (the winner, no cards)"},
    "instant_win": {"type": "boolean", "x-error": "instant_win must be true or false, not {value}.",
                    "description": "Big Two: claims an instant win (一條龍, four 2s when the rules pay it) with "
                                   "these cards or the ones entered; scoring's message when they make none"}}}
SETS_INPUT = {"type": "object", "required": ["sets"], "additionalProperties": False, "properties": {
    "sets": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"anyOf": [ROWS_TEXT, HAND_INPUT]},
             "x-error": "'sets' must be the player's two hands, [first, second].",
             "description": "Criss cross: the player's two hands, each as a hand is given"}}}
HAND_ENTRY = {"anyOf": [ROWS_TEXT, CARD_LIST, HAND_INPUT, SETS_INPUT]}
NEW_ROUND_INPUT = {"type": "object", "additionalProperties": False, "properties": {
    "hands": {"type": "object", "maxProperties": 4, "propertyNames": NAME, "additionalProperties": HAND_ENTRY,
              "description": HANDS_HELP},
    "settle": {"type": "boolean"}, "idempotency_key": {"type": "string", "minLength": 1, "maxLength": 64},
    "order": ORDER, "failed_to_block": FAILED_TO_BLOCK}}
HAND = {"type": "object", "required": ["player", "state"], "properties": {
    "player": {"type": "string"}, "state": {"enum": ["empty", "cards", "surrender", "out"]},
    "set": {"enum": [1, 2], "description": "Chinese poker: the player's set (criss cross deals two; else 1)"},
    "front": {"type": "array", "items": {"type": "string"}}, "middle": {"type": "array", "items": {"type": "string"}},
    "back": {"type": "array", "items": {"type": "string"}},
    "natural": {"type": "boolean"}, "cards": {"type": "array", "items": {"type": "string"},
                                              "description": "Big Two: cards left (an instant win: the 13 dealt)"},
    "instant_win": {"type": "boolean", "description": "Big Two: this player claims an instant win"},
    "source": {"type": ["string", "null"]}, "photo": {"type": ["string", "null"]},
    "warnings": {"type": "array"},
    "foul": {"type": ["object", "null"], "description": "Chinese poker: {\"reason\", \"fix\": {front, middle, "
                                                     "back}} when the rows are out of order, else null"},
    "natural_detected": {"type": ["string", "null"], "description": "The natural the 13 cards make, or null"},
    "missing": {"type": "array", "items": {"type": "string"},
                "description": "What the hand still lacks before settling (empty: ready)"}}}
GAME_KIND = {"enum": ["chinese-poker", "bigtwo"],
             "x-error": "Unknown game {value}; choose one of: chinese-poker, bigtwo."}


# A photo stored and queued for a reading job (REDIS_URL): the round's version changes once it is read.
QUEUED = {"description": "Stored; a reading job will read it (the round's version changes when it is read)",
          "content": {"application/json": {"schema": {
              "type": "object", "required": ["reading", "round"],
              "properties": {"reading": {"type": "object", "required": ["job"]}, "round": {"type": "object"}}}}}}


def _op(summary: str, responses: dict[str, Any], params: list[dict[str, Any]] | None = None,
        body: dict[str, Any] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if params:
        op["parameters"] = params
    if body:
        op["requestBody"] = body
    return op


def _json_body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _preset_names() -> list[str]:
    from webapp import rules

    return sorted(rules.presets())


def _components() -> dict[str, Any]:
    presets = _preset_names()
    return {"schemas": {
        "Change": {"type": "object", "required": ["text", "by", "at", "version"], "properties": {
            "text": {"type": "string", "description": "\"Bob moved 7♠ from Ann's middle to back\""},
            "by": {"type": "string"}, "at": {"type": "string"}, "version": {"type": ["integer", "null"]},
            "player": {"type": ["string", "null"], "description": "Whose hand it touched (null: the round)"}}},
        "Stale": {"type": "object", "required": ["error", "status", "changes", "round"], "properties": {
            "error": {"type": "string"}, "status": {"const": 412},
            "changes": {"type": "array", "items": {"$ref": "#/components/schemas/Change"},
                        "description": "What changed since the If-Match version, newest first"},
            "round": ROUND}},
        "Error": {"type": "object", "required": ["error"],
                  "properties": {"error": {"type": "string"}, "status": {"type": "integer"},
                                 "errors": {"type": "array", "items": {"type": "string"}}}},
        "RoundInput": {"type": "object", "required": ["rules", "players"], "properties": {
            "game": GAME_KIND, "rules": {"type": "string", "maxLength": 40}, "options": {"type": "object"},
            "players": {"type": ["object", "array"], "maxProperties": 8, "maxItems": 8,
                        "description": "name -> hand; Big Two: cards left, \"\" (went out) or {\"cards\": "
                                       "\"<13 dealt>\", \"instant_win\": true}"},
            "banker": {"type": "string", "maxLength": 40}, "stakes": {"type": "object"}}},
        "GameInput": {"type": "object", "required": ["players", "rules"], "additionalProperties": False,
                      "properties": {
            "title": {"type": "string", "maxLength": 100,
                      "x-error": "The game's name must be a text of at most 100 characters."},
            "players": {"type": "array", "minItems": 2, "maxItems": 4, "x-error": "A game needs 2 to 4 players.",
                        "items": {**NAME, "x-error": "Player names must be at most 40 characters, without '/'."}},
            "game": {**GAME_KIND, "description": "Left out: the game of the rules; the rules must be this game's"},
            "rules": {"enum": presets, "x-error": f"Unknown rules {{value}}; choose one of: {', '.join(presets)}."},
            "options": {"type": "object", "maxProperties": 64}, "stake": DECIMAL,
            "pair_stakes": {"anyOf": [
                {"type": "object", "maxProperties": 6, "additionalProperties": DECIMAL,
                 "description": "\"Ann-Bob\" -> stake per point"},
                {"type": "array", "maxItems": 6, "items": {
                    "type": "object", "required": ["players"], "additionalProperties": False, "properties": {
                        "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
                        "per_point": DECIMAL}}}]},
            "banker": {**NAME, "type": ["string", "null"]}, "rotate_banker": {"type": "boolean"},
            "pin": {"type": ["string", "null"], "pattern": "^([0-9]{4,12})?$",
                    "x-error": "The PIN must be 4 to 12 digits."}}},
        "Game": {"type": "object", "required": ["token", "game", "rules", "players"], "properties": {
            "token": {"type": "string"}, "url": {"type": "string"}, "title": {"type": "string"}, "game": GAME_KIND,
            "rules": {"type": "string"}, "options": {"type": "object"},
            "players": {"type": "array", "items": {"type": "string"}}, "stake": {"type": "string"},
            "pair_stakes": {"type": "array"}, "banker": {"type": ["string", "null"]},
            "rotate_banker": {"type": "boolean"}, "pin": {"type": "boolean", "description": "Has a PIN"},
            "created_at": {"type": "string"}}},
        "GameDetail": {"allOf": [{"$ref": "#/components/schemas/Game"}, {
            "type": "object", "required": ["rounds", "standings", "settle_up"], "properties": {
                "rounds": {"type": "array", "items": {
                    "type": "object", "required": ["number", "status"], "properties": {
                        "number": {"type": "integer"}, "status": {"enum": ["open", "settled"]},
                        "banker": {"type": ["string", "null"]}, "net": {"type": ["object", "null"]}}}},
                "standings": {"$ref": "#/components/schemas/Standings"},
                "settle_up": {"$ref": "#/components/schemas/SettleUp"}}}]},
        "SettleUp": {"type": "array", "description": "Who pays whom for the whole game: the transfers marked paid, "
                     "then the fewest transfers settling the rest (exact amounts as text)", "items": {
            "type": "object", "required": ["from", "to", "amount", "paid"], "additionalProperties": False,
            "properties": {"from": {"type": "string"}, "to": {"type": "string"},
                           "amount": {"type": "string", "description": "\"15\", \"1.5\" or \"2/3 (≈0.67)\""},
                           "paid": {"type": "boolean"}}}},
        "Standings": {"type": "object", "required": ["players", "points", "money", "series"], "properties": {
            "players": {"type": "array", "items": {"type": "string"}}, "points": {"type": "object"},
            "money": {"type": "object"}, "series": {"type": "array"}}},
        "Round": {"type": "object", "required": ["number", "status", "hands"], "properties": {
            "number": {"type": "integer"}, "status": {"enum": ["open", "settled"]},
            "banker": {"type": ["string", "null"]}, "revision": {"type": "integer"},
            "hands": {"type": "array", "items": HAND}, "ready": {"type": "boolean"},
            "settlement": {"type": ["object", "null"]},
            "warnings": {"type": "array", "description": "What the round lacks (Big Two: winner, order)"},
            "finish_order": {"type": ["array", "null"], "items": {"type": "string"},
                             "description": "Big Two: players, first place first"},
            "failed_to_block": FAILED_TO_BLOCK,
            "version": {"type": "integer", "description": "Bumped by every change (the ETag's second part)"},
            "etag": {"type": "string", "description": "The ETag header's value, \"<round id>-<version>\""},
            "changes": {"type": "array", "description": "The last 20 change lines, newest first",
                        "items": {"$ref": "#/components/schemas/Change"}},
            "undo": {"type": ["object", "null"], "properties": {"text": {"type": "string"}},
                     "description": "What an undo would revert now, or null"},
            "uploads": {"type": "array"}, "events": {"type": "array"},
            "created_at": {"type": "string"}, "settled_at": {"type": ["string", "null"]}}},
    }}


def _table_paths() -> dict[str, Any]:
    from webapp.table_openapi import table_paths  # written beside the views it describes (webapp/views/table.py)

    return table_paths()


def openapi_document(server_url: str) -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table scorer API", "version": "1.0",
                 "description": "Read card photos, settle Chinese-poker and Big Two rounds, keep games. "
                                "Game resources are reached through the game's unguessable token. JSON bodies: "
                                "at most 64 KB and 32 levels deep; a body that does not match its schema gets 400."},
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
                                        {"200": _json(description="The settlement"), "400": _json(ERROR),
                                         "413": _json(ERROR, "Body too large")},
                                        body=_json_body({"$ref": "#/components/schemas/RoundInput"}))},
            "/api/games": {
                "get": _op("Games this client created or opened (cookie session)", {"200": _json({
                    "type": "object", "required": ["games"],
                    "properties": {"games": {"type": "array", "items": {"$ref": "#/components/schemas/Game"}}}})}),
                "post": _op("Create a game", {"201": _json({"$ref": "#/components/schemas/Game"}),
                                              "400": _json(ERROR, "Invalid settings (every problem in 'errors')"),
                                              "413": _json(ERROR, "Body too large")},
                            body=_json_body({"$ref": "#/components/schemas/GameInput"})),
            },
            "/api/games/{token}": {"get": _op("A game with its rounds and standings (ETag; If-None-Match: 304)",
                                              {"200": {**_json({"$ref": "#/components/schemas/GameDetail"}),
                                                       "headers": ETAG_HEADER},
                                               **NOT_MODIFIED, **FAIL}, GAME_PARAMS + [IF_NONE_MATCH])},
            "/api/games/{token}/export": {"get": _op("Everything about a game as JSON", {"200": _json({
                "type": "object", "required": ["game", "rounds", "standings", "settle_up"], "properties": {
                    "game": {"$ref": "#/components/schemas/Game"}, "rounds": {"type": "array", "items": ROUND},
                    "standings": {"$ref": "#/components/schemas/Standings"},
                    "settle_up": {"$ref": "#/components/schemas/SettleUp"}}}), **FAIL}, GAME_PARAMS)},
            "/api/games/{token}/rounds": {"post": _op(
                "New round (Idempotency-Key header: same key, same round); optional hands and settle",
                {"201": _json(ROUND, "Created"), "200": _json(ROUND, "Already created with this key"), **FAIL},
                GAME_PARAMS + [IDEMPOTENCY_KEY], _json_body(NEW_ROUND_INPUT, required=False))},
            "/api/games/{token}/rounds/{number}": {
                "get": _op("A round: hands, warnings, settlement, history, change lines (ETag; If-None-Match: 304)",
                           {"200": {**_json(ROUND), "headers": ETAG_HEADER}, **NOT_MODIFIED, **FAIL},
                           ROUND_PARAMS + [IF_NONE_MATCH]),
                "put": _op("Big Two: set the finishing order (points by place) and who failed to block (頂大)",
                           {"200": _json(ROUND), **STALE, **FAIL}, LIVE_ROUND_PARAMS,
                           _json_body({"type": "object", "additionalProperties": False,
                                       "properties": {"order": ORDER, "failed_to_block": FAILED_TO_BLOCK}}))},
            "/api/games/{token}/rounds/{number}/settle": {"post": _op(
                "Settle (settling a settled round changes nothing)",
                {"200": _json(ROUND), "422": _json(ERROR), **STALE, **FAIL}, LIVE_ROUND_PARAMS)},
            "/api/games/{token}/rounds/{number}/undo": {"post": _op(
                "Undo the last change in the round not yet undone (each undo walks one change further back; "
                "settling and re-opening are not undone)", {"200": _json(ROUND), **STALE, **FAIL}, LIVE_ROUND_PARAMS)},
            "/api/games/{token}/rounds/{number}/reopen": {"post": _op(
                "Re-open a settled round for corrections", {"200": _json(ROUND), **STALE, **FAIL},
                LIVE_ROUND_PARAMS)},
            "/api/games/{token}/rounds/{number}/hands/{player}": {"put": _op(
                "Set a hand: {\"rows\": \"AS KS QS / … / …\"}, {\"surrender\": true} or {\"natural\": true}; "
                "Big Two: {\"cards\": \"2S KD 5C\"} (cards left), {\"out\": true} (went out, the winner) or "
                "{\"instant_win\": true} (claims an instant win, with \"cards\": the 13 dealt or those entered)",
                {"200": _json(ROUND), **STALE, **FAIL}, LIVE_HAND_PARAMS, _json_body(HAND_INPUT))},
            "/api/games/{token}/rounds/{number}/hands/{player}/photo": {"post": _op(
                "Read a photo as this player's hand", {"201": _json({
                    "type": "object", "required": ["reading", "round"],
                    "properties": {"reading": {"type": "object"}, "round": ROUND}}), "202": QUEUED,
                    "415": _json(ERROR), **STALE, **FAIL}, LIVE_HAND_PARAMS, PHOTO_BODY)},
            "/api/games/{token}/rounds/{number}/hands/{player}/webcam": {"post": _op(
                "Take a shot with the server's overhead webcam as this player's hand",
                {"201": _json({"type": "object", "required": ["reading", "round"],
                               "properties": {"reading": {"type": "object"}, "round": ROUND}}),
                 "202": QUEUED, "503": _json(ERROR, "No webcam"), **STALE, **FAIL}, LIVE_HAND_PARAMS)},
            "/api/games/{token}/rounds/{number}/hands/{player}/correct": {"post": _op(
                "Replace (or with no code, remove) one card", {"200": _json(ROUND), **STALE, **FAIL}, LIVE_HAND_PARAMS,
                _json_body({"type": "object", "required": ["row", "index"], "additionalProperties": False,
                            "properties": {
                    "row": {"enum": ["front", "middle", "back", "cards"],
                            "description": "cards: a Big Two hand's cards left"},
                    "index": {"type": "integer", "minimum": 0, "maximum": 12,
                              "x-error": "'index' must be the card's position in its row (0-based)."},
                    "code": {"type": ["string", "null"], "maxLength": 8,
                             "description": "The right card; left out, null or \"\": remove the card"}}}))},
            "/api/games/{token}/rounds/{number}/hands/{player}/swap": {"post": _op(
                "Swap two rows", {"200": _json(ROUND), **STALE, **FAIL}, LIVE_HAND_PARAMS,
                _json_body({"type": "object", "required": ["rows"], "additionalProperties": False, "properties": {
                    "rows": {"type": "array", "items": ROW_NAME, "minItems": 2, "maxItems": 2,
                             "x-error": "'rows' must name two rows, e.g. [\"front\", \"middle\"]."}}}))},
            "/api/games/{token}/rounds/{number}/hands/{player}/move": {"post": _op(
                "Move one card to another row or slot (no \"to\" index: the end of that row)",
                {"200": _json(ROUND), **STALE, **FAIL}, LIVE_HAND_PARAMS,
                _json_body({"type": "object", "required": ["from", "to"], "additionalProperties": False,
                            "properties": {"from": {**PLACE, "required": ["row", "index"]}, "to": PLACE}}))},
            "/api/games/{token}/rounds/{number}/hands/{player}/swap-cards": {"post": _op(
                "Swap two cards of the hand", {"200": _json(ROUND), **STALE, **FAIL}, LIVE_HAND_PARAMS,
                _json_body({"type": "object", "required": ["a", "b"], "additionalProperties": False,
                            "properties": {"a": {**PLACE, "required": ["row", "index"]},
                                           "b": {**PLACE, "required": ["row", "index"]}}}))},
            "/api/games/{token}/rounds/{number}/hands/{player}/fix": {"post": _op(
                "Rearrange a fouled hand as its legal fix (scoring's, worked out again; 409 when not fouled)",
                {"200": _json(ROUND), **STALE, **FAIL}, LIVE_HAND_PARAMS)},
            **_table_paths(),
        },
        "components": _components(),
    }
