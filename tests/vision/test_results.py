"""vision.results on hand-made readings: which cards are kept, filled, doubted and how they are warned about."""
from vision.cards import IndexReading
from vision.messages import NO_CARDS_WARNING, UNSURE_MARKS_WARNING
from vision.results import doubt_cut_indices, leave_out_unsure, result_of

CODES = ["2S", "3S", "4S", "5H", "6H", "7H", "8H", "9H", "TD", "JD", "QD", "KD", "AC"]
INDEX = 20.0  # index box side, pixels


def index_at(x: float, y: float, code: str, probability: float = 0.95) -> IndexReading:
    return IndexReading((x, y, x + INDEX, y + INDEX), code, probability, 0.9)


def layout(probabilities: dict[str, float] | None = None) -> list[IndexReading]:
    """One corner per card, in rows of 3 / 5 / 5 spaced far apart (200 px between cards, 400 between rows)."""
    probabilities = probabilities or {}
    places = [(col, 0) for col in range(3)] + [(col, 1) for col in range(5)] + [(col, 2) for col in range(5)]
    return [index_at(100 + 200 * col, 100 + 400 * row, code, probabilities.get(code, 0.95))
            for code, (col, row) in zip(CODES, places)]


SHAPE = (1400, 1200, 3)


def test_a_sure_hand_is_kept_whole_in_its_rows_without_warnings():
    result = result_of(layout(), SHAPE, 1.0, False, {}, 640)
    assert result.warnings == []
    assert {name: [c.code for c in cards] for name, cards in result.rows.items()} == {
        "front": CODES[:3], "middle": CODES[3:8], "back": CODES[8:]}


def test_an_unsure_card_fills_a_short_hand_flagged_but_loose_cards_leave_it_out():
    readings = layout({"9H": 0.5})
    hand = result_of(readings, SHAPE, 1.0, False, {}, 640)
    assert "9H" in [c.code for c in hand.cards] and "low confidence: 9H (0.50)" in hand.warnings
    loose = result_of(readings, SHAPE, 1.0, True, {}, 640)
    assert "9H" not in [c.code for c in loose.cards] and len(loose.cards) == 12
    assert loose.warnings == [f"{UNSURE_MARKS_WARNING}: 9H? (0.50)"]
    assert loose.rows is None


def test_a_filler_never_repeats_a_sure_card_and_fillers_stop_at_the_floor():
    readings = layout() + [index_at(1100, 1300, "2S", 0.6), index_at(1100, 100, "KH", 0.2)]
    cards, warnings, _ = leave_out_unsure(readings[1:], False, 0.7, 0.3)  # 2S's sure corner gone: 12 sure
    assert "2S" in [c.code for c in cards]  # the unsure 2S fills the gap
    assert "KH" not in [c.code for c in cards] and "KH?" in warnings[-1]
    cards, warnings, _ = leave_out_unsure(readings, False, 0.7, 0.3)  # 13 sure: nothing to fill
    assert len(cards) == 13 and "2S? (0.60)" in warnings[-1]


def test_an_index_at_the_photo_edge_is_named_just_under_the_threshold():
    inside, at_edge = index_at(50, 50, "AS", 0.99), IndexReading((0.0, 50.0, 20.0, 70.0), "KD", 0.99, 0.9)
    doubted = doubt_cut_indices([inside, at_edge], SHAPE, 0.7)
    assert doubted[0] is inside and doubted[1].probability == 0.69 and doubted[1].code == "KD"
    assert doubt_cut_indices([at_edge], SHAPE, 0.0) == [at_edge]  # no threshold: nothing to doubt against


def test_nothing_found_says_so_in_both_modes():
    assert result_of([], SHAPE, 1.0, True, {}, 640).warnings[0].startswith(NO_CARDS_WARNING)
    assert "expected 13 cards, found 0" in result_of([], SHAPE, 1.0, False, {}, 640).warnings


def test_a_weak_name_for_another_cards_corner_does_not_pull_a_sure_card_into_another_row():
    """Session 55's layout 0011: a weak reading of a sure card's code on another card's corner (here between the
    front and middle rows, within a card's reach of 5H's corners) stays off 5H, so the rows hold."""
    readings = layout() + [index_at(100 + 200 * 0 + 60, 100 + 400 * 1 + 120, "5H", 0.99),  # 5H's second corner
                           index_at(100, 380, "5H", 0.28)]
    result = result_of(readings, SHAPE, 1.0, False, {}, 640)
    assert {name: [c.code for c in cards] for name, cards in result.rows.items()} == {
        "front": CODES[:3], "middle": CODES[3:8], "back": CODES[8:]}
    assert f"{UNSURE_MARKS_WARNING}: 5H? (0.28)" in result.warnings
    five_hearts = next(c for c in result.cards if c.code == "5H")
    assert len(five_hearts.indices) == 2


def test_loose_cards_keep_a_weak_reading_of_a_sure_cards_code_on_that_card():
    """Loose cards have no rows for a card's centre to upset: the weak reading joins, and no mark is warned of."""
    readings = layout() + [index_at(160, 620, "5H", 0.99), index_at(100, 380, "5H", 0.28)]
    loose = result_of(readings, SHAPE, 1.0, True, {}, 640)
    assert loose.warnings == [] and len(next(c for c in loose.cards if c.code == "5H").indices) == 3
