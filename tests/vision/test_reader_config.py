"""The reader's settings (vision.reader_config) and the passes' shape (vision.passes)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from drawn_layouts import ColourClassifier, MarkerDetector, deal, jpeg, render
from vision import passes
from vision.reader import SECOND_READS, CardReader
from vision.reader_config import ReaderConfig

PASSES_DIR = Path(passes.__file__).parent
SECOND_READ_PASSES = ("balanced", "two_colour", "put_off_look", "sharpened", "stretched")


def test_a_setting_given_by_name_overrides_the_config_and_a_misspelt_one_is_refused():
    config = ReaderConfig(min_card_confidence=0.5)
    reader = CardReader(config=config, detector=MarkerDetector(), classifier=ColourClassifier(), sharpen_blurred=False)
    assert reader.config == ReaderConfig(min_card_confidence=0.5, sharpen_blurred=False)
    assert reader.min_card_confidence == reader.looks.min_card_confidence == 0.5
    with pytest.raises(TypeError):
        CardReader(detector=MarkerDetector(), classifier=ColourClassifier(), sharpen_blured=False)


def test_the_configs_unsure_threshold_decides_which_loose_cards_a_read_keeps():
    photo = jpeg(render(deal(3))[0])
    unsure = ColourClassifier(probability=0.4)  # each card 1 - 0.6 ** 2 = 0.64
    default = CardReader(detector=MarkerDetector(), classifier=unsure).read(photo, loose=True)
    lenient = CardReader(config=ReaderConfig(min_card_confidence=0.3), detector=MarkerDetector(),
                         classifier=unsure).read(photo, loose=True)
    assert any(w.startswith("left out unsure marks") for w in default.warnings)
    assert not any(w.startswith("left out unsure marks") for w in lenient.warnings)
    assert default.cards == [] and len(lenient.cards) == 13


@pytest.mark.parametrize("name", SECOND_READ_PASSES)
def test_each_second_read_pass_has_the_one_shape_and_imports_no_other_pass_nor_the_reader(name):
    module = __import__(f"vision.passes.{name}", fromlist=["NAME"])
    assert all(callable(getattr(module, part)) for part in ("wanted", "read", "better"))
    assert isinstance(module.NAME, str)
    tree = ast.parse((PASSES_DIR / f"{name}.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "vision.reader" not in imported
    siblings = {f"vision.passes.{other}" for other in SECOND_READ_PASSES if other != name}
    assert not imported & siblings
    named = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             and node.module == "vision.passes" for alias in node.names}
    assert named <= {"Photo", "ReadSoFar", "FirstLook", "common"}


def test_the_second_reads_counted_are_the_passes_names_in_their_order():
    assert SECOND_READS == ("balanced read", "two-colour read", "sharpened read", "stretched read")
