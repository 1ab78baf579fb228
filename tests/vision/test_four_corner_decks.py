"""Decks printed with an index in all four corners (vision.synth.indices.find_other_corner_indices)."""
from __future__ import annotations

import pytest

from conftest import TEST_TRAIN_DECK, needs_decks
from vision.crops import CARD_CODES


@needs_decks
def test_every_face_of_a_four_corner_deck_gets_four_index_boxes(tmp_path):
    from vision.synth.bank import load_deck_faces
    from vision.synth.decks import DECKS_BY_NAME, render_deck

    deck = DECKS_BY_NAME["dondorf"]
    if not deck.path.exists():
        pytest.skip(f"needs {deck.path} (gnome-cards-data)")
    render_deck(deck, tmp_path)
    faces = load_deck_faces(tmp_path, deck)
    for code, face in faces.faces.items():
        assert len(face.boxes) == 4, code
        w, h = face.size
        top_left, bottom_right, top_right, bottom_left = face.boxes
        assert top_right[0] > w / 2 and top_right[3] < h / 2  # in the top-right corner
        assert bottom_left[2] < w / 2 and bottom_left[1] > h / 2  # in the bottom-left corner
        assert abs((top_right[3] - top_right[1]) - (top_left[3] - top_left[1])) <= 0.25 * (top_left[3] - top_left[1])
        assert len(face.hulls) == 4
    # packed to travel to a GPU machine, the deck keeps its four corners; a deck cut out of photos stays behind
    import json

    from vision.synth.bank import INDEX_BOXES_FILE
    from vision.synth.cache_pack import pack_cache
    from vision.synth.decks import PHOTO_DECKS

    (tmp_path / PHOTO_DECKS[0].name).mkdir()
    (tmp_path / PHOTO_DECKS[0].name / "done.json").write_text("{}")
    packed = tmp_path / "packed"
    assert pack_cache(tmp_path, packed) > 0
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
