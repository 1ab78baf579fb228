"""Second opinion [second opinion]: a second classifier (models/cards_cls_second.onnx, where shipped) looks at the
kept read's sure cards and warns of those it names otherwise (vision.second_opinion); it never changes a card."""
from __future__ import annotations

import time
from dataclasses import replace

from vision.classifier import IndexClassifier
from vision.passes import Photo, ReadSoFar
from vision.second_opinion import doubted_cards, second_look_warning

NAME = "second opinion"


def warned(so_far: ReadSoFar, photo: Photo, classifier: IndexClassifier | None) -> ReadSoFar:
    """The read so far, warning of the sure cards `classifier` (None: off) doubts."""
    if classifier is None:
        return so_far
    start = time.perf_counter()
    result = so_far.result
    doubted = doubted_cards(classifier, so_far.picture, result.cards, photo.config.min_card_confidence)
    photo.timings[NAME] = (time.perf_counter() - start) * 1000
    if not doubted:
        return so_far
    for card, code, probability in doubted:  # a card the two classifiers name otherwise is not sure (vision.sureness)
        card.doubts = (*card.doubts, f"the second classifier names it {code} ({probability:.2f})")
    return replace(so_far, result=replace(result, warnings=[*result.warnings, second_look_warning(doubted)]))
