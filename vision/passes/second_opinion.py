"""Second opinion [second opinion]: a second classifier (models/cards_cls_second.onnx, where shipped) looks at the
kept read's sure cards and warns of those it names otherwise (vision.second_opinion); it never changes a card."""
from __future__ import annotations

import time

from vision.classifier import IndexClassifier
from vision.passes import Photo, ReadSoFar
from vision.second_opinion import doubted_cards, second_look_warning

NAME = "second opinion"


def warn(so_far: ReadSoFar, photo: Photo, classifier: IndexClassifier | None) -> None:
    """Adds the warning of the cards `classifier` (None: off) doubts to the read so far's result."""
    if classifier is None:
        return
    start = time.perf_counter()
    result = so_far.result
    doubted = doubted_cards(classifier, so_far.picture, result.cards, photo.config.min_card_confidence)
    if doubted:
        result.warnings.append(second_look_warning(doubted))
    photo.timings[NAME] = (time.perf_counter() - start) * 1000
