"""The whole-table reading end to end (vision.read_table, `vision read --table`) on two rendered table photos and
their truth (tests/vision/data/table_*.jpg, 2000 × 1500, the kde_standard deck):

- table_four_hands.jpg: four hands, the camera 2° off straight above;
- table_tilted_touching.jpg: seats 0, 1, 3 (the top seat empty), the camera tilted to 50°, the bottom and left hands
  touching at the table's corner.

Made by `vision.synth.table_scenes.render_table(np.random.default_rng([SEED, 67]), faces, seats, crowded=CROWDED,
elevation=E, size=(2000, 1500), strength=0.25)` with SEED, seats, CROWDED, E = 22, [0, 1, 2, 3], False, 88 and
32, [0, 1, 3], True, 50, written by vision.synth.samples._write_small_jpeg (≤ 300 KB)."""
from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import vision
from conftest import REPO, exif_block

DATA = Path(__file__).parent / "data"
# EXIF orientation → how many quarter turns clockwise the photo is shown turned
QUARTER_TURNS = {1: 0, 6: 1, 3: 2, 8: 3}


def photo(name: str) -> tuple[bytes, dict]:
    return (DATA / f"{name}.jpg").read_bytes(), json.loads((DATA / f"{name}.json").read_text())


def with_orientation(data: bytes, orientation: int) -> bytes:
    """The JPEG's bytes with an EXIF block saying how to turn it (its pixels untouched)."""
    payload = b"Exif\x00\x00" + exif_block(orientation)
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:]


@pytest.fixture
def models(real_models):
    return real_models


def rows_by_seat(read: dict) -> dict[int, dict]:
    return {hand["seat"]: hand["rows"] for hand in read["hands"]}


@pytest.mark.parametrize("orientation", [1, 6, 3, 8])
def test_four_hands_in_their_seats_whichever_way_the_photo_is_turned(models, orientation):
    data, truth = photo("table_four_hands")
    read = vision.read_table(with_orientation(data, orientation) if orientation != 1 else data)
    turns = QUARTER_TURNS[orientation]
    assert rows_by_seat(read) == {(hand["seat"] + turns) % 4: hand["rows"] for hand in truth["hands"]}
    assert all(len(hand["cards"]) == 13 and not any(w.startswith("expected") for w in hand["warnings"])
               for hand in read["hands"])
    assert read["unassigned"] == []


def test_tilted_photo_with_an_empty_seat_and_touching_hands(models):
    data, truth = photo("table_tilted_touching")
    assert truth["touching"] == [[0, 1]]
    read = vision.read_table(data)
    assert [hand["seat"] for hand in read["hands"]] == [0, 1, 3]
    assert rows_by_seat(read) == {hand["seat"]: hand["rows"] for hand in truth["hands"]}
    for hand in read["hands"]:  # the card objects of the single-hand read, each with its hand's row
        assert [card["row"] for card in hand["cards"]] == ["front"] * 3 + ["middle"] * 5 + ["back"] * 5
        assert {"code", "confidence", "box", "row", "sure", "alternatives"} <= set(hand["cards"][0])


def test_big_two_reads_each_seats_cards_without_rows(models):
    data, truth = photo("table_tilted_touching")
    read = vision.read_table(data, loose=True)
    assert {hand["seat"]: sorted(c["code"] for c in hand["cards"]) for hand in read["hands"]} == {
        hand["seat"]: sorted(hand["cards"]) for hand in truth["hands"]}
    assert all(hand["rows"] is None for hand in read["hands"])


def test_cli_reads_tables(models):
    path = DATA / "table_four_hands.jpg"
    result = subprocess.run([sys.executable, "-m", "vision", "read", "--table", str(path)], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    [read] = json.loads(result.stdout)
    assert read["photo"] == str(path)
    assert [hand["seat"] for hand in read["hands"]] == [0, 1, 2, 3]


def test_bad_input_gets_the_readers_errors():
    with pytest.raises(TypeError):
        vision.read_table("table.jpg")
    with pytest.raises(vision.NotAnImage):
        vision.read_table(b"AS KS QS")
