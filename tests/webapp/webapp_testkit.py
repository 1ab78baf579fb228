"""Helpers for the web app tests: CSRF tokens, a game, a round, sample photos, hands."""
from __future__ import annotations

import re

import cv2
import numpy as np

# Two complete, valid, non-overlapping 13-card hands (front / middle / back), no naturals.
ANN = "2S 7H 9D / 3C 3D 8S JH KC / 4H 5H 6C 7C 8D"
BOB = "QS QD 5S / 2H 2D 9C 9H KH / TS TD TH AS AD"
CY = "2C 3H 5C / 6S 6H 8C 9S KD / JS JD JC 4D 4S"
DEE = "3S 5D 8H / 7D 7S 4C 6D TC / QC QH KS AC AH"


def csrf_token(client, path: str = "/") -> str:
    html = client.get(path).get_data(as_text=True)
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def jpeg_bytes(width: int = 640, height: int = 480, seed: int = 0) -> bytes:
    """A real JPEG (random texture, different per seed) that OpenCV and the reader can decode."""
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 255, (height // 8, width // 8, 3), dtype=np.uint8)
    image = cv2.resize(image, (width, height), interpolation=cv2.INTER_NEAREST)
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    return buf.tobytes()


def browser_defaults(preset: str) -> dict[str, str]:
    """What a browser sends for the preset's ticked-by-default checkboxes."""
    import scoring

    options = scoring.list_presets()[preset]["options"]
    return {f"opt-{preset}-{name}": "1" for name, spec in options.items() if spec.get("default") is True}


def create_game(client, players=("Ann", "Bob"), preset: str = "2-4", **extra) -> str:
    """Create a game through the form (as a browser would submit it); returns its token."""
    form = {"csrf_token": csrf_token(client, "/games/new"), "title": "Test table", "preset": preset, "stake": "1",
            **browser_defaults(preset)}
    for i, name in enumerate(players, start=1):
        form[f"player{i}"] = name
    form.update(extra)
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].rstrip("/").split("/g/")[1]


def new_round(client, token: str, key: str = "k1") -> int:
    response = client.post(f"/g/{token}/rounds", data={"csrf_token": csrf_token(client), "create_key": key})
    assert response.status_code == 303
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def enter_rows(client, token: str, number: int, seat: int, rows: str):
    return client.post(f"/g/{token}/r/{number}/p/{seat}/manual", data={"csrf_token": csrf_token(client), "rows": rows})


def reading_of(rows: dict[str, list[str]], warnings: list[str], confidence: float = 0.97) -> dict:
    """A reader's JSON for a hand read in `rows` (Big Two: {"cards": [...]}, read loose), each card named surely."""
    placed = [(row, code) for row, codes in rows.items() for code in codes]
    loose = list(rows) == ["cards"]
    cards = [{"code": code, "confidence": confidence, "box": [i * 40, 10, i * 40 + 30, 50],
              "row": None if loose else row} for i, (row, code) in enumerate(placed)]
    return {"cards": cards, "rows": None if loose else rows, "warnings": warnings}


def hand_read_from_photo(client, monkeypatch, reading: dict, token: str | None = None,
                         seat: int = 0) -> tuple[str, int]:
    """A new round's hand at `seat` read from a photo whose reading is `reading` (a new game unless `token`): the
    game's token and the round's number."""
    import io

    from webapp import reader

    monkeypatch.setattr(reader, "_read", lambda data, loose: reading)
    token = token or create_game(client)
    number = new_round(client, token)
    response = client.post(f"/g/{token}/r/{number}/p/{seat}/photo", data={
        "csrf_token": csrf_token(client), "photo": (io.BytesIO(jpeg_bytes()), "x.jpg")},
        content_type="multipart/form-data")
    assert response.status_code == 303
    return token, number


def warnings_after_reading(client, monkeypatch, reading: dict) -> tuple[str, int, list[dict]]:
    """A new game's first hand read from a photo whose reading is `reading`: its token, round and review warnings."""
    token, number = hand_read_from_photo(client, monkeypatch, reading)
    warnings = client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"][0]["warnings"]
    return token, number, warnings


def round_etag(client, token: str, number: int) -> str:
    """The round's current ETag, as a live page's forms send it back (if_match)."""
    return client.get(f"/api/games/{token}/rounds/{number}").headers["ETag"]


def qr_text(image) -> str:
    """What a QR code in `image` says, by OpenCV: its classic detector, then its ArUco-based one (the classic one
    misses about 1 code in 30 of our links; a phone's scanner reads them all)."""
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    if not text:
        text, _points, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    return text
