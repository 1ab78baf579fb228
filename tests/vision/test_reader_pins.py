"""Pinned reads of the shipped reader: a handful of photos (sample_images/ as taken and in the evaluation's rendered
views: a coloured lamp, a moved camera, a steep tilt) read as the reader read them before it became a pipeline of
passes (vision.passes): codes, confidences to 1e-6, warnings and the second reads kept; and since session 59 each
card's `sure` flag (vision.sureness). A change to any pass, its
order or a threshold that changes a reading shows here; a change meant to, regenerates the pins and says why:

    .venv/bin/python tests/vision/test_reader_pins.py tests/vision/reader_pins.json
"""
from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("reader_pins.json")
SAMPLES = REPO / "sample_images"


def _photo_bytes(name: str, view: str | None) -> bytes:
    from vision.evaluation.views import blurred_view_bytes, coloured_view_bytes, steep_view_bytes

    path = SAMPLES / name
    views = {None: lambda p: p.read_bytes(),
             "red lamp": partial(coloured_view_bytes, light="red lamp"),
             "purple lamp": partial(coloured_view_bytes, light="purple lamp"),
             "moved": partial(blurred_view_bytes, defocus_share=0.0, motion_share=0.015),
             "out of focus": partial(blurred_view_bytes, defocus_share=0.004, motion_share=0.0),
             "tilted to 35°": partial(steep_view_bytes, elevation=35.0, quarter_turns=0, blur=0.0),
             "tilted to 20°": partial(steep_view_bytes, elevation=20.0, quarter_turns=0, blur=0.0)}
    return views[view](path)


# (photo in sample_images/, rendered view or None, loose)
CASES = [
    ("layout_p1.jpg", None, False),
    ("loose.jpg", None, True),
    ("rows_four_colours.jpg", None, False),
    ("rows_four_corners.jpg", None, True),
    ("layout_p2.jpg", "red lamp", False),
    ("rows_four_colours.jpg", "purple lamp", False),
    ("layout_p3.jpg", "moved", False),
    ("layout_p4.jpg", "out of focus", True),
    ("layout_p1.jpg", "tilted to 35°", False),
    ("layout_p2.jpg", "tilted to 20°", False),
]


def pinned_read(reader, name: str, view: str | None, loose: bool) -> dict:
    result = reader.read(_photo_bytes(name, view), loose=loose)
    rows = result.to_dict()["rows"]
    return {"case": f"{name} {view or 'as taken'} {'loose' if loose else 'rows'}",
            "cards": [[card.code, card.confidence] for card in result.cards], "rows": rows,
            "sure": [card.sure for card in result.cards],
            "warnings": result.warnings, "kept_reads": result.kept_reads}


def _pins() -> list[dict]:
    if not PINS.is_file():
        pytest.skip(f"no {PINS.name}")
    return json.loads(PINS.read_text())


@pytest.mark.parametrize("number", range(len(CASES)))
def test_the_shipped_reader_reads_each_pinned_photo_as_pinned(shipped_reader, number):
    pinned = _pins()[number]
    read = pinned_read(shipped_reader, *CASES[number])
    assert read["case"] == pinned["case"]
    assert [code for code, _ in read["cards"]] == [code for code, _ in pinned["cards"]]
    assert [confidence for _, confidence in read["cards"]] == pytest.approx(
        [confidence for _, confidence in pinned["cards"]], abs=1e-6)
    assert read["rows"] == pinned["rows"]
    assert read["sure"] == pinned["sure"]  # the one flag (vision.sureness): calibration, threshold and checks
    assert read["warnings"] == pinned["warnings"]
    assert read["kept_reads"] == pinned["kept_reads"]


def test_the_pins_cover_every_second_read():
    """The pinned photos include one where each second read is kept, so a pass changed shows in a pin."""
    from vision.reader import SECOND_READS

    kept = {name for pin in _pins() for name in pin["kept_reads"]}
    assert kept == set(SECOND_READS)


if __name__ == "__main__":  # run from the repository root of the reader to pin
    sys.path.insert(0, str(Path.cwd()))
    from vision.reader import CardReader

    reader = CardReader()
    Path(sys.argv[1]).write_text(json.dumps([pinned_read(reader, *case) for case in CASES], indent=1) + "\n")
