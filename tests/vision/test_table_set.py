"""The tables set's judging (vision.evaluation.table_set) of a read against the truth: per hand, per seat, and which
wrong hands gave no warning."""
from __future__ import annotations

from vision.crops import CARD_CODES
from vision.evaluation import table_set


def truth_hand(seat: int, codes: list[str]) -> dict:
    return {"seat": seat, "cards": codes, "rows": {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]}}


def read_hand(seat: int, codes: list[str], warnings: list[str] = (), sure: bool = True) -> dict:
    hand = truth_hand(seat, codes)
    return dict(hand, cards=[{"code": c, "sure": sure} for c in codes], warnings=list(warnings))


def test_wrong_hands_are_told_apart_by_warning_by_seat_not_found_and_by_cards_shown_sure(tmp_path, monkeypatch):
    hands = [CARD_CODES[13 * k:13 * k + 13] for k in range(4)]
    truth = {"hands": [truth_hand(k, hands[k]) for k in range(4)],
             "cards": [{"code": c, "seat": k, "indices": [[0, 0, 1, 1]]} for k in range(4) for c in hands[k]]}
    swapped = hands[2][:12] + [hands[3][0]]  # seat 2 read with seat 3's first card for its last
    read = {"hands": [read_hand(0, hands[0]), read_hand(1, hands[1][::-1], ["rows ambiguous"]),
                      read_hand(2, swapped)], "unassigned": [], "warnings": []}
    monkeypatch.setattr(table_set, "table_read", lambda reader, data, loose=False: read)
    (tmp_path / "0000.jpg").write_bytes(b"photo")
    result = table_set.evaluate_tables(None, [table_set.TablePhoto(tmp_path / "0000.jpg", truth)], "tables")
    assert result.numbers["hands exactly right"] == 0.25
    assert result.numbers["hands read wrong without any warning"] == 2  # seat 2 and seat 3 (not found)
    assert result.numbers["...of them seats not found at all"] == 1
    assert result.numbers["...of them read with every card shown sure"] == 1
    assert result.failures == ["0000.jpg: seat 1, seat 2 (no warning), seat 3 not found (no warning)"]
    read["hands"][2] = read_hand(2, swapped, sure=False)  # an unsure card: the review marks it
    again = table_set.evaluate_tables(None, [table_set.TablePhoto(tmp_path / "0000.jpg", truth)], "tables")
    assert again.numbers["...of them read with every card shown sure"] == 0


def test_a_hand_is_right_with_its_cards_in_the_right_rows_in_any_order_within_a_row():
    codes = CARD_CODES[:13]
    truth = truth_hand(0, codes)
    shuffled = read_hand(0, codes)
    shuffled["rows"] = {name: row[::-1] for name, row in truth["rows"].items()}
    assert table_set.hand_right(truth, shuffled, loose=False)
    moved = read_hand(0, codes)
    moved["rows"] = {"front": codes[:2] + codes[3:4], "middle": codes[2:3] + codes[4:8], "back": codes[8:]}
    assert not table_set.hand_right(truth, moved, loose=False)
    assert not table_set.hand_right(truth, dict(moved, rows=None), loose=False)
