"""Consistency checks on a finished read's cards (issue 66): each names what does not fit a card, and a card that
fails one is not named surely (vision.sureness). They change no card; the player sees an unsure mark to check.

- ink: the ink of a card's corner indices against its suit's colour: a red (or a four-colour deck's blue) index named
  a spade or a club. Only that way round: a webcam's dim red ink is measured black (16 of 80 real red singles), so
  black ink says nothing against a heart.
- repeat: a card read from one corner only, lying within a card's reach of another card whose code the classifier
  also gave it some chance: likely that card's other, blurred or half-hidden corner read again as a second card
  (a real photo: the blurred corner of an 8C read again as 3C at 0.81).
- face: a card read from two corners whose face between them is mostly ink (a court figure) named a number, or mostly
  paper named a court card (German decks' B and D read as 8 and 10, issue 66).
Each check gives id(card) -> why for the cards it doubts."""
from __future__ import annotations

import numpy as np

from vision.cards import Card, IndexReading, same_card
from vision.crops import CLASS_NAMES
from vision.faces import card_paper, middle_ink_share
from vision.inks import survey_inks

RED_SUITS = frozenset("HD")
# the inks that show a red suit (a four-colour deck prints diamonds blue)
RED_INKS = frozenset({"red", "blue"})
# a one-corner card is another card's corner read again when the classifier gave that card at least this
REPEAT_MIN_PROBABILITY = 0.02
# The share of ink in the middle of a face (vision.faces) from which it shows a court figure, and under which it shows
# none: measured on the 52 faces of 13 rendered decks (berlin and rheinland's German courts too), number cards
# 0.00-0.47 (nines and tens the most), courts 0.65-0.99 but 0.42-0.61 in the two decks of light line-drawn courts
# (kde_nicu_white, kde_jolly_royal).
COURT_INK_SHARE = 0.6
NUMBER_INK_SHARE = 0.3
# the reason's start by which a photo's court figures under a number's index are counted (vision.sureness)
COURT_UNDER_NUMBER = "its face shows a court figure"
COURT_RANKS = frozenset("JQK")
NUMBER_RANKS = frozenset("23456789T")
# two corners of one card lie at least this many index sizes apart (vision.cards: 3-7)
CORNERS_MIN_DISTANCE = 2.5


def consistency_doubts(picture: np.ndarray, cards: list[Card], cast_hue: float | None = None) -> dict[int, list[str]]:
    """id(card) -> every check's reason against it (ink, repeat, face)."""
    corners = [(card, reading) for card in cards for reading in card.separate_corners()[:2]]
    names, _ = survey_inks(picture, [reading.box for _, reading in corners], cast_hue) if corners else ([], None)
    doubts: dict[int, list[str]] = {}
    for check in (ink_doubts(cards, corners, names), repeat_doubts(cards), face_doubts(picture, cards)):
        for key, why in check.items():
            doubts.setdefault(key, []).append(why)
    return doubts


def ink_doubts(cards: list[Card], corners: list[tuple[Card, IndexReading]], names: list[str | None]
               ) -> dict[int, str]:
    """The black-suited cards every measured corner of which shows red (or blue) ink (`names`: vision.inks'
    survey of the `corners`)."""
    measured: dict[int, list[str]] = {}
    for (card, _), name in zip(corners, names):
        if name is not None and name != "other":
            measured.setdefault(id(card), []).append(name)
    doubts = {}
    for card in cards:
        inks = measured.get(id(card), [])
        if card.code[1] not in RED_SUITS and inks and all(ink in RED_INKS for ink in inks):
            doubts[id(card)] = f"its index ink is {inks[0]}, {card.code}'s suit is black"
    return doubts


def repeat_doubts(cards: list[Card]) -> dict[int, str]:
    """The one-corner cards that may be a surer card's other corner read again."""
    doubts = {}
    for card in cards:
        corners = card.separate_corners()
        if len(corners) != 1 or corners[0].class_probabilities is None:
            continue
        probabilities = corners[0].class_probabilities
        for other in cards:
            if other is card or other.confidence < card.confidence or other.code == card.code:
                continue
            chance = float(probabilities[CLASS_NAMES.index(other.code)])
            if chance >= REPEAT_MIN_PROBABILITY and any(same_card(corners[0], r) for r in other.indices):
                doubts[id(card)] = f"may be {other.code}'s other corner read again ({other.code} {chance:.2f})"
                break
    return doubts


def face_doubts(picture: np.ndarray, cards: list[Card]) -> dict[int, str]:
    """The cards read from two corners whose face between them disagrees with their rank: a court figure under a
    number's index, or bare paper under a court's."""
    doubts = {}
    for card in cards:
        rank = card.code[0]
        corners = card.separate_corners()[:2]
        if rank not in COURT_RANKS | NUMBER_RANKS or len(corners) < 2:
            continue
        size = max(c.size for c in corners)
        (x1, y1), (x2, y2) = corners[0].centre, corners[1].centre
        if np.hypot(x2 - x1, y2 - y1) < CORNERS_MIN_DISTANCE * size:
            continue
        paper = card_paper(picture, [c.box for c in corners])
        if paper is None:
            continue
        share = middle_ink_share(picture, corners[0].centre, corners[1].centre, size, paper)
        if rank in NUMBER_RANKS and share >= COURT_INK_SHARE:
            doubts[id(card)] = f"{COURT_UNDER_NUMBER} ({share:.2f} ink), not {rank} pips"
        elif rank in COURT_RANKS and share < NUMBER_INK_SHARE:
            doubts[id(card)] = f"its face shows no court figure ({share:.2f} ink)"
    return doubts
