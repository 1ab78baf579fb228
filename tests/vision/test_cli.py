"""`python -m vision read`: JSON list on success, exit 2 and one line for an unreadable file."""
from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np

from conftest import REPO, marker_image


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_missing_file_exits_2(tmp_path):
    result = run_cli("read", str(tmp_path / "nope.jpg"))
    assert result.returncode == 2
    assert "nope.jpg" in one_line(result.stderr) and result.stdout == ""


def test_text_file_exits_2(tmp_path):
    photo = tmp_path / "cards.jpg"
    photo.write_text("AS KS QS\n")
    result = run_cli("read", str(photo))
    assert result.returncode == 2
    assert "not an image" in one_line(result.stderr)


def test_empty_and_truncated_files_exit_2(tmp_path):
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    ok, data = cv2.imencode(".jpg", marker_image(200, 300))
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(data.tobytes()[: len(data) // 2])
    for photo, words in ((empty, "empty"), (truncated, "truncated")):
        result = run_cli("read", str(photo))
        assert result.returncode == 2
        assert words in one_line(result.stderr)


def test_bad_file_after_a_good_one_still_exits_2(tmp_path):
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), marker_image())
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 broken")
    result = run_cli("read", "--models", str(tmp_path / "no-models"), str(bad), str(good))
    assert result.returncode == 2 and "bad.jpg" in one_line(result.stderr)


def test_missing_models_exit_3_with_one_line(tmp_path):
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), marker_image())
    result = run_cli("read", "--models", str(tmp_path), str(good))
    assert result.returncode == 3
    assert "model file not found" in one_line(result.stderr)


def test_reads_a_photo_with_the_real_models(real_models, tmp_path):
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), np.full((300, 400, 3), (40, 90, 30), np.uint8))  # empty green table
    for extra, rows_expected in (([], True), (["--loose"], False)):
        result = run_cli("read", *extra, str(photo))
        assert result.returncode == 0, result.stderr
        (entry,) = json.loads(result.stdout)
        assert entry["photo"] == str(photo)
        assert set(entry) == {"photo", "cards", "rows", "warnings"}
        assert (entry["rows"] is not None) == rows_expected
        if rows_expected:
            assert set(entry["rows"]) == {"front", "middle", "back"}
            assert any("expected 13 cards" in w for w in entry["warnings"]) or len(entry["cards"]) == 13
