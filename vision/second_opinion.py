"""A second classifier's look at a read's sure cards: a card it does not name as the read did is warned of, never
changed (docs/reader-decisions.md@538d56c, "second opinion").

The shipped classifier and every step trained after it share most of their failures (session 40), but session 51's
width-40 classifier, taught four-colour inks and distilled from the shipped one, fails elsewhere on the real decks in
four colours: there it names otherwise 27 sure cards read wrong and 14 right ones of about 2,500 (session 53).
It is shipped int8-quantised (`vision.training.quantize_classifier`) beside the pair."""
from __future__ import annotations

import numpy as np

from vision.cards import Card
from vision.classifier import IndexClassifier
from vision.crops import CLASS_NAMES
from vision.messages import SECOND_LOOK_WARNING

SECOND_CLASSIFIER_FILE = "cards_cls_second.onnx"


def doubted_cards(classifier: IndexClassifier, image: np.ndarray, cards: list[Card], min_card_confidence: float
                  ) -> list[tuple[Card, str, float]]:
    """The sure cards (confidence >= min_card_confidence) the second classifier doubts, each with the code it names
    first and the probability it gives that code, in the cards' order; `image` is the picture their boxes are in.
    A card is doubted when the second classifier, its probabilities averaged over the card's corners, names another
    code (or `none`) first; a second classifier merely unsure of the same code doubted right cards on blurred and
    dim photos for little more (session 53) [second opinion]."""
    sure = [card for card in cards if card.confidence >= min_card_confidence]
    if not sure:
        return []
    boxes = np.array([index.box for card in sure for index in card.indices], np.float64)
    probabilities = classifier.probabilities(image, boxes)
    doubted, first = [], 0
    for card in sure:
        mean = probabilities[first:first + len(card.indices)].mean(axis=0)
        first += len(card.indices)
        named = int(np.argmax(mean))
        if CLASS_NAMES[named] != card.code:
            doubted.append((card, CLASS_NAMES[named], float(mean[named])))
    return doubted


def second_look_warning(doubted: list[tuple[Card, str, float]]) -> str | None:
    """One warning naming each doubted card and the second classifier's answer: 'second look doubts: KS (KD? 0.62)'."""
    if not doubted:
        return None
    return f"{SECOND_LOOK_WARNING}: " + ", ".join(f"{card.code} ({code}? {probability:.2f})"
                                                 for card, code, probability in doubted)
