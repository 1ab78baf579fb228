"""Decks printed with an index in all four corners (vision.synth.indices.find_other_corner_indices)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import TEST_TRAIN_DECK, needs_decks
from vision.crops import CARD_CODES


@pytest.fixture(scope="module")
def dondorf_cache(tmp_path_factory) -> Path:
    """A deck cache with dondorf (an index in all four corners of every card) rendered, or skip."""
    from vision.synth.decks import DECKS_BY_NAME, render_deck

    deck = DECKS_BY_NAME["dondorf"]
    if not deck.path.exists():
        pytest.skip(f"needs {deck.path} (gnome-cards-data)")
    folder = tmp_path_factory.mktemp("four-corner-cache")
    render_deck(deck, folder)
    return folder


@needs_decks
def test_every_face_of_a_four_corner_deck_gets_four_index_boxes(dondorf_cache):
    from vision.synth.bank import load_deck_faces
    from vision.synth.decks import DECKS_BY_NAME

    faces = load_deck_faces(dondorf_cache, DECKS_BY_NAME["dondorf"])
    for code, face in faces.faces.items():
        assert len(face.boxes) == 4, code
        w, h = face.size
        top_left, bottom_right, top_right, bottom_left = face.boxes
        assert top_right[0] > w / 2 and top_right[3] < h / 2  # in the top-right corner
        assert bottom_left[2] < w / 2 and bottom_left[1] > h / 2  # in the bottom-left corner
        assert abs((top_right[3] - top_right[1]) - (top_left[3] - top_left[1])) <= 0.25 * (top_left[3] - top_left[1])
        assert len(face.hulls) == 4


@needs_decks
def test_a_packed_four_corner_deck_keeps_its_four_boxes_and_photo_decks_stay_behind(dondorf_cache, tmp_path):
    import shutil

    from vision.synth.bank import INDEX_BOXES_FILE
    from vision.synth.cache_pack import pack_cache
    from vision.synth.decks import PHOTO_DECKS

    source = tmp_path / "source"
    shutil.copytree(dondorf_cache, source)
    (source / PHOTO_DECKS[0].name).mkdir()
    (source / PHOTO_DECKS[0].name / "done.json").write_text("{}")
    packed = tmp_path / "packed"
    assert pack_cache(source, packed) > 0
    assert sorted(p.name for p in packed.iterdir()) == ["dondorf"]
    boxes = json.loads((packed / "dondorf" / INDEX_BOXES_FILE).read_text())["boxes"]
    assert {len(corners) for corners in boxes.values()} == {4}


@needs_decks
def test_a_two_corner_deck_gets_no_other_corner_boxes_even_when_asked(cache):
    from vision.synth.decks import DECKS_BY_NAME, load_face
    from vision.synth.indices import find_deck_indices

    raw = {code: load_face(cache, DECKS_BY_NAME[TEST_TRAIN_DECK], code) for code in CARD_CODES}
    boxes = find_deck_indices(raw, other_corners=True)
    assert {code: len(pair) for code, pair in boxes.items() if len(pair) != 2} == {}
