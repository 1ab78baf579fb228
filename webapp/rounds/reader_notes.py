"""The reader's own warnings (English text from `vision`) as the review sees them: those it re-checks itself, and
the rest restated with a key and values, so that the review can translate them like its own. A warning not listed
here is shown as the reader wrote it."""
from __future__ import annotations

import re
from typing import Any

from vision.messages import (BLURRED_WARNING, NO_CARDS_WARNING, SECOND_LOOK_WARNING, SEEN_TWICE_WARNING,
                             UNKNOWN_DECK_WARNING, UNSURE_MARKS_WARNING)
from vision.sharpness import BLURRED_BELOW

# English wording of the restated warnings (translations: webapp.i18n).
READER_WARNING_TEXT: dict[str, str] = {
    "blurred": "The photo looks blurred (index sharpness {sharpness}, sharp photos {sharp} or more): check every "
               "card, or retake it steadier, in focus and closer.",
    "moved": "The photo looks blurred (the camera moved: a smear of {length} px): check every card, or retake it "
             "holding the phone still.",
    "unsure_marks": "Left out marks the reader was unsure of: {marks}. If a card is missing, it may be one of these.",
    "seen_twice": "{code} was seen {n} times far apart in the photo: one of them is probably misread.",
    "seen_twice_left_out": "{code} was seen twice far apart in a hand of {n} cards: the less sure reading "
                           "({confidence}) was left out. Check that {code} is where it was read and no card is "
                           "missing.",
    "rows_unclear": "The three rows are not clearly apart in the photo: check which row each card is in.",
    "no_front_row": "No row of 3 cards at either end: the shorter end row was taken as the front; check the rows.",
    "front_unclear": "Front and back rows look alike: the row at the top of the photo was taken as the front; "
                     "check the rows.",
    "no_rows": "The cards do not lie in three separate rows: lay them out in rows and retake it, or type them.",
    "too_few_for_rows": "Only {n} card(s) found: too few to form rows.",
    "no_card_read": "No card was read in the photo: retake it with the cards' corners in view, closer and in focus.",
    "unknown_deck": "These cards' corners use letters this reader does not know ({codes} show a court figure): it "
                    "reads French-suited decks (A K Q J). Check every card, or type them.",
}

# Card counts, row sizes, confidence and the second look's doubts: the review checks these against the hand as
# corrected, not as read.
_RECHECKED = re.compile(r"(low confidence|expected \d+ cards, found|(front|middle|back) row has \d+ card|"
                        + re.escape(SECOND_LOOK_WARNING) + ")", re.IGNORECASE)
# One doubted card as the reader lists it: "KS (KD? 0.62)"
_DOUBT = re.compile(r"(?P<code>[2-9TJQKA][SHDC]) \((?P<other>[2-9TJQKA][SHDC]|none)\? (?P<probability>[\d.]+)\)")

# What the reader writes (vision.reader, vision.cards, vision.rows) -> key; named groups become the values.
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(re.escape(BLURRED_WARNING) + r" \(index sharpness (?P<sharpness>[\d.]+)"), "blurred"),
    (re.compile(re.escape(BLURRED_WARNING) + r" \(the camera moved: a smear of (?P<length>\d+) px\)"), "moved"),
    (re.compile(re.escape(UNSURE_MARKS_WARNING) + r": (?P<marks>.+)"), "unsure_marks"),
    (re.compile(re.escape(SEEN_TWICE_WARNING) + r": (?P<code>\w+) appears (?P<n>\d+) times far apart"),
     "seen_twice"),
    (re.compile(re.escape(SEEN_TWICE_WARNING) + r": (?P<code>\w+) far apart in a hand of (?P<n>\d+); "
                r"the less sure \((?P<confidence>[\d.]+)\) left out"), "seen_twice_left_out"),
    (re.compile(r"rows ambiguous: the three rows are not clearly separated"), "rows_unclear"),
    (re.compile(r"rows ambiguous: no 3-card row at either end"), "no_front_row"),
    (re.compile(r"rows ambiguous: cannot tell front from back"), "front_unclear"),
    (re.compile(r"rows ambiguous: the cards do not form three separate rows"), "no_rows"),
    (re.compile(r"cannot form rows from (?P<n>\d+) card"), "too_few_for_rows"),
    (re.compile(re.escape(NO_CARDS_WARNING) + ":"), "no_card_read"),
    (re.compile(re.escape(UNKNOWN_DECK_WARNING) + r" \((?P<codes>.+)\)"), "unknown_deck"),
]
_CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def rechecked_by_review(text: str) -> bool:
    """Whether the review states this reader warning itself, up to date after corrections."""
    return _RECHECKED.match(text) is not None


