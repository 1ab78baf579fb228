"""Four-colour decks in the generator: diamonds blue, clubs green, nothing else moved."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from conftest import TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks
from vision.synth.four_colour import blue_diamonds, deck_inks, green_clubs

BLUE = np.array([220.0, 60.0, 20.0])  # BGR
GREEN = np.array([20.0, 140.0, 20.0])


def _face(ink_bgr: tuple[int, int, int]) -> np.ndarray:
    """A 200 x 140 BGRA face: white paper, a black outline, a solid glyph of `ink_bgr` with a half-ink rim."""
    face = np.full((200, 140, 4), 255, np.uint8)
    cv2.rectangle(face, (0, 0), (139, 199), (0, 0, 0, 255), 2)
    ink = np.array(ink_bgr, np.float64)
    face[80:120, 50:90, :3] = ink
    face[78:80, 50:90, :3] = (ink + 255) / 2  # the anti-aliased rim: ink half over paper
    yellow = (0, 220, 240)
    face[150:160, 60:70, :3] = yellow  # court art's colour
    return face


def test_red_ink_turns_blue_with_its_rim_paler_and_paper_art_and_outline_as_they_were():
    face = _face((30, 30, 200))
    out = blue_diamonds(face, BLUE)
    core, rim = out[100, 70, :3].astype(int), out[79, 70, :3].astype(int)
    assert core[0] > core[2] + 100 and core[0] > core[1] + 100  # blue now, not red
    assert rim[0] > rim[2] and rim.sum() > core.sum()  # the rim is a paler blue: ink over paper
    for y, x in ((40, 70), (155, 65), (0, 70), (100, 1)):  # paper, yellow art, the outline
        assert (out[y, x] == face[y, x]).all()
    assert (out[:, :, 3] == face[:, :, 3]).all()


def test_black_ink_turns_green_and_a_face_without_red_is_left_to_the_diamond_rule():
    face = _face((15, 15, 15))
    out = green_clubs(face, GREEN)
    core, rim = out[100, 70, :3].astype(int), out[79, 70, :3].astype(int)
    assert core[1] > core[0] + 80 and core[1] > core[2] + 80  # green now, not black
    assert rim[1] > rim[0] and rim.sum() > core.sum()
    for y, x in ((40, 70), (155, 65), (0, 70), (100, 1)):  # paper, art, outline untouched
        assert (out[y, x] == face[y, x]).all()
    assert (blue_diamonds(face, BLUE) == face).all()  # no red ink: nothing to turn blue


def test_a_face_cut_from_a_photo_keeps_its_grey_paper_and_its_inks_turn_in_its_light():
    face = _face((15, 15, 15))
    face[:, :, :3] = (face[:, :, :3] * 0.75).astype(np.uint8)  # paper 191: a photo's light, not a render's white
    out = green_clubs(face, GREEN)
    assert (out[40, 70] == face[40, 70]).all()  # the grey paper is not ink
    core = out[100, 70, :3].astype(int)
    white = green_clubs(_face((15, 15, 15)), GREEN)[100, 70, :3].astype(int)
    assert core[1] > core[0] + 60 and core[1] > core[2] + 60 and core[1] < white[1] - 20  # green, in the dimmer light
    red_face = _face((30, 30, 200))
    red_face[:, :, :3] = (red_face[:, :, :3] * 0.75).astype(np.uint8)
    blue = blue_diamonds(red_face, BLUE)[100, 70, :3].astype(int)
    assert blue[0] > blue[2] + 60 and (blue_diamonds(red_face, BLUE)[40, 70] == red_face[40, 70]).all()


def test_each_deck_draws_its_own_inks_and_always_the_same_ones():
    green, blue = deck_inks("paris")
    assert (deck_inks("paris")[0] == green).all() and (deck_inks("paris")[1] == blue).all()
    assert not np.allclose(deck_inks("tango")[0], green)
    assert green[1] > green[0] and green[1] > green[2] and blue[0] > blue[1] and blue[0] > blue[2]


@needs_decks
def test_a_four_colour_deck_recolours_only_diamonds_and_clubs_and_keeps_every_index_outline(cache):
    from vision.synth.bank import load_deck_faces
    from vision.synth.decks import DECKS_BY_NAME
    from vision.synth.four_colour import four_colour_faces

    faces = load_deck_faces(cache, DECKS_BY_NAME[TEST_TRAIN_DECK])
    before = {code: face.pyramid[0].copy() for code, face in faces.faces.items()}
    four = four_colour_faces(faces)
    assert four.four_colour and not faces.four_colour
    for code, face in four.faces.items():
        old = faces.faces[code]
        assert (old.pyramid[0] == before[code]).all()  # the two-colour deck is not changed
        assert face.boxes == old.boxes and all((a == b).all() for a, b in zip(face.hulls, old.hulls))
        changed = face.pyramid[0][:, :, :3].astype(int) - old.pyramid[0][:, :, :3]
        if code[1] in "HS":
            assert all(a is b for a, b in zip(face.pyramid, old.pyramid))
            continue
        x1, y1, x2, y2 = old.boxes[0]
        index = face.pyramid[0][y1:y2, x1:x2, :3].reshape(-1, 3).astype(int)
        darkest = index[np.argmin(index.sum(axis=1))]  # the index's ink
        if code[1] == "D":
            assert darkest[0] > darkest[2] + 60, code
        else:
            assert darkest[1] > max(darkest[0], darkest[2]) + 40, code
        assert np.abs(changed).max() > 100 and len(face.pyramid) == len(old.pyramid)


@needs_decks
def test_a_four_colour_photo_set_has_the_same_cards_in_the_same_places_and_says_so(cache, tmp_path):
    from vision.synth.dataset import generate

    out = {}
    for share in (0.0, 1.0):
        out[share] = tmp_path / f"four{share}"
        manifest = generate(out[share], cache, 3, tiles=0, crops=0, scenes=0, val_fraction=0.25,
                            train_decks=[TEST_TRAIN_DECK], val_decks=[TEST_VAL_DECK], workers=1, command="test",
                            parts=("photos",), photos=3, four_colour=share)
    assert manifest["four_colour"] == 1.0 and "four_colour" in manifest["notes"]
    for label in sorted((out[0.0] / "photos" / "val").glob("*.json")):
        two, four = (json.loads((out[s] / "photos" / "val" / label.name).read_text()) for s in (0.0, 1.0))
        assert four.pop("four_colour") is True and "four_colour" not in two
        for truth in (two, four):  # how much contrast an index kept is measured on its ink's colour: it may differ
            for card in truth["cards"]:
                card.pop("contrast_kept")
        assert four == two  # the four-colour draw leaves every other draw of the photo as it was
        images = [cv2.imread(str(out[s] / "photos" / "val" / label.with_suffix(".jpg").name)) for s in (0.0, 1.0)]
        suits = {card["code"][1] for card in two["cards"] if card["indices"]}
        if suits & {"D", "C"}:
            assert np.abs(images[0].astype(int) - images[1]).max() > 60


@pytest.mark.parametrize("share", ["-0.1", "1.5"])
def test_four_colour_command_line_must_be_a_probability(share, tmp_path, capsys):
    from vision.synth.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--out", str(tmp_path / "ds"), "--parts", "photos", "--four-colour", share])
    assert exit_info.value.code == 2 and "--four-colour" in capsys.readouterr().err
