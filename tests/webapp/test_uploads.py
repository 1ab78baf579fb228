"""Photo uploads: limits and bad images (nothing stored), content addressing, four phones at once."""
from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, select

from webapp.db import get_session
from webapp.models import Hand, Photo, RoundEvent, Upload

from webapp_testkit import create_game, csrf_token, jpeg_bytes, new_round


def _stored_files(app) -> list[Path]:
    return [p for p in Path(app.config["PHOTO_DIR"]).rglob("*") if p.is_file()]


def _count(app, model) -> int:
    with app.app_context():
        return get_session().scalar(select(func.count()).select_from(model))


def _post_photo(client, url: str, data: bytes, name: str = "hand.jpg", **form):
    body = {"csrf_token": csrf_token(client), "photo": (io.BytesIO(data), name), **form}
    return client.post(url, data=body, content_type="multipart/form-data", headers={"X-Requested-With": "fetch"})


@pytest.mark.parametrize("payload, status", [
    (b"", 400),
    (b"this is not an image at all", 415),
    (b"GIF89a" + b"\x00" * 64, 415),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 40, 400),  # JPEG signature, then garbage
])
def test_bad_images_get_a_4xx_and_are_not_stored(client, app, payload, status):
    token = create_game(client)
    number = new_round(client, token)
    response = _post_photo(client, f"/g/{token}/r/{number}/p/0/photo", payload)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.get_json()["error"]
    assert _stored_files(app) == [] and _count(app, Upload) == 0 and _count(app, Photo) == 0


def test_bad_image_on_the_plain_form_shows_the_message(client):
    token = create_game(client)
    number = new_round(client, token)
    body = {"csrf_token": csrf_token(client), "photo": (io.BytesIO(b"not an image"), "x.jpg")}
    response = client.post(f"/g/{token}/r/{number}/p/0/photo", data=body, content_type="multipart/form-data")
    assert response.status_code == 415
    assert 'id="error"' in response.get_data(as_text=True)


def test_upload_over_the_size_limit_is_refused(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 200_000
    token = create_game(client)
    number = new_round(client, token)
    response = _post_photo(client, f"/g/{token}/r/{number}/p/0/photo", b"\xff\xd8\xff" + b"\x00" * 300_000)
    assert response.status_code == 413
    assert "too large" in response.get_json()["error"]
    assert _stored_files(app) == []


def test_photo_is_stored_by_its_hash_and_served_only_to_its_game(client, app):
    import hashlib

    token = create_game(client)
    number = new_round(client, token)
    data = jpeg_bytes(seed=1)
    response = _post_photo(client, f"/g/{token}/r/{number}/p/0/photo", data)
    assert response.status_code == 200, response.get_data(as_text=True)
    digest = hashlib.sha256(data).hexdigest()
    files = _stored_files(app)
    assert [p.stem for p in files] == [digest] and files[0].read_bytes() == data
    assert client.get(f"/g/{token}/photo/{digest}").data == data
    other = create_game(client)
    assert client.get(f"/g/{other}/photo/{digest}").status_code == 404
    assert client.get(f"/g/{token}/photo/..%2F..%2Fsecret_key").status_code == 404
    page = client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    assert f"/photo/{digest}" in page and 'id="overlay"' in page


def test_same_photo_twice_is_stored_once(client, app):
    token = create_game(client)
    number = new_round(client, token)
    data = jpeg_bytes(seed=2)
    for seat in (0, 1):
        assert _post_photo(client, f"/g/{token}/r/{number}/p/{seat}/photo", data).status_code == 200
    assert len(_stored_files(app)) == 1 and _count(app, Photo) == 1 and _count(app, Upload) == 2


def test_four_phones_uploading_at_once_lose_nothing(app):
    """Four clients post different photos for four players of one round at the same moment."""
    setup = app.test_client()
    token = create_game(setup, players=("Ann", "Bob", "Cy", "Dee"))
    number = new_round(setup, token)
    photos = [jpeg_bytes(seed=10 + i) for i in range(4)]
    clients = [app.test_client() for _ in range(4)]
    tokens = [csrf_token(c) for c in clients]
    barrier = threading.Barrier(4)
    results: list[int] = [0] * 4

    def upload(i: int) -> None:
        body = {"csrf_token": tokens[i], "photo": (io.BytesIO(photos[i]), f"p{i}.jpg")}
        barrier.wait()
        response = clients[i].post(f"/g/{token}/r/{number}/p/{i}/photo", data=body,
                                   content_type="multipart/form-data", headers={"X-Requested-With": "fetch"})
        results[i] = response.status_code

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 4
    with app.app_context():
        db = get_session()
        uploads = db.scalars(select(Upload).order_by(Upload.player)).all()
        assert sorted(u.player for u in uploads) == ["Ann", "Bob", "Cy", "Dee"]
        hands = db.scalars(select(Hand).order_by(Hand.seat)).all()
        assert all(h.state == "cards" and h.upload_id is not None for h in hands)
        assert {h.upload.photo_sha256 for h in hands} == {u.photo_sha256 for u in uploads}
        assert db.scalar(select(func.count()).select_from(RoundEvent).where(RoundEvent.kind == "read")) == 4
    assert len(_stored_files(app)) == 4


def test_webcam_without_a_device_says_so(client, app):
    app.config["WEBCAM_DEVICE"] = "/dev/no-such-camera"
    token = create_game(client)
    number = new_round(client, token)
    response = client.post(f"/g/{token}/r/{number}/p/0/webcam", data={"csrf_token": csrf_token(client)},
                           headers={"X-Requested-With": "fetch"})
    assert response.status_code == 503
    assert "No overhead webcam found" in response.get_json()["error"]
    app.config["WEBCAM_DEVICE"] = ""
    response = client.post(f"/api/games/{token}/rounds/{number}/hands/Ann/webcam")
    assert response.status_code == 503 and "configured" in response.get_json()["error"]


def test_webcam_shot_from_a_video_device(client, app, tmp_path):
    """OpenCV's VideoCapture also opens video files: a recorded clip stands in for the camera."""
    import cv2
    import numpy as np

    clip = str(tmp_path / "overhead.avi")
    writer = cv2.VideoWriter(clip, cv2.VideoWriter_fourcc(*"MJPG"), 5, (320, 240))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(8):
        writer.write(np.full((240, 320, 3), 40 + i * 10, np.uint8))
    writer.release()
    app.config["WEBCAM_DEVICE"] = clip
    token = create_game(client)
    number = new_round(client, token)
    response = client.post(f"/g/{token}/r/{number}/p/1/webcam", data={"csrf_token": csrf_token(client)})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    hands = client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"]
    assert hands[1]["source"] == "webcam" and hands[1]["photo"]
