"""Decks cut out of real photos of single cards (vision.synth.photo_decks): the cut, the deck, validation only."""
from __future__ import annotations

import argparse
import json

import cv2
import numpy as np
import pytest

from vision.synth import decks
from vision.evaluation.datasets import DEFAULT_DEV_PHOTOS
from vision.synth.decks import CARD_HEIGHT, PHOTO_DECKS, DeckError
from vision.synth.photo_decks import build_photo_deck, cut_out_card

CARD_W, CARD_H = 250, 350


def card_photo(angle: float, table: tuple[int, int, int] = (150, 165, 170)) -> np.ndarray:
    """A 800x600 photo of a light card turned by `angle` on a plain table, with a big mark in the card's top-left
    corner and a small one in its top-right corner (so a mirrored cut shows)."""
    card = np.full((CARD_H, CARD_W, 3), 235, np.uint8)
    card[20:80, 15:55] = (20, 20, 200)  # big mark, top left
    card[20:40, CARD_W - 35:CARD_W - 15] = (200, 20, 20)  # small mark, top right
    photo = np.full((600, 800, 3), table, np.uint8)
    warp = cv2.getRotationMatrix2D((CARD_W / 2, CARD_H / 2), angle, 1.0)
    warp[:, 2] += (400 - CARD_W / 2, 300 - CARD_H / 2)
    mask = cv2.warpAffine(np.full((CARD_H, CARD_W), 255, np.uint8), warp, (800, 600))
    turned = cv2.warpAffine(card, warp, (800, 600))
    photo[mask > 127] = turned[mask > 127]
    return photo


