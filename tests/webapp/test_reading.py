"""How the reader's JSON becomes rows and warnings on the review screen."""
from __future__ import annotations

from webapp.reader import summarise

CODES = "AS KS QS 2C 2D 9H 9S 4C 3H 4H 5H 6H 7H".split()


def _card(code: str, i: int, confidence: float = 0.95, row: str | None = None) -> dict:
    return {"code": code, "confidence": confidence, "box": [i * 10, 0, i * 10 + 8, 12], "row": row}


def test_rows_from_the_reader_are_kept():
    reading = {"cards": [_card(c, i) for i, c in enumerate(CODES)],
               "rows": {"front": CODES[:3], "middle": CODES[3:8], "back": CODES[8:]}, "warnings": ["w1"]}
    summary = summarise(reading)
    assert summary["rows"]["middle"] == CODES[3:8]
    assert summary["warnings"] == ["w1"]
    assert summary["cards"][0]["box"] == [0.0, 0.0, 8.0, 12.0]


def test_loose_reading_fills_rows_in_reading_order():
    summary = summarise({"cards": [_card(c, i) for i, c in enumerate(CODES)], "rows": None, "warnings": []})
    assert summary["rows"] == {"front": CODES[:3], "middle": CODES[3:8], "back": CODES[8:]}


def test_low_confidence_card_is_flagged_on_the_round(client):
    """A card read with low confidence is warned about while it stands, and not after it is corrected."""
    from webapp.db import get_session
    from webapp.models import Hand, Photo, Round, Upload
    from sqlalchemy import select
    from webapp_testkit import create_game, csrf_token, new_round

    token = create_game(client)
    number = new_round(client, token)
    reading = {"cards": [_card(c, i, 0.3 if c == "9H" else 0.97) for i, c in enumerate(CODES)],
               "rows": {"front": CODES[:3], "middle": CODES[3:8], "back": CODES[8:]}, "warnings": []}
    with client.application.app_context():
        db = get_session()
        rnd = db.scalars(select(Round)).one()
        db.add(Photo(sha256="0" * 64, content_type="image/jpeg", size=1))
        upload = Upload(round_id=rnd.id, player="Ann", photo_sha256="0" * 64, source="photo", reading=reading)
        db.add(upload)
        db.flush()
        hand = db.scalars(select(Hand).where(Hand.player == "Ann")).one()
        hand.state, hand.upload_id = "cards", upload.id
        hand.front, hand.middle, hand.back = CODES[:3], CODES[3:8], CODES[8:]
        db.commit()
    warnings = client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"][0]["warnings"]
    assert any("9H: the reader is not sure of it" in w["text"] and w["level"] == "warn" for w in warnings)
    # the round page marks that card's own tile, not only the note under the hand, and links it to the hand's page
    # with that card's picker open (app.js opens "#check-<code>")
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert (f'<a href="/g/{token}/r/{number}/p/0#check-9H" class="card red unsure" title="9H">9♥<i class="q">?</i></a>'
            in page)
    assert page.count('class="q">?</i>') == 1
    client.post(f"/g/{token}/r/{number}/p/0/correct",
                data={"csrf_token": csrf_token(client), "row": "middle", "index": "2", "code": "9D"})
    warnings = client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"][0]["warnings"]
    assert not any("not sure of it" in w["text"] for w in warnings)
    assert "unsure" not in client.get(f"/g/{token}/r/{number}").get_data(as_text=True).split('class="hands"')[1]


