"""The generator's whole-table part (vision.synth --parts tables, vision.synth.table_scenes)."""
from __future__ import annotations

import json

import cv2
import numpy as np

from conftest import TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks
from vision.synth import table_scenes


def test_hands_face_their_owners_and_each_seat_deals_its_own_cards():
    rng = np.random.default_rng(3)
    table = table_scenes.table_layout(rng, 0.7, [0, 1, 2, 3])
    assert sorted(table.rows) == [0, 1, 2, 3] and len({c.code for c in table.layout.cards}) == 52
    for seat, rows in table.rows.items():
        cards = {c.code: c for c, s in zip(table.layout.cards, table.seats) if s == seat}
        assert sorted(code for row in rows.values() for code in row) == sorted(cards)
        _, down = table_scenes.seat_frame(seat)
        front = np.mean([[cards[c].x, cards[c].y] for c in rows["front"]], axis=0)
        back = np.mean([[cards[c].x, cards[c].y] for c in rows["back"]], axis=0)
        assert (back - front) @ down > 1.0  # the back row lies towards the owner, the front towards the middle
        assert all(abs((cards[c].angle + 90 * seat + 180) % 360 - 180) < 25 for c in cards)  # upright for the owner


def test_crowded_tables_overlap_a_little_at_most():
    for seed in range(12):
        table = table_scenes.table_layout(np.random.default_rng(seed), 0.7, [0, 1, 2, 3], crowded=True)
        assert table_scenes.largest_overlap(table.layout.cards, table.seats, 0.7) <= table_scenes.MAX_OVERLAP * 0.7


@needs_decks
def test_tables_part_writes_photos_with_seats_and_rows(cache, tmp_path):
    from vision.synth.dataset import generate

    out = tmp_path / "ds"
    manifest = generate(out, cache, 3, tiles=0, crops=0, scenes=0, val_fraction=0.25, train_decks=[TEST_TRAIN_DECK],
                        val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("tables",), tables=1)
    assert manifest["counts"]["tables"]["val"] == 1
    truth = json.loads((out / "tables" / "val" / "0000.json").read_text())
    image = cv2.imread(str(out / "tables" / "val" / "0000.jpg"))
    assert image.shape[:2] in ((3000, 4000), (1944, 2592))
    seats = [hand["seat"] for hand in truth["hands"]]
    assert 2 <= len(seats) <= 4 and all(card["seat"] in seats for card in truth["cards"])
    for hand in truth["hands"]:
        assert len(hand["cards"]) == 13 and sorted(hand["cards"]) == sorted(c for r in hand["rows"].values() for c in r)
    assert sum(bool(card["indices"]) for card in truth["cards"]) >= 13 * len(seats) - 4
    assert truth["deck"] == TEST_VAL_DECK and not truth["loose"]