def corner_marks(face: np.ndarray) -> dict[str, float]:
    """Share of strongly coloured pixels in each corner region of a face."""
    h, w = face.shape[:2]
    coloured = (face[:, :, :3].max(axis=2).astype(int) - face[:, :, :3].min(axis=2)) > 100
    regions = {"tl": coloured[:h // 4, :w // 4], "tr": coloured[:h // 4, -w // 4:],
               "bl": coloured[-h // 4:, :w // 4], "br": coloured[-h // 4:, -w // 4:]}
    return {name: float(region.mean()) for name, region in regions.items()}


@pytest.mark.parametrize("angle", [0.0, 17.0, 90.0, 133.0, 200.0, -70.0])
def test_a_turned_card_is_cut_out_upright_and_not_mirrored(angle):
    face, share = cut_out_card(card_photo(angle))
    assert face.shape[0] == CARD_HEIGHT and face.shape[2] == 4
    assert abs(face.shape[1] / face.shape[0] - CARD_W / CARD_H) < 0.02
    assert abs(share - CARD_W * CARD_H / (800 * 600)) < 0.02
    marks = corner_marks(face)
    big, small = ("tl", "tr") if marks["tl"] > marks["br"] else ("br", "bl")  # upright, or turned half round
    assert marks[big] > 0.08 and marks[small] > 0.01  # the big mark's corner and, beside it, the small one's
    others = set(marks) - {big, small}
    assert all(marks[name] < 0.005 for name in others)


def test_a_photo_without_a_card_shaped_outline_is_refused():
    with pytest.raises(DeckError, match="card-shaped"):
        cut_out_card(np.full((600, 800, 3), 200, np.uint8))
    square = np.full((600, 800, 3), 60, np.uint8)
    square[100:500, 200:600] = 240  # light, but square
    with pytest.raises(DeckError, match="card-shaped"):
        cut_out_card(square)


def test_a_deck_lacking_a_card_is_refused_with_the_card_named(tmp_path):
    folder = tmp_path / "dev" / "webcam-singles"
    folder.mkdir(parents=True)
    cv2.imwrite(str(folder / "AS_01.jpg"), card_photo(10.0))
    (tmp_path / "dev" / "labels.json").write_text(json.dumps({"webcam-singles/AS_01.jpg": ["AS"]}))
    with pytest.raises(DeckError, match="lacks photos of 2S, 2H"):
        build_photo_deck(PHOTO_DECKS[0], tmp_path / "cache", tmp_path / "dev")
    with pytest.raises(DeckError, match="not beside the project"):
        build_photo_deck(PHOTO_DECKS[0], tmp_path / "cache", tmp_path / "nowhere")
    assert not (tmp_path / "cache" / PHOTO_DECKS[0].name / "done.json").exists()


def test_photo_decks_are_validation_decks_only(tmp_path, monkeypatch):
    from vision.synth.__main__ import train_and_val_decks

    svg, other = (decks.Deck(name, "kde", "none.svgz", "none", "none") for name in ("svg_one", "svg_two"))
    photo = PHOTO_DECKS[0]
    for deck in (svg, other, photo):
        (tmp_path / deck.name).mkdir()
        (tmp_path / deck.name / "done.json").write_text("{}")
    monkeypatch.setattr(decks, "DECKS", [svg, other])
    monkeypatch.setattr(decks, "PHOTO_DECKS", [photo])
    for deck in (svg, other):
        monkeypatch.setitem(decks.DECKS_BY_NAME, deck.name, deck)
    parser = argparse.ArgumentParser()
    with pytest.raises(SystemExit):
        train_and_val_decks(parser, "", "paris", tmp_path)  # no val deck left: refused
    # by default every cached deck trains, but not the photo deck, even though it is cached
    assert train_and_val_decks(parser, "", "svg_two", tmp_path) == (["svg_one"], ["svg_two"])
    assert train_and_val_decks(parser, "", photo.name, tmp_path) == (["svg_one", "svg_two"], [photo.name])
    with pytest.raises(SystemExit):
        train_and_val_decks(parser, f"svg_one,svg_two,{photo.name}", "svg_two", tmp_path)  # the photo deck would train


@pytest.mark.skipif(not (DEFAULT_DEV_PHOTOS / "labels.json").is_file(),
                    reason=f"needs the real dev photos in {DEFAULT_DEV_PHOTOS} (not part of the project)")
@pytest.mark.parametrize("deck", PHOTO_DECKS, ids=[deck.name for deck in PHOTO_DECKS])
def test_the_real_decks_are_cut_out_with_indices_the_shipped_classifier_reads(deck, tmp_path, real_models):
    from vision.classifier import IndexClassifier
    from vision.crops import CLASS_NAMES
    from vision.synth.bank import load_deck_faces

    build_photo_deck(deck, tmp_path)
    borrowed = json.loads((tmp_path / deck.name / "done.json").read_text())["borrowed"]
    # the phone singles lack a jack of hearts (their JH.jpg shows the jack of spades): the webcam deck lends its own
    assert borrowed == ({"JH": "real_webcam"} if deck.name == "real_phone" else {})
    faces = load_deck_faces(tmp_path, deck)
    assert len(faces.faces) == 52
    classifier = IndexClassifier(real_models / "cards_cls.onnx")
    misread = []
    for code, face in faces.faces.items():
        h, w = face.pyramid[0].shape[:2]
        assert h == CARD_HEIGHT and 0.6 < w / h < 0.8
        image = np.ascontiguousarray(face.pyramid[0][:, :, :3])
        probs = classifier.probabilities(image, np.array(face.boxes, np.float64))
        misread += [(code, CLASS_NAMES[int(p.argmax())]) for p in probs if CLASS_NAMES[int(p.argmax())] != code]
    assert misread == []  # every index of every face (four on some aces), read on the clean cut


def blank_face(height: int = 720, width: int = 514) -> np.ndarray:
    face = np.full((height, width, 4), 235, np.uint8)
    face[:, :, 3] = 255
    return face


def test_indices_in_the_other_corners_are_found_only_where_a_deck_prints_them():
    from vision.synth.indices import find_other_corner_indices

    face = blank_face()
    top_left = (20, 30, 80, 200)
    face[30:200, 20:80, :3] = 30
    assert find_other_corner_indices(face, top_left) == []  # a number card: blank paper there
    face[35:190, 514 - 82:514 - 25, :3] = 30  # an ace printed with four indices
    top_right, bottom_left = find_other_corner_indices(face, top_left)
    assert top_right == (514 - 82, 35, 514 - 25, 190)
    assert bottom_left == (25, 720 - 190, 82, 720 - 35)


def cached_small_deck(cache_dir, name: str, inks: list[tuple[int, int, int, int]],
                      extra_boxes: dict[str, list[list[int]]] | None = None):
    """A 72 x 50 px photo deck in `cache_dir` whose every face is blank paper with black ink at the boxes `inks`
    (x1, y1, x2, y2; the index finder's boxes saved with them, plus `extra_boxes` per code), loaded as DeckFaces."""
    from vision.crops import CARD_CODES
    from vision.synth.bank import INDEX_BOXES_FILE, faces_fingerprint, load_deck_faces

    deck = decks.Deck(name, "photo", "nowhere", "none", "none")
    folder = cache_dir / deck.name
    folder.mkdir()
    raw = {}
    for code in CARD_CODES:
        face = blank_face(72, 50)
        for x1, y1, x2, y2 in inks:
            face[y1:y2, x1:x2, :3] = 20
        cv2.imwrite(str(folder / f"{code}.png"), face)
        raw[code] = cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
    boxes = {code: [list(box) for box in inks] + (extra_boxes or {}).get(code, []) for code in CARD_CODES}
    (folder / INDEX_BOXES_FILE).write_text(json.dumps({"faces": faces_fingerprint(raw), "boxes": boxes}))
    return load_deck_faces(cache_dir, deck)


def test_a_deck_with_four_indices_gets_four_outlines_in_the_right_corners(tmp_path):
    from vision.synth.scene import _suit_band

    faces = cached_small_deck(tmp_path, "four_corners", [(3, 4, 10, 20), (40, 52, 47, 68)],
                              {"AS": [[40, 4, 47, 20], [3, 52, 10, 68]]})
    assert len(faces.faces["2S"].hulls) == 2
    ace = faces.faces["AS"]
    assert len(ace.hulls) == 4 and len(ace.boxes) == 4
    top_right, bottom_left = ace.hulls[2], ace.hulls[3]
    assert top_right[:, 0].min() >= 39 and top_right[:, 1].max() <= 21  # top-right corner
    assert bottom_left[:, 0].max() <= 11 and bottom_left[:, 1].min() >= 51  # bottom-left corner
    # the suit lies low in an upright index (top corners) and high in a turned one (bottom corners)
    assert _suit_band(top_right, 2)[:, 1].min() > top_right[:, 1].mean()
    assert _suit_band(bottom_left, 3)[:, 1].max() < bottom_left[:, 1].mean()


def test_each_index_outline_follows_its_own_ink_on_a_face_not_printed_point_symmetric(tmp_path):
    """A cut-out card (or a deck like kde_jolly_royal) need not carry its second index where turning the face half
    round puts the first: the outline is the ink found in that corner's own box."""
    # the bottom-right index lies 5-10 px in from where a half turn puts the top-left one
    faces = cached_small_deck(tmp_path, "lopsided", [(3, 4, 10, 20), (34, 44, 43, 62)])
    for face in faces.faces.values():
        top_left, bottom_right = face.hulls
        assert top_left.min(axis=0) == pytest.approx([2.5, 3.5]) and top_left.max(axis=0) == pytest.approx([9.5, 19.5])
        assert bottom_right.min(axis=0) == pytest.approx([33.5, 43.5])
        assert bottom_right.max(axis=0) == pytest.approx([42.5, 61.5])


def test_photo_decks_are_built_one_at_a_time_in_this_process(tmp_path, monkeypatch):
    built = []
    monkeypatch.setattr(decks, "render_deck", lambda deck, cache_dir: built.append(deck.name))
    decks.render_all(tmp_path, list(reversed(PHOTO_DECKS)), workers=2)  # a pool would not see the stand-in
    assert built == [deck.name for deck in reversed(PHOTO_DECKS)]
