"""The reader's own warnings reach the review translated: every warning the reader's row and card code writes is
either restated with a key that has English, Traditional and Simplified text, or re-checked by the review itself."""
from __future__ import annotations

import re

import cv2
import numpy as np

from vision.cards import IndexReading, leave_out_repeats, merge_indices
from vision.crops import CLASS_NAMES
from vision.reader import CardReader
from vision.rows import group_rows
from webapp.rounds.reader_notes import READER_WARNING_TEXT, rechecked_by_review, restate
from webapp.rounds.review import WARNING_TEXT

INDEX = 56.0


def _row_warnings() -> list[str]:
    """Warnings vision.rows writes for layouts that are not a clean 3/5/5, from the real grouping code."""
    def spread(sizes: tuple[int, ...]) -> list[list[tuple[float, float]]]:
        return [[(200.0 * k - 100.0 * size, 260.0 * r)] for r, size in enumerate(sizes) for k in range(size)]

    rng = np.random.default_rng(4)
    layouts = [spread((5, 3, 5)), spread((5, 4, 4)),
               [[(float(x), float(y))] for x, y in rng.uniform(0, 2000, (13, 2))],  # scattered
               [[(100.0 * k, 0.0)] for k in range(13)],  # one long row
               [[(0.0, 0.0)]] * 7 + [[(500.0, 500.0)]] * 6,  # two heaps
               [[(0.0, 0.0)], [(100.0, 0.0)]]]  # too few
    return [w for points in layouts for w in group_rows(points, INDEX).warnings]


def _seen_twice_warning() -> list[str]:
    far_apart = [IndexReading((0, 0, 20, 30), "KH", 0.9, 0.9), IndexReading((900, 900, 920, 930), "KH", 0.8, 0.9)]
    return merge_indices(far_apart)[1]


def _seen_twice_left_out_warning() -> list[str]:
    """What the reader writes when a hand of 14 names one card twice far apart (the less sure one left out)."""
    others = [IndexReading((100.0 * k, 2000, 100.0 * k + 20, 2030), code, 0.95, 0.9)
              for k, code in enumerate(["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"])]
    far_apart = [IndexReading((0, 0, 20, 30), "KH", 0.9, 0.9), IndexReading((900, 900, 920, 930), "KH", 0.8, 0.9)]
    readings = others + far_apart
    cards, warnings = merge_indices(readings)
    return leave_out_repeats(cards, warnings, 13)[1]


class _FindsNothing:
    score_threshold = 0.25

    def detect(self, image, long_side, *, score_threshold=None):
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)


class _NamesNothing:
    def probabilities(self, image, boxes):
        return np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)


def _nothing_found_warnings() -> list[str]:
    """What the reader writes for a photo where it finds no card at all, loose and in rows."""
    reader = CardReader(detector=_FindsNothing(), classifier=_NamesNothing(), detection_sizes=(640,))
    photo = cv2.imencode(".png", np.full((600, 800, 3), 90, np.uint8))[1].tobytes()
    return reader.read(photo, loose=True).warnings + reader.read(photo).warnings


def test_every_reader_warning_is_restated_or_rechecked():
    written = _row_warnings() + _seen_twice_warning() + _seen_twice_left_out_warning() + _nothing_found_warnings()
    keys = set()
    for text in written:
        if rechecked_by_review(text):
            continue  # row sizes and card counts: the review re-checks them against the hand as corrected
        restated = restate(text)
        assert restated is not None, f"reader warning not translated: {text!r}"
        keys.add(restated[0])
    assert keys == {"front_unclear", "no_front_row", "rows_unclear", "no_rows", "too_few_for_rows", "seen_twice",
                    "seen_twice_left_out", "no_card_read"}


def test_values_are_taken_from_the_warning():
    assert restate("card seen twice: KH appears 2 times far apart") == ("seen_twice", {"code": "KH", "n": "2"})
    assert restate("card seen twice: KC far apart in a hand of 14; the less sure (0.89) left out") == (
        "seen_twice_left_out", {"code": "KC", "n": "14", "confidence": "0.89"})
    assert restate("cannot form rows from 2 card(s)") == ("too_few_for_rows", {"n": "2"})
    assert restate("left out unsure marks: 7H? (0.41), QS? (0.52)") == ("unsure_marks",
                                                                         {"marks": "7H? (0.41), QS? (0.52)"})
    assert restate("something new the reader says") is None
    assert rechecked_by_review("front row has 4 card(s), expected 3")
    assert rechecked_by_review("low confidence: KD (0.31)")
    assert not rechecked_by_review("card seen twice: KH appears 2 times far apart")