def second_look_doubts(text: str) -> list[tuple[str, str, float]]:
    """(card, the second look's code, its probability) for each card a "second look doubts" warning names; [] for
    any other warning."""
    if not text.startswith(SECOND_LOOK_WARNING + ":"):
        return []
    return [(m["code"], m["other"], float(m["probability"])) for m in _DOUBT.finditer(text)]


def doubted_codes(warnings: list[str]) -> dict[str, str]:
    """Each card a reading's "second look doubts" warning names -> the code the second look reads instead ('none'
    included)."""
    return {code: other for text in warnings for code, other, _ in second_look_doubts(text)}


def restate(text: str) -> tuple[str, dict[str, Any]] | None:
    """The key and values of a reader warning, or None when it is not one the review translates."""
    for pattern, key in _PATTERNS:
        found = pattern.match(text)
        if found:
            params: dict[str, Any] = found.groupdict()
            if key == "blurred":
                params["sharp"] = f"{BLURRED_BELOW:g}"
            if key == "unknown_deck":  # "8C shows a court figure, TD shows …": the codes, in any language
                params["codes"] = ", ".join(_CODE.findall(params["codes"]))
            return key, params
    return None


# One left-out mark as the reader lists it: "JS? (0.41)"
_MARK = re.compile(r"(?P<code>[2-9TJQKA][SHDC])\? \((?P<confidence>[\d.]+)\)")
# Warnings about how the cards lay in the photo's rows: settled once the hand is a full 3/5/5 that a person has
# changed since the reading (they looked at the rows).
_ROW_LAYOUT = frozenset({"rows_unclear", "no_front_row", "front_unclear", "no_rows", "too_few_for_rows"})


def still_holds(key: str, params: dict[str, Any], rows_now: dict[str, list[str]],
                rows_read: dict[str, list[str]] | None, sizes: dict[str, int],
                held: set[str]) -> dict[str, Any] | None:
    """A restated reader warning's values while it still says something true of the hand as it is now (unsure
    marks narrowed to those no hand of the round holds yet); None once a correction made it false.

    `rows_now`: the hand's rows now; `rows_read`: as the reader gave them (None: unknown, e.g. loose cards of a
    Chinese-poker hand); `sizes`: each row's size; `held`: every code any hand of the round holds."""
    codes = [code for row in rows_now.values() for code in row]
    full = all(len(rows_now.get(row, [])) == size for row, size in sizes.items())
    changed = rows_read is not None and any(list(rows_now.get(row, [])) != list(rows_read.get(row) or [])
                                            for row in sizes)
    if key in _ROW_LAYOUT or key == "seen_twice_left_out":
        return None if full and changed else params
    if key == "unsure_marks":
        marks = [found.group(0) for found in _MARK.finditer(str(params.get("marks", "")))
                 if found["code"] not in held]
        if full or not marks:
            return None
        return {**params, "marks": ", ".join(marks)}
    if key == "seen_twice":  # corrected since, and the card is there once at most: the doubt was settled
        return None if changed and codes.count(str(params.get("code"))) <= 1 else params
    if key == "no_card_read":
        return None if codes else params
    return params
