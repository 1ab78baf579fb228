"""A second classifier's look at a read's sure cards (vision.second_opinion): it warns of the cards it names
otherwise and changes nothing else."""
from __future__ import annotations

import numpy as np
import pytest

from vision.cards import IndexReading, merge_indices
from vision.crops import CLASS_NAMES
from vision.reader import CardReader
from vision.second_opinion import SECOND_CLASSIFIER_FILE, doubted_cards, second_look_warning

from drawn_layouts import ColourClassifier, MarkerDetector, jpeg, render


class ThinksDiamondsAreSpades(ColourClassifier):
    """Reads the markers as ColourClassifier does, but names every diamond the spade of its rank, at 0.8."""

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        for row in out:
            code = CLASS_NAMES[int(np.argmax(row))]
            if code.endswith("D"):
                row[:] = 0.2 / (len(CLASS_NAMES) - 1)
                row[CLASS_NAMES.index(code[0] + "S")] = 0.8
        return out


def corner(code: str, x: float, probability: float = 0.9) -> IndexReading:
    return IndexReading((x, 10.0, x + 20.0, 50.0), code, probability, 0.9)


class Fixed:
    """A stand-in second classifier giving each box, in order, the probabilities listed."""

    def __init__(self, *answers: dict[str, float]):
        self.answers = answers
        self.boxes_seen = 0

    def probabilities(self, image, boxes):
        out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
        for row, answer in enumerate(self.answers[self.boxes_seen:self.boxes_seen + len(boxes)]):
            for code, p in answer.items():
                out[row, CLASS_NAMES.index(code)] = p
        self.boxes_seen += len(boxes)
        return out


def test_a_sure_card_is_doubted_when_the_second_names_another_code_first():
    cards, _ = merge_indices([corner("KS", 0), corner("9H", 1000), corner("2C", 2000), corner("5D", 3000, 0.4)])
    by_code = {card.code: card for card in cards}
    ordered = [by_code[c] for c in ("KS", "9H", "2C", "5D")]
    # 9H merely unsure of its own code: not doubted; 2C named `none` first: doubted; 5D is unsure: not asked
    second = Fixed({"KD": 0.62, "KS": 0.3}, {"9H": 0.35, "9D": 0.3}, {"none": 0.55, "2C": 0.4})
    doubted = doubted_cards(second, np.zeros((100, 4000, 3), np.uint8), ordered, min_card_confidence=0.7)
    assert [(card.code, code, round(p, 2)) for card, code, p in doubted] == [("KS", "KD", 0.62), ("2C", "none", 0.55)]
    assert second.boxes_seen == 3
    assert second_look_warning(doubted) == "second look doubts: KS (KD? 0.62), 2C (none? 0.55)"
    assert second_look_warning([]) is None


def test_a_cards_corners_are_averaged():
    card, = merge_indices([corner("7H", 0), corner("7H", 100)])[0]
    agreeing = Fixed({"7H": 0.5}, {"7H": 0.3, "7D": 0.5})  # mean 7H 0.4 over 7D 0.25: not doubted
    assert doubted_cards(agreeing, np.zeros((100, 200, 3), np.uint8), [card], 0.7) == []
    torn = Fixed({"7H": 0.5, "7D": 0.4}, {"7H": 0.3, "7D": 0.6})  # mean 7D 0.5 over 7H 0.4
    (doubted, code, p), = doubted_cards(torn, np.zeros((100, 200, 3), np.uint8), [card], 0.7)
    assert (doubted.code, code) == ("7H", "7D") and p == pytest.approx(0.5)


def test_the_read_warns_of_the_doubted_cards_and_keeps_every_card_and_row():
    rows = [["2D", "3C", "4H"], ["5S", "6D", "7C", "8H", "9S"], ["TC", "JH", "QS", "KD", "AC"]]
    image, _ = render(rows)
    data = jpeg(image)
    alone = CardReader(detector=MarkerDetector(), classifier=ColourClassifier()).read(data)
    checked = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(),
                         second_classifier=ThinksDiamondsAreSpades()).read(data)
    assert checked.to_dict()["rows"] == alone.to_dict()["rows"] == dict(zip(("front", "middle", "back"), rows))
    assert [c.confidence for c in checked.cards] == [c.confidence for c in alone.cards]
    assert alone.warnings == []
    assert checked.warnings == ["second look doubts: 2D (2S? 0.80), 6D (6S? 0.80), KD (KS? 0.80)"]
    assert "second opinion" in checked.timings_ms
    agreeing = CardReader(detector=MarkerDetector(), classifier=ColourClassifier(),
                          second_classifier=ColourClassifier(0.9)).read(data)
    assert agreeing.warnings == []


def test_stand_in_models_never_take_the_shipped_second_classifier(tmp_path):
    (tmp_path / SECOND_CLASSIFIER_FILE).write_bytes(b"not a model")  # would fail to load if it were tried
    reader = CardReader(tmp_path, detector=MarkerDetector(), classifier=ColourClassifier())
    assert reader.second_classifier is None
    assert CardReader(tmp_path, detector=MarkerDetector(), classifier=ColourClassifier(),
                      second_classifier=ColourClassifier(), second_opinion=False).second_classifier is None
