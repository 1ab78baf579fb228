"""Restyled decks: a train deck's indices redrawn in another font, in place, with boxes of the drawn ink."""
from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from tests.vision.conftest import TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks
from vision.crops import CARD_CODES
from vision.synth import decks, fonts
from vision.synth.bank import INDEX_BOXES_FILE, cached_index_boxes
from vision.synth.restyled_decks import build_restyled_deck, index_polys, restyle_face

PAPER = (235, 240, 245)
RED = (30, 20, 200)


def _style(font_stem: str, aspect: float = 1.0) -> dict:
    path = next(f.path for f in fonts.ttf_fonts_for("train") if f.name == font_stem)
    return {"rank_font": path, "suit_font": path, "rank_share": 0.55, "gap_share": 0.06, "aspect": aspect,
            "weight_share": 0.0, "crossed_seven": False}


def _face_with_index(code: str, style: dict) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A 720 x 500 card of paper colour with `code`'s index drawn top-left and, turned, bottom-right, plus a pip."""
    face = np.zeros((720, 500, 4), np.uint8)
    face[:, :, :3], face[:, :, 3] = PAPER, 255
    bgr = np.ascontiguousarray(face[:, :, :3])
    top_left = (20, 24, 70, 124)
    polys = index_polys(code, top_left, style)
    turned = [np.array([500.0, 720.0]) - p for p in polys]
    for group in (polys, turned):
        fonts.fill_outline(bgr, group, RED)
    bgr[300:420, 200:300] = RED  # a pip the restyling must leave alone
    face[:, :, :3] = bgr
    boxes = []
    for group in (polys, turned):
        pts = np.concatenate(group)
        (x0, y0), (x1, y1) = np.floor(pts.min(axis=0)).astype(int), np.ceil(pts.max(axis=0)).astype(int)
        boxes.append((int(x0), int(y0), int(x1), int(y1)))
    return face, boxes


def _ink(face: np.ndarray) -> np.ndarray:
    """Ink as the index finder sees it (indices.ink_mask's threshold)."""
    return np.abs(face[:, :, :3].astype(int) - PAPER).max(axis=2) > 70


def test_a_restyled_face_has_its_indices_redrawn_in_place_and_nothing_else_changed():
    # the old index wide, the new one narrow: old ink left behind would show beside the new index
    face, old_boxes = _face_with_index("8H", _style("DejaVuSans", aspect=1.25))
    new, new_boxes = restyle_face(face, "8H", old_boxes, _style("LiberationSerif-Italic", aspect=0.75))
    ink = _ink(new)
    assert not np.array_equal(ink, _ink(face))  # the glyphs changed
    for (ox1, oy1, ox2, oy2), (nx1, ny1, nx2, ny2) in zip(old_boxes, new_boxes):
        assert abs((ny2 - ny1) - (oy2 - oy1)) <= 7  # as tall as the old index (both boxes have anti-aliasing rims)
        assert abs((nx1 + nx2) - (ox1 + ox2)) <= 3  # centred where it was
        box_ink = ink[ny1:ny2, nx1:nx2]
        assert box_ink.mean() > 0.1 and all(line.any() for line in (box_ink[0], box_ink[-1], box_ink[:, 0], box_ink[:, -1]))  # tight
        # no ink of the old index is left beside the new one
        around = ink[oy1 - 3:oy2 + 3, ox1 - 3:ox2 + 3].copy()
        around[ny1 - oy1 + 3:ny2 - oy1 + 3, nx1 - ox1 + 3:nx2 - ox1 + 3] = False
        assert not around.any()
        # in the old index's ink colour
        assert np.abs(np.median(new[ny1:ny2, nx1:nx2, :3][ink[ny1:ny2, nx1:nx2]], axis=0) - RED).max() < 30
    # the bottom-right index is the top-left one turned by 180 degrees
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = new_boxes
    assert abs((500 - ax2) - bx1) <= 2 and abs((720 - ay2) - by1) <= 2
    assert np.array_equal(new[200:500, 150:350], face[200:500, 150:350])  # the pip is untouched


def test_an_index_box_cut_short_above_the_suit_still_loses_the_whole_old_index():
    face, (top_left, bottom_right) = _face_with_index("KD", _style("DejaVuSans"))
    height = top_left[3] - top_left[1]
    cut = [(top_left[0], top_left[1], top_left[2], top_left[1] + int(0.7 * height)),  # the rank and the suit's top
           (bottom_right[0], bottom_right[3] - int(0.7 * height), bottom_right[2], bottom_right[3])]
    new, new_boxes = restyle_face(face, "KD", cut, _style("LiberationSans-Bold", aspect=0.8))
    ink = _ink(new)
    for old, (nx1, ny1, nx2, ny2) in zip((top_left, bottom_right), new_boxes):
        assert abs((ny2 - ny1) - height) <= 7  # drawn over the whole old index, not the cut box
        around = ink[old[1] - 3:old[3] + 3, old[0] - 3:old[2] + 3].copy()
        around[ny1 - old[1] + 3:ny2 - old[1] + 3, nx1 - old[0] + 3:nx2 - old[0] + 3] = False
        assert not around.any()  # nothing of the old suit is left


