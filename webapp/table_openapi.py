"""The table-photo operations of /api/openapi.json (webapp/views/table.py), merged into webapp.openapi's paths."""
from __future__ import annotations

from typing import Any

from webapp.openapi import (ERROR, FAIL, GAME_PARAMS, LIVE_ROUND_PARAMS, NAME, ROUND, STALE, _json, _json_body, _op)

SEAT = {"type": "string", "pattern": "^[0-3]$"}
SEATS = {"type": "object", "maxProperties": 4, "propertyNames": SEAT,
         "additionalProperties": {"anyOf": [NAME, {"const": ""}]},
         "x-error": "'seats' must map seat numbers 0-3 (0 bottom, 1 left, 2 top, 3 right) to players (\"\": nobody).",
         "description": "Seat of the photo (0 bottom, 1 left, 2 top, 3 right: clockwise from the photo's bottom "
                        "edge) -> the player sitting there, \"\" for nobody"}
UPLOAD = {"name": "upload", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
          "description": "The table photo's upload id (from the photo's answer)"}
TABLE_HAND = {"type": "object", "required": ["seat", "side", "cards"], "properties": {
    "seat": {"type": "integer"}, "side": {"enum": ["bottom", "left", "top", "right"]},
    "cards": {"type": "integer", "description": "Cards read in this seat's hand"},
    "outline": {"type": ["array", "null"], "items": {"type": "number"},
                "description": "x0, y0, x1, y1 of the hand on the photo"}}}
TABLE_RESULT = {"type": "object", "required": ["upload", "needs_seats", "seats", "hands", "warnings", "round"],
                "properties": {
    "upload": {"type": "integer", "description": "The table photo's upload id"},
    "status": {"enum": ["queued", "reading", "read"], "description": "queued or reading: a reading job has it "
                                                                   "(REDIS_URL); the round changes when it is read"},
    "needs_seats": {"type": "boolean", "description": "true: the game does not know who sits at a seat with a "
                                                      "hand; nothing was filled (send the seats)"},
    "seats": {"type": "object", "description": "The game's seats now; with needs_seats, a proposal"},
    "hands": {"type": "array", "items": TABLE_HAND},
    "warnings": {"type": "array", "items": {"type": "string"}, "description": "The photo's own warnings"},
    "table": {"type": ["object", "null"], "description": "What the fill did: filled {player: cards}, skipped "
                                                        "(hands not used, with why), empty_seats"},
    "round": ROUND}}
TABLE_PHOTO_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["photo"], "x-error": "Send the photo as the multipart field 'photo'.",
    "properties": {"photo": {"type": "string", "format": "binary", "description": "JPEG, PNG or WebP"},
                   "seats": {"type": "string", "maxLength": 400,
                             "description": "Optional JSON {\"0\": \"Ann\", …}: who sits where (remembered for the "
                                            "game); left out: the game's remembered seats"}}}}}}
READ_REFUSED = {"415": _json(ERROR, "Not an image"), "422": _json(ERROR, "No hand found on the photo"),
                "503": _json(ERROR, "Reader model or webcam unavailable")}


def table_paths() -> dict[str, Any]:
    filled = {"201": _json(TABLE_RESULT, "Read and filled"),
              "202": _json(TABLE_RESULT, "Kept: the seats are needed (needs_seats), or a reading job reads it (status)")}
    return {
        "/api/games/{token}/rounds/{number}/table-photo": {"post": _op(
            "Read one photo of the whole table (Big Two: the cards left, one group per seat) and fill every "
            "player's hand by the game's seats", {**filled, **READ_REFUSED, **STALE, **FAIL}, LIVE_ROUND_PARAMS,
            TABLE_PHOTO_BODY)},
        "/api/games/{token}/rounds/{number}/table-webcam": {"post": _op(
            "Take a shot of the whole table with the server's overhead webcam and fill the hands as table-photo",
            {**filled, **READ_REFUSED, **STALE, **FAIL}, LIVE_ROUND_PARAMS)},
        "/api/games/{token}/rounds/{number}/table-photo/{upload}/seats": {"post": _op(
            "Say who sits where on a table photo (remembered for the game) and fill the hands from it",
            {"200": _json(TABLE_RESULT), **STALE, **FAIL}, LIVE_ROUND_PARAMS + [UPLOAD],
            _json_body({"type": "object", "required": ["seats"], "additionalProperties": False,
                        "properties": {"seats": SEATS}}))},
        "/api/games/{token}/table-seats": {
            "get": _op("The game's seats for table photos (null: not known yet)",
                       {"200": _json({"type": "object", "required": ["seats"],
                                      "properties": {"seats": {"type": ["object", "null"]}}}), **FAIL}, GAME_PARAMS),
            "put": _op("Set the game's seats for table photos, or forget them (null)",
                       {"200": _json({"type": "object", "required": ["seats"],
                                      "properties": {"seats": {"type": ["object", "null"]}}}), **FAIL}, GAME_PARAMS,
                       _json_body({"type": "object", "required": ["seats"], "additionalProperties": False,
                                   "properties": {"seats": {**SEATS, "type": ["object", "null"]}}}))},
    }