def test_every_restated_key_has_its_texts_with_the_same_values():
    for key, english in READER_WARNING_TEXT.items():
        assert WARNING_TEXT[key] == english
        names = set(re.findall(r"{(\w+)}", english))
        for locale in ("zh_Hant", "zh_Hans"):
            translated = _catalog(locale).get(f"warn_{key}").string
            assert set(re.findall(r"{(\w+)}", translated)) == names, (key, translated)


def _catalog(locale: str):
    from pathlib import Path

    from babel.messages.pofile import read_po

    import webapp

    with (Path(webapp.__file__).parent / "translations" / locale / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=locale)


def test_unsure_marks_and_rows_warnings_are_shown_in_chinese(client, monkeypatch):
    from webapp_testkit import csrf_token, warnings_after_reading

    reading = {"cards": [], "rows": None,
               "warnings": ["left out unsure marks: 7H? (0.41)",
                            "rows ambiguous: cannot tell front from back; the row at the top of the photo is "
                            "taken as front"]}
    token, number, warnings = warnings_after_reading(client, monkeypatch, reading)
    assert [w.get("key") for w in warnings if w.get("key") in READER_WARNING_TEXT] == ["unsure_marks",
                                                                                       "front_unclear"]
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans"})
    page = client.get(f"/g/{token}/r/{number}").get_data(as_text=True)
    assert "已略去读取不确定的牌角：7H? (0.41)。" in page
    assert "分不出头道和尾道" in page
    assert "left out unsure marks" not in page and "cannot tell front from back" not in page


def test_the_second_looks_doubts_are_read_card_by_card():
    from vision.second_opinion import second_look_warning
    from webapp.rounds.reader_notes import second_look_doubts

    (ks,), _ = merge_indices([IndexReading((0, 0, 20, 30), "KS", 0.9, 0.9)])
    (nine,), _ = merge_indices([IndexReading((0, 0, 20, 30), "9H", 0.9, 0.9)])
    text = second_look_warning([(ks, "KD", 0.62), (nine, "none", 0.554)])  # as the reader writes it
    assert second_look_doubts(text) == [("KS", "KD", 0.62), ("9H", "none", 0.55)]
    assert rechecked_by_review(text)
    assert second_look_doubts("left out unsure marks: 7H? (0.41)") == []


def test_a_doubted_card_is_warned_of_until_it_is_corrected(client, monkeypatch):
    from webapp_testkit import csrf_token, hand_read_from_photo, reading_of

    rows = {"front": ["AS", "KS", "QS"], "middle": ["2C", "2D", "9H", "9S", "4C"],
            "back": ["3H", "4H", "5H", "6H", "7H"]}
    reading = reading_of(rows, ["second look doubts: KS (KD? 0.62), 9H (none? 0.55)"])
    token, number = hand_read_from_photo(client, monkeypatch, reading)

    def doubts():
        hand = client.get(f"/api/games/{token}/rounds/{number}").get_json()["hands"][0]
        return [(w["key"], w["params"]["code"], w["text"]) for w in hand["warnings"]
                if w.get("key", "").startswith("second_look")]

    assert doubts() == [("second_look", "KS", "KS: a second look at it reads KD (62%). Check this card."),
                        ("second_look_none", "9H", "9H: a second look at it sees no card there (55%). Check this card.")]
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant"})
    assert "KS：再看一次讀成 KD（62%）。請核對這張牌。" in client.get(f"/g/{token}/r/{number}/p/0").get_data(as_text=True)
    response = client.post(f"/g/{token}/r/{number}/p/0/correct", data={
        "csrf_token": csrf_token(client), "row": "front", "index": "1", "code": "KD"})
    assert response.status_code == 303
    assert [code for _, code, _ in doubts()] == ["9H"]


def test_an_unknown_deck_warning_is_restated_with_its_codes():
    from vision.messages import UNKNOWN_DECK_WARNING

    text = f"{UNKNOWN_DECK_WARNING} (8C shows a court figure, TD shows a court figure): check every card"
    assert restate(text) == ("unknown_deck", {"codes": "8C, TD"})
    assert "8C, TD" in READER_WARNING_TEXT["unknown_deck"].format(codes="8C, TD")
