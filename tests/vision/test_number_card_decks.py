"""Decks whose courts or aces carry other letters lend the classifier only their standard indices (session 50)."""
from __future__ import annotations

import argparse
from types import SimpleNamespace

import numpy as np
import pytest

from vision.crops import CLASS_NAMES, NONE_CLASS
from vision.synth import decks
from vision.synth.scene import IndexLabel, Scene


def test_a_number_card_deck_teaches_only_its_standard_indices():
    berlin, ancient = decks.DECKS_BY_NAME["berlin"], decks.DECKS_BY_NAME["ancient_french"]
    assert berlin.teaches("7H") and berlin.teaches("TS") and berlin.teaches("AC") and berlin.teaches("KD")
    assert not berlin.teaches("JS") and not berlin.teaches("QD")  # printed B and D
    assert ancient.teaches("2C") and not ancient.teaches("AS") and not ancient.teaches("KH")  # printed 1 and R
    assert all(decks.DECKS_BY_NAME["anglo"].teaches(code) for code in CLASS_NAMES if code != NONE_CLASS)
    assert not {d.name for d in decks.NUMBER_CARD_DECKS} & {d.name for d in decks.DECKS}


def test_number_card_decks_train_only_when_named_and_never_validate(tmp_path, monkeypatch):
    import vision.synth.__main__ as synth_main
    from vision.synth.__main__ import train_and_val_decks

    full, other = (decks.Deck(name, "kde", "none.svgz", "none", "none") for name in ("svg_one", "svg_two"))
    partial = decks.Deck("numbers_only", "kde", "none.svgz", "none", "none", codes=("2S", "3S"))
    for deck in (full, other, partial):
        (tmp_path / deck.name).mkdir()
        (tmp_path / deck.name / "done.json").write_text("{}")
        monkeypatch.setitem(decks.DECKS_BY_NAME, deck.name, deck)
    monkeypatch.setattr(decks, "DECKS", [full, other])
    monkeypatch.setattr(decks, "PHOTO_DECKS", [])
    monkeypatch.setattr(decks, "RESTYLED_DECKS", [])
    monkeypatch.setattr(decks, "NUMBER_CARD_DECKS", [partial])
    monkeypatch.setattr(synth_main, "NUMBER_CARD_DECKS", [partial])
    parser = argparse.ArgumentParser()
    # cached like the others, yet not in the default list
    assert train_and_val_decks(parser, "", "svg_two", tmp_path) == (["svg_one"], ["svg_two"])
    assert train_and_val_decks(parser, "svg_one,numbers_only,svg_two", "svg_two", tmp_path) == (
        ["svg_one", "numbers_only"], ["svg_two"])
    with pytest.raises(SystemExit):
        train_and_val_decks(parser, "svg_one,numbers_only", "numbers_only", tmp_path)


def _scene_with(codes: list[str]) -> Scene:
    image = np.full((200, 400, 3), 200, np.uint8)
    labels = [IndexLabel(code, i, 0, (20.0 + 60 * i, 20.0, 50.0 + 60 * i, 70.0), 1.0) for i, code in enumerate(codes)]
    return Scene(image, labels, [], np.full((200, 400), -1, np.int16))


def test_crops_leave_out_the_indices_a_deck_cannot_teach(tmp_path):
    from vision.synth.parts.crops import make_class_folders, save_index_crops

    make_class_folders(tmp_path)
    out = tmp_path / "train"
    sc = _scene_with(["7H", "JS", "QD", "AC"])
    counts = save_index_crops(np.random.default_rng(0), sc.image, sc, out, 0, 36, 2,
                              decks.DECKS_BY_NAME["berlin"].teaches)
    assert counts.get("7H") == 2 and counts.get("AC") == 2
    assert "JS" not in counts and "QD" not in counts
    assert not list((out / "JS").glob("*.png")) and not list((out / "QD").glob("*.png"))
    # without the deck's rule every visible index gives its crops
    every = save_index_crops(np.random.default_rng(0), sc.image, sc, out, 1, 36, 2)
    assert every.get("JS") == 2 and every.get("QD") == 2


def test_detector_box_crops_skip_boxes_on_indices_a_deck_cannot_teach(monkeypatch):
    from vision.training import detector_box_crops

    sc = _scene_with(["7H", "JS"])
    monkeypatch.setattr(detector_box_crops, "item_deck",
                        lambda part, split, item: SimpleNamespace(deck=decks.DECKS_BY_NAME["berlin"]))
    monkeypatch.setattr(detector_box_crops, "render_photo", lambda rng, faces, split: (sc.image, sc, None, "rows"))
    _, truth, _, _ = detector_box_crops.render(0, "train", 0, blur_share=0.0)
    by_code = {t.code: t for t in truth}
    assert by_code["7H"].visible and not by_code["JS"].visible and not by_code["JS"].suit_hidden
    boxes = np.array([truth[0].box, truth[1].box], np.float64)
    assert detector_box_crops.label_detections(boxes, truth, suit_hidden_none=True) == ["7H", None]


def test_guyenne_classic_stays_out_for_printing_a_val_decks_number_cards():
    # its number cards are paris's own drawings (normalised cross-correlation 1.000; git show 538d56c:docs/synth.md, "Decks")
    assert "guyenne-classic" not in decks.DECKS_BY_NAME