def test_read_slots_limit_how_many_photos_are_read_at_once(monkeypatch):
    import threading
    import time

    from webapp import reader
    from webapp_testkit import jpeg_bytes

    running, peak, lock = [0], [0], threading.Lock()

    def slow_read(data: bytes, loose: bool) -> dict:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return {"cards": [], "rows": None, "warnings": []}

    monkeypatch.setattr(reader, "_read", slow_read)
    photo = jpeg_bytes()
    for slots, expected_peak in ((1, 1), (2, 2)):
        peak[0] = 0
        threads = [threading.Thread(target=reader.read, args=(photo,), kwargs={"slots": slots}) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert peak[0] == expected_peak


def test_standings_chart_geometry():
    from webapp.chart import HEIGHT, standings_chart

    assert standings_chart(["A", "B"], []) is None
    series = [{"round": n, "points": {"A": 2.0 * n, "B": -2.0 * n}} for n in range(1, 31)]
    chart = standings_chart(["A", "B"], series)
    first_a = chart["lines"][0]["points"].split()[0]
    last_a = chart["lines"][0]["points"].split()[-1]
    assert float(last_a.split(",")[1]) < float(first_a.split(",")[1])  # A climbs (SVG y grows downwards)
    assert 0 < chart["zero"] < HEIGHT
    assert len(chart["ticks"]) <= 12 and chart["ticks"][-1]["label"] == 30


def test_blurred_photo_warning_is_shown_and_translated(client, monkeypatch):
    """The reader's 'photo looks blurred' reaches the review, in the reader's language, with its sharpness."""
    from vision.messages import BLURRED_WARNING
    from vision.sharpness import BLURRED_BELOW
    from webapp_testkit import csrf_token, warnings_after_reading

    sharp = f"{BLURRED_BELOW:g}"  # the threshold the reader states, whatever it is now

    reading = {"cards": [_card(c, i, 0.97) for i, c in enumerate(CODES[:12])], "rows": None,
               "warnings": ["left out unsure marks: 7H? (0.41)",
                            f"{BLURRED_WARNING} (index sharpness 12.3, sharp photos {sharp} or more): "
                            "check every card, or retake it steadier, in focus and closer"]}
    token, number, warnings = warnings_after_reading(client, monkeypatch, reading)
    blurred = [w for w in warnings if w.get("key") == "blurred"]
    assert len(blurred) == 1 and blurred[0]["level"] == "warn"
    assert blurred[0]["text"].startswith(
        f"The photo looks blurred (index sharpness 12.3, sharp photos {sharp} or more)")
    assert not any(w["text"].startswith("photo looks blurred") for w in warnings)  # not said twice
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert f"照片看來模糊（牌角清晰度 12.3，清晰的照片 {sharp} 以上）" in page


def test_a_moved_camera_warning_is_shown_and_translated(client, monkeypatch):
    """The reader's warning for a photo that shows a moved camera's smear reaches the review translated, with the
    smear's length; the text is the reader's own (made by its warning method), so a change of wording there fails."""
    import numpy as np

    from vision.motion import MotionLine
    from vision.reader import CardReader
    from webapp_testkit import csrf_token, warnings_after_reading

    flat = np.full((64, 64, 3), 128, np.uint8)  # no marks, no sharpness: only the line speaks
    said = CardReader._blur_warning(flat, [], MotionLine(length=24.4, angle=30.0, depth=6.0))
    reading = {"cards": [_card(c, i, 0.97) for i, c in enumerate(CODES[:13])], "rows": None, "warnings": [said]}
    token, number, warnings = warnings_after_reading(client, monkeypatch, reading)
    moved = [w for w in warnings if w.get("key") == "moved"]
    assert len(moved) == 1 and moved[0]["level"] == "warn"
    assert moved[0]["text"].startswith("The photo looks blurred (the camera moved: a smear of 24 px)")
    assert not any(w["text"] == said for w in warnings)  # restated, not also shown raw
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "照片看來模糊（拍照時相機移動了：拖影 24 像素）" in page


def test_the_review_flags_every_card_the_reader_would_not_call_sure():
    """Cards under the reader's sure threshold reach a hand only as fillers; the review must flag each of them."""
    from vision.results import LOW_CONFIDENCE as READER_LOW, MIN_CARD_CONFIDENCE
    from webapp.reader import LOW_CONFIDENCE

    assert LOW_CONFIDENCE == MIN_CARD_CONFIDENCE == READER_LOW


def test_the_reader_is_warmed_up_in_the_background_and_a_failure_is_only_logged(monkeypatch, caplog):
    import vision.reader

    from webapp.reader import warm_up_in_background

    class Reader:
        warmed = 0

        def warm_up(self):
            Reader.warmed += 1

    monkeypatch.setattr(vision.reader, "default_reader", lambda: Reader())
    with caplog.at_level("INFO", logger="webapp.reader"):
        warm_up_in_background().join(timeout=10)
    assert Reader.warmed == 1 and "card reader ready" in caplog.text

    def broken():
        raise vision.ModelError("model file not found: cards.onnx")

    monkeypatch.setattr(vision.reader, "default_reader", broken)
    with caplog.at_level("INFO", logger="webapp.reader"):
        thread = warm_up_in_background()
        thread.join(timeout=10)
    assert not thread.is_alive() and "could not be warmed up" in caplog.text
