"""`python -m vision compare`: reports written by the evaluation, read back and set side by side."""
from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from vision.cli import EXIT_UNREADABLE, main
from vision.evaluation.compare import ReportError, compare_lines, parse_report, photo_of
from vision.evaluation.evaluators import NO_WARNING, SetResult
from vision.evaluation.run import _write_report, add_arguments


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([])


def _write(folder: Path, models: Path, recall: float, silent: list[str], warned: list[str] = ()) -> Path:
    """A report as `vision evaluate` writes it, for one set of made-up figures and failures."""
    result = SetResult("synthetic val photos of every kind (/work/data/synth-v5/photos/val)", photos=300,
                       numbers={"card recall": recall, "rows exactly right": 0.975},
                       failures=[*warned, *[f"{line} {NO_WARNING}" for line in silent]])
    folder.mkdir()
    _write_report(folder, models, _args(), [(result, None)], [], 1.0)
    return folder


@pytest.fixture
def models(tmp_path: Path) -> Path:
    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("cards.onnx", "cards_cls.onnx"):
        (folder / name).write_bytes(b"not a model: the report only hashes it")
    return folder


def test_a_written_report_is_read_back_with_its_figures_and_its_silent_photos(tmp_path, models):
    folder = _write(tmp_path / "a", models, 0.980, ["0053.jpg (scattered): cards ['3S'] expected ['3S', '5H']"],
                    warned=["0069.jpg: rows wrong (warned: expected 13 cards, found 12)"])
    report = parse_report((folder / "report.md").read_text())
    assert report.summary[("synthetic val photos of every kind", "card recall")] == "0.980"
    assert list(report.silent["synthetic val photos of every kind"]) == ["0053.jpg (scattered)"]  # the warned one is not silent


def test_the_comparison_names_new_and_mended_silent_photos_and_only_the_figures_that_moved(tmp_path, models):
    base = _write(tmp_path / "base", models, 0.980, ["0053.jpg (scattered): cards ['3S'] expected ['3S', '5H']"])
    candidate = _write(tmp_path / "cand", models, 0.981, ["0187.jpg: rows {'front': ['QC']} expected {'front': ['QS']}"])
    lines = compare_lines([parse_report((f / "report.md").read_text()) for f in (base, candidate)],
                          ["base", "cand"], only_differences=True)
    text = "\n".join(lines)
    assert "| synthetic val photos of every kind | card recall | 0.980 | 0.981 |" in text
    assert "rows exactly right" not in text  # the same in both
    assert "- synthetic val photos of every kind: 1 -> 1" in text
    assert "  - new: 0187.jpg: rows" in text and "  - mended: 0053.jpg (scattered)" in text


def test_reports_that_agree_say_so(tmp_path, models):
    reports = [parse_report((_write(tmp_path / name, models, 0.98, []) / "report.md").read_text())
               for name in ("a", "b")]
    assert compare_lines(reports, ["a", "b"])[-1] == "- the same photos in every set"


def test_a_photo_is_named_with_its_kind_or_view_so_two_views_of_one_photo_count_twice(tmp_path, models):
    assert photo_of("0056.jpg (hand): cards ['2C'] expected ['2C']") == "0056.jpg (hand)"
    assert photo_of("IMG_2396.JPG: 1 wrong/missed/extra") == "IMG_2396.JPG"
    views = ["IMG_2566.JPG (glare spot): 1 wrong/missed/extra", "IMG_2566.JPG (dim and noisy): 1 wrong/missed/extra"]
    report = parse_report((_write(tmp_path / "views", models, 0.97, views) / "report.md").read_text())
    assert len(report.silent["synthetic val photos of every kind"]) == 2


def test_a_folder_without_a_report_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(ReportError):
        parse_report("# some other markdown\n")
    assert main(["compare", str(tmp_path)]) == EXIT_UNREADABLE
    assert "report.md: cannot read" in capsys.readouterr().err


def test_the_command_prints_the_table(tmp_path, models, capsys):
    a = _write(tmp_path / "a", models, 0.98, [])
    b = _write(tmp_path / "b", models, 0.99, [])
    assert main(["compare", str(a), str(b), "--diff"]) == 0
    assert "| synthetic val photos of every kind | card recall | 0.980 | 0.990 |" in capsys.readouterr().out