def test_restyled_decks_train_only_when_asked(tmp_path):
    from vision.synth.__main__ import train_and_val_decks

    parser = argparse.ArgumentParser()
    if not {TEST_TRAIN_DECK, TEST_VAL_DECK} <= {d.name for d in decks.installed_decks()}:
        pytest.skip("needs the gnome-cards-data / kdegames-card-data-kf5 decks (restyled decks need their base)")
    names = {d.name for d in decks.RESTYLED_DECKS}
    train, val = train_and_val_decks(parser, "", TEST_VAL_DECK)
    assert not names & set(train + val)
    train, val = train_and_val_decks(parser, "", TEST_VAL_DECK, restyled=True)
    assert names <= set(train) and val == [TEST_VAL_DECK]
    with pytest.raises(SystemExit):
        train_and_val_decks(parser, "", "restyled_00", restyled=True)  # never a val deck
    bases = {d.file for d in decks.RESTYLED_DECKS}
    assert not bases & set(decks.DEFAULT_VAL) and all(decks.DECKS_BY_NAME[b].corners == 2 for b in bases)


@needs_decks
def test_a_restyled_deck_is_built_on_its_base_and_its_boxes_travel_packed(cache, tmp_path, monkeypatch):
    import shutil

    from vision.synth.cache_pack import pack_cache

    source = tmp_path / "source"
    shutil.copytree(cache / TEST_TRAIN_DECK, source / TEST_TRAIN_DECK)
    deck = decks.Deck("restyled_03", "restyled", TEST_TRAIN_DECK, "test", "test")
    monkeypatch.setitem(decks.DECKS_BY_NAME, deck.name, deck)
    monkeypatch.setattr(decks, "RESTYLED_DECKS", [deck])
    import vision.synth.cache_pack as cache_pack

    monkeypatch.setattr(cache_pack, "RESTYLED_DECKS", [deck])
    folder = build_restyled_deck(deck, source)
    saved = json.loads((folder / INDEX_BOXES_FILE).read_text())["boxes"]
    assert sorted(saved) == sorted(CARD_CODES) and all(len(pair) == 2 for pair in saved.values())
    raw = {code: decks.load_face(source, deck, code) for code in CARD_CODES}
    assert cached_index_boxes(folder, raw) == {c: [tuple(b) for b in pair] for c, pair in saved.items()}  # not searched
    base_raw = {code: decks.load_face(source, decks.DECKS_BY_NAME[TEST_TRAIN_DECK], code) for code in CARD_CODES}
    changed = [code for code in CARD_CODES if not np.array_equal(raw[code], base_raw[code])]
    assert changed == list(CARD_CODES)
    done = json.loads((folder / "done.json").read_text())
    assert done["base"] == TEST_TRAIN_DECK and done["style"]["rank_font"].endswith((".ttf", ".otf"))
    packed = tmp_path / "packed"
    pack_cache(source, packed)
    assert json.loads((packed / deck.name / INDEX_BOXES_FILE).read_text())["boxes"] == saved


class _SwappedSuits:
    """A face whose glyphs for two suit symbols are each other's (as FreeSerif Bold's spade and club are)."""

    def __init__(self, tt: fonts.TrueType, a: str, b: str) -> None:
        self.tt, self.swap = tt, {fonts.CARD_SUIT_CHARS[a]: fonts.CARD_SUIT_CHARS[b],
                                  fonts.CARD_SUIT_CHARS[b]: fonts.CARD_SUIT_CHARS[a]}

    def has(self, ch: str) -> bool:
        return self.tt.has(ch)

    def contours(self, ch: str):
        return self.tt.contours(self.swap.get(ch, ch))


@pytest.mark.parametrize("face", ["DejaVuSerif", "LiberationSans-Bold"])
def test_faces_whose_suit_symbols_are_swapped_draw_no_suits(face):
    tt = fonts.load_truetype(next(f.path for f in fonts.all_fonts() if f.name == face))
    assert fonts.suit_glyphs_in_order(tt)
    assert not fonts.suit_glyphs_in_order(_SwappedSuits(tt, "S", "C"))
    assert not fonts.suit_glyphs_in_order(_SwappedSuits(tt, "H", "D"))
