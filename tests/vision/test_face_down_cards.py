"""Face-down cards at the table (other players' hands, the stock): the reader names no card on a card's back.

Backs are the installed decks' own (SVG element `back`), laid at random angles on a table, alone and beside a
rendered 3/5/5 layout. Measured in session 45 on 48 photos of eleven decks' backs: no card named
(`git show 538d56c:docs/measurements.md`, session 45)."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from conftest import REPO, TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks

FELT = (40, 105, 45)


@pytest.fixture(scope="module")
def reader(shipped_reader):
    return shipped_reader


def lay(table: np.ndarray, card: np.ndarray, centre: tuple[float, float], angle: float) -> None:
    """Composite an RGBA card onto a BGR table in place, turned by `angle` degrees about `centre`."""
    h, w = card.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turn[:, 2] += (centre[0] - w / 2, centre[1] - h / 2)
    warped = cv2.warpAffine(card, turn, (table.shape[1], table.shape[0]), borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    table[:] = (table * (1 - alpha) + warped[:, :, :3] * alpha).astype(np.uint8)


def backs_on_a_table(deck_name: str, count: int, size: tuple[int, int], seed: int,
                     keep_clear: tuple[int, int, int, int] | None = None) -> np.ndarray:
    from vision.synth.decks import DECKS_BY_NAME, render_back

    back = render_back(DECKS_BY_NAME[deck_name], height=330)
    rng = np.random.default_rng(seed)
    table = np.empty((size[1], size[0], 3), np.uint8)
    table[:] = FELT
    placed = 0
    while placed < count:
        x, y = rng.uniform(200, size[0] - 200), rng.uniform(200, size[1] - 200)
        near_the_layout = keep_clear and (keep_clear[0] - 250 < x < keep_clear[2] + 250
                                          and keep_clear[1] - 250 < y < keep_clear[3] + 250)
        if near_the_layout:
            continue
        lay(table, back, (x, y), rng.uniform(0, 360))
        placed += 1
    return table


def encoded(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return data.tobytes()


@needs_decks
@pytest.mark.parametrize("deck_name", [TEST_TRAIN_DECK, TEST_VAL_DECK])
def test_backs_alone_name_no_card(reader, deck_name):
    table = backs_on_a_table(deck_name, count=8, size=(2000, 1500), seed=45)
    assert (table != FELT).any(axis=2).mean() > 0.1  # the backs are there: a tenth of the table or more is covered
    loose = reader.read(encoded(table), loose=True).to_dict()
    assert loose["cards"] == []
    hand = reader.read(encoded(table)).to_dict()
    assert hand["cards"] == []
    assert "expected 13 cards, found 0" in hand["warnings"]


@needs_decks
def test_a_layout_among_backs_reads_its_own_rows(reader):
    truth = json.loads((REPO / "sample_images" / "layout_p1.json").read_text())["rows"]
    layout = cv2.imread(str(REPO / "sample_images" / "layout_p1.jpg"))
    h, w = layout.shape[:2]
    x0, y0 = 700, 450
    table = backs_on_a_table(TEST_VAL_DECK, count=6, size=(w + 1400, h + 900), seed=7,
                             keep_clear=(x0, y0, x0 + w, y0 + h))
    table[y0:y0 + h, x0:x0 + w] = layout
    result = reader.read(encoded(table)).to_dict()
    assert result["rows"] == truth
    assert result["warnings"] == []


@needs_decks
def test_a_back_is_rendered_at_the_height_asked():
    from vision.synth.decks import DECKS_BY_NAME, render_back

    back = render_back(DECKS_BY_NAME[TEST_TRAIN_DECK], height=200)
    assert back.shape[0] == 200 and back.shape[2] == 4
    assert 0.55 < back.shape[1] / back.shape[0] < 0.8  # a card's shape, not the whole sheet
    assert (back[:, :, 3] > 0).mean() > 0.9  # opaque but for the rounded corners


def test_a_deck_without_an_svg_has_no_back_to_render():
    from vision.synth.decks import PHOTO_DECKS, DeckError, render_back

    with pytest.raises(DeckError, match="no SVG"):
        render_back(PHOTO_DECKS[0])
