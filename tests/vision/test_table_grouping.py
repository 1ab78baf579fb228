"""Whole-table grouping (vision.table) on reads made from the generator's table layouts by geometry alone: each card's
visible corner indices projected through the table camera, as the reader would find them (no models, no pictures)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards import Card, IndexReading
from vision.crops import CARD_CODES
from vision.results import ReadResult
from vision.synth import table_scenes
from vision.synth.layouts import Placed
from vision.table import NOT_IN_A_HAND, table_of

ASPECT = 0.7
SIZE = (4000, 3000)
# the top-left index of an upright card, card units about its centre (1.0 tall): 0.1 wide, 0.2 tall
INDEX = np.array([[-0.33, -0.47], [-0.23, -0.47], [-0.23, -0.27], [-0.33, -0.27]])


def card_turn(card: Placed) -> np.ndarray:
    a = np.radians(-card.angle)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def indices_seen(cards: list[Placed], camera: np.ndarray, quarter_turns: int = 0) -> list[Card]:
    """Each card with its corner indices no later card covers, as boxes in the picture turned `quarter_turns`
    clockwise."""
    outlines = [table_scenes.card_outline(card, ASPECT) for card in cards]
    seen = []
    for number, card in enumerate(cards):
        readings = []
        for corner in (INDEX, -INDEX):
            on_table = corner @ card_turn(card).T + [card.x, card.y]
            middle = tuple(float(v) for v in on_table.mean(axis=0))
            if any(cv2.pointPolygonTest(outline, middle, False) >= 0 for outline in outlines[number + 1:]):
                continue  # under a card laid later
            points = turned(cv2.perspectiveTransform(on_table[None], camera)[0], quarter_turns)
            box = (*points.min(axis=0), *points.max(axis=0))
            readings.append(IndexReading(tuple(float(v) for v in box), card.code, 0.99, 0.9))
        if readings:
            seen.append(Card(card.code, readings))
    return seen


def turned(points: np.ndarray, quarter_turns: int) -> np.ndarray:
    """Picture points after turning the picture clockwise by quarter turns."""
    w, h = SIZE
    for _ in range(quarter_turns % 4):
        points = np.stack([h - points[:, 1], points[:, 0]], axis=1)
        w, h = h, w
    return points


def photo_size(quarter_turns: int) -> tuple[int, int]:
    return SIZE if quarter_turns % 2 == 0 else SIZE[::-1]


def read_of(cards: list[Card]) -> ReadResult:
    return ReadResult(cards, None, [], 1.0, readings=[r for card in cards for r in card.indices])


def table_scene(seed: int, seats: list[int], *, loose: bool = False, crowded: bool = False,
                elevation: float = 90.0) -> tuple[table_scenes.TableLayout, np.ndarray]:
    rng = np.random.default_rng([seed, 67])
    table = table_scenes.table_layout(rng, ASPECT, seats, loose=loose, crowded=crowded)
    return table, table_scenes.table_camera(rng, table.layout, SIZE, elevation)


def read_table_scene(table, camera, quarter_turns: int = 0, loose: bool = False) -> dict:
    return table_of(read_of(indices_seen(table.layout.cards, camera, quarter_turns)), photo_size(quarter_turns),
                    loose=loose)


def assert_hands_right(read: dict, table: table_scenes.TableLayout, quarter_turns: int = 0) -> None:
    expected = {(seat + quarter_turns) % 4: rows for seat, rows in table.rows.items()}
    assert {hand["seat"]: hand["rows"] for hand in read["hands"]} == expected
    assert [hand["seat"] for hand in read["hands"]] == sorted(expected)
    assert all(not hand["warnings"] for hand in read["hands"])
    assert read["unassigned"] == [] and read["warnings"] == []
    for hand in read["hands"]:
        assert [card["row"] for card in hand["cards"]] == ["front"] * 3 + ["middle"] * 5 + ["back"] * 5
        assert [card["code"] for card in hand["cards"]] == [code for name in ("front", "middle", "back")
                                                             for code in hand["rows"][name]]


@pytest.mark.parametrize("quarter_turns", [0, 1, 2, 3])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_four_hands_each_in_its_seat_whichever_way_the_photo_is_turned(seed, quarter_turns):
    table, camera = table_scene(seed, [0, 1, 2, 3])
    assert_hands_right(read_table_scene(table, camera, quarter_turns), table, quarter_turns)


@pytest.mark.parametrize("elevation", [45.0, 60.0, 75.0])
@pytest.mark.parametrize("seed", [4, 5])
def test_tilted_camera(seed, elevation):
    table, camera = table_scene(seed, [0, 1, 2, 3], elevation=elevation)
    assert_hands_right(read_table_scene(table, camera), table)


@pytest.mark.parametrize("seats", [[0, 1, 3], [1, 2, 3], [0, 2], [1, 3], [0, 1], [2, 3]])
def test_empty_seats_stay_empty(seats):
    table, camera = table_scene(6, seats, elevation=60.0)
    read = read_table_scene(table, camera)
    assert [hand["seat"] for hand in read["hands"]] == seats
    assert_hands_right(read, table)


def touching_table(seats: list[int], elevation: float) -> tuple[table_scenes.TableLayout, np.ndarray]:
    """The first crowded table (seeded) where cards of two hands overlap."""
    for seed in range(40):
        table, camera = table_scene(seed, seats, crowded=True, elevation=elevation)
        if table_scenes.largest_overlap(table.layout.cards, table.seats, ASPECT) > 0:
            return table, camera
    raise AssertionError("no crowded table with touching hands in 40 seeds")


@pytest.mark.parametrize("elevation", [90.0, 50.0])
def test_touching_hands_are_split(elevation):
    table, camera = touching_table([0, 1, 2, 3], elevation)
    assert_hands_right(read_table_scene(table, camera), table)


def unused_code(table: table_scenes.TableLayout) -> str:
    return next(code for code in CARD_CODES if code not in {c.code for c in table.layout.cards})


def lone_card_spot(table: table_scenes.TableLayout, seats: tuple[int, int]) -> np.ndarray:
    """The point between two seats' hands farthest from every card (searched on the segment between them, and
    beyond its middle towards the table's corner)."""
    centres = {seat: np.mean([[c.x, c.y] for c, s in zip(table.layout.cards, table.seats) if s == seat], axis=0)
               for seat in seats}
    everything = np.array([[c.x, c.y] for c in table.layout.cards])
    middle = (centres[seats[0]] + centres[seats[1]]) / 2
    candidates = [middle * t for t in np.linspace(0.0, 1.6, 33)]
    return max(candidates, key=lambda p: np.min(np.linalg.norm(everything - p, axis=1)))


@pytest.mark.parametrize("angle", [0.0, 45.0, 270.0])
@pytest.mark.parametrize("seats", [(0, 1), (0, 2)])
def test_a_card_between_two_hands_is_reported_not_given_to_either(seats, angle):
    table, camera = table_scene(7, [0, 1, 2], elevation=70.0)
    spot = lone_card_spot(table, seats)
    everything = np.array([[c.x, c.y] for c in table.layout.cards])
    assert np.min(np.linalg.norm(everything - spot, axis=1)) > 2.5  # card heights: really apart from both hands
    stray = unused_code(table)
    table.layout.cards.append(Placed(stray, *spot, angle))
    read = read_table_scene(table, camera)
    assert [card["code"] for card in read["unassigned"]] == [stray]
    assert any(w.startswith(NOT_IN_A_HAND) and stray in w for w in read["warnings"])
    assert all(stray not in [c["code"] for c in hand["cards"]] for hand in read["hands"])
    assert {hand["seat"]: hand["rows"] for hand in read["hands"]} == table.rows
    assert all(not hand["warnings"] for hand in read["hands"])


def test_a_hand_short_or_long_always_says_so():
    table, camera = table_scene(8, [0, 1, 3], elevation=80.0)
    cards = indices_seen(table.layout.cards, camera)
    bottom = [c for c, s in zip(table.layout.cards, table.seats) if s == 0]
    short = [card for card in cards if card.code != bottom[0].code]  # the bottom hand one card short
    read = table_of(read_of(short), SIZE)
    hand = next(h for h in read["hands"] if h["seat"] == 0)
    assert len(hand["cards"]) == 12 and "expected 13 cards, found 12" in hand["warnings"]
    # a 14th card laid at the end of the bottom hand's back row, a step on
    back = [c for c in bottom if c.code in table.rows[0]["back"]]
    last, before = back[-1], back[-2]
    extra = Placed(unused_code(table), 2 * last.x - before.x, 2 * last.y - before.y, last.angle)
    read = table_of(read_of(cards + indices_seen([extra], camera)), SIZE)
    hand = next(h for h in read["hands"] if h["seat"] == 0)
    assert len(hand["cards"]) == 14 and "expected 13 cards, found 14" in hand["warnings"]


@pytest.mark.parametrize("seed", [9, 10, 11])
def test_big_two_groups_each_seats_cards_without_rows(seed):
    table, camera = table_scene(seed, [0, 1, 2, 3], loose=True, elevation=65.0)
    read = read_table_scene(table, camera, loose=True)
    expected = {seat: sorted(c.code for c, s in zip(table.layout.cards, table.seats) if s == seat)
                for seat in table.rows}
    assert {hand["seat"]: sorted(c["code"] for c in hand["cards"]) for hand in read["hands"]} == expected
    assert all(hand["rows"] is None and all(c["row"] is None for c in hand["cards"]) for hand in read["hands"])
    assert read["unassigned"] == []


def test_short_hand_is_filled_from_unsure_marks_near_it_not_from_another_hands():
    table, camera = table_scene(12, [0, 1, 2, 3], elevation=80.0)
    cards = indices_seen(table.layout.cards, camera)
    bottom_code = next(c.code for c, s in zip(table.layout.cards, table.seats) if s == 0)
    unsure = next(card for card in cards if card.code == bottom_code)
    doubted = [IndexReading(r.box, r.code, 0.45, 0.9) for r in unsure.indices]
    sure = [card for card in cards if card is not unsure]
    read = table_of(ReadResult(sure, None, ["left out unsure marks: ..."], 1.0,
                               readings=[r for card in sure for r in card.indices] + doubted), SIZE)
    hands = {hand["seat"]: hand for hand in read["hands"]}
    assert hands[0]["rows"] == table.rows[0]
    assert any(w.startswith(f"low confidence: {bottom_code}") for w in hands[0]["warnings"])
    assert all(len(hands[seat]["cards"]) == 13 and not hands[seat]["warnings"] for seat in (1, 2, 3))
    filler = next(c for c in hands[0]["cards"] if c["code"] == bottom_code)
    assert filler["sure"] is False


def test_no_cards_no_hands():
    read = table_of(ReadResult([], None, ["no card found: retake the photo"], 1.0), SIZE)
    assert read == {"hands": [], "unassigned": [], "warnings": ["no card found: retake the photo"]}


def test_big_two_names_the_unsure_marks_lying_with_a_seats_cards():
    table, camera = table_scene(9, [0, 1, 2, 3], loose=True, elevation=65.0)
    cards = indices_seen(table.layout.cards, camera)
    seat_of = dict(zip((c.code for c in table.layout.cards), table.seats))
    fullest = max(table.rows, key=table.seats.count)
    unsure = next(card for card in cards if seat_of[card.code] == fullest)
    doubted = [IndexReading(r.box, r.code, 0.15, 0.9) for r in unsure.indices]
    sure = [card for card in cards if card is not unsure]
    read = table_of(ReadResult(sure, None, [], 1.0, readings=[r for c in sure for r in c.indices] + doubted), SIZE,
                    loose=True)
    hands = {hand["seat"]: hand for hand in read["hands"]}
    assert unsure.code not in [c["code"] for c in hands[fullest]["cards"]]  # a faint mark fills no seat...
    confidence = 1 - 0.85 ** len(doubted)  # (its two corners, or one where the other is covered)
    assert hands[fullest]["warnings"] == [f"left out unsure marks: {unsure.code}? ({confidence:.2f})"]  # ...but warned
    assert all(not hand["warnings"] for seat, hand in hands.items() if seat != fullest)
    # named more surely (from LOOSE_FILL), the seat takes it, flagged
    doubted = [IndexReading(r.box, r.code, 0.45, 0.9) for r in unsure.indices]
    read = table_of(ReadResult(sure, None, [], 1.0, readings=[r for c in sure for r in c.indices] + doubted), SIZE,
                    loose=True)
    hands = {hand["seat"]: hand for hand in read["hands"]}
    filler = next(c for c in hands[fullest]["cards"] if c["code"] == unsure.code)
    assert filler["sure"] is False and filler["row"] is None
    assert hands[fullest]["warnings"] == [f"low confidence: {unsure.code} ({1 - 0.55 ** len(doubted):.2f})"]
    assert all(not hand["warnings"] for seat, hand in hands.items() if seat != fullest)


def test_big_two_warns_a_seat_of_a_box_left_unnamed_among_its_cards():
    table, camera = table_scene(9, [0, 1, 2, 3], loose=True, elevation=65.0)
    cards = indices_seen(table.layout.cards, camera)
    seat_of = dict(zip((c.code for c in table.layout.cards), table.seats))
    fullest = max(table.rows, key=table.seats.count)
    hidden = next(card for card in cards if seat_of[card.code] == fullest and len(card.indices) == 2)  # left unnamed
    unnamed = [IndexReading(r.box, CARD_CODES[-1] if hidden.code != CARD_CODES[-1] else CARD_CODES[0], 0.08, 0.9,
                            unnamed=True) for r in hidden.indices[:1]]
    sure = [card for card in cards if card is not hidden]
    readings = [r for c in sure for r in c.indices]
    read = table_of(ReadResult(sure, None, [], 1.0, readings=readings + unnamed), SIZE, loose=True)
    hands = {hand["seat"]: hand for hand in read["hands"]}
    assert hands[fullest]["warnings"] == [f"left out unsure marks: {unnamed[0].code}? (0.08)"]
    assert all(not hand["warnings"] for seat, hand in hands.items() if seat != fullest)
    # an unnamed box on a named card's other corner (same code within a card's reach) is that card: no warning
    other_corner = [IndexReading(r.box, hidden.code, 0.08, 0.9, unnamed=True) for r in hidden.indices[:1]]
    named = [IndexReading(r.box, hidden.code, 0.99, 0.9) for r in hidden.indices[1:]]
    read = table_of(ReadResult(sure + [Card(hidden.code, named)], None, [], 1.0,
                               readings=readings + named + other_corner), SIZE, loose=True)
    assert all(not hand["warnings"] for hand in read["hands"])


def test_a_hand_of_13_is_not_warned_of_an_unnamed_box_among_its_cards():
    table, camera = table_scene(1, [0, 1, 2, 3], elevation=80.0)
    cards = indices_seen(table.layout.cards, camera)
    box = cards[0].indices[0].box
    width = box[2] - box[0]
    stray = IndexReading((box[0] + 2 * width, box[1], box[2] + 2 * width, box[3]), "2C", 0.08, 0.9, unnamed=True)
    readings = [r for c in cards for r in c.indices] + [stray]
    read = table_of(ReadResult(cards, None, [], 1.0, readings=readings), SIZE)
    assert all(not hand["warnings"] for hand in read["hands"])  # rows mode: a hand not of 13 always warns
    loose = table_of(ReadResult(cards, None, [], 1.0, readings=readings), SIZE, loose=True)
    assert sum(hand["warnings"] == ["left out unsure marks: 2C? (0.08)"] for hand in loose["hands"]) == 1


def test_a_code_two_hands_hold_is_warned_in_both_and_one_held_once_in_neither():
    from vision.table import repeats_warned

    def hand(seat, codes, warnings=()):
        return {"seat": seat, "cards": [{"code": c} for c in codes], "rows": None, "warnings": list(warnings)}

    table = {"hands": [hand(0, ["AS", "KH"]), hand(1, ["KH", "2C"]), hand(2, ["3D"], ["card seen twice: 3D x"])],
             "unassigned": [{"code": "2C"}, {"code": "3D"}], "warnings": []}
    warned = repeats_warned(table)
    assert warned["hands"][0]["warnings"] == ["card seen twice: KH in seat 0 and seat 1: one of them is another card"]
    assert warned["hands"][1]["warnings"] == [
        "card seen twice: KH in seat 0 and seat 1: one of them is another card",
        "card seen twice: 2C in seat 1 and no hand: one of them is another card"]
    assert warned["hands"][2]["warnings"] == ["card seen twice: 3D x"]  # warned of it already
    assert repeats_warned(dict(table, unassigned=[], hands=table["hands"][:1])) == dict(
        table, unassigned=[], hands=table["hands"][:1])


def test_a_whole_deck_read_with_one_code_twice_names_the_likelier_wrong_copy_the_code_not_read():
    from vision.table import one_deck

    def hand(seat, codes):
        cards = [{"code": c, "confidence": 0.99, "sure": True, "alternatives": [],
                  "row": "front" if j < 3 else "middle" if j < 8 else "back"} for j, c in enumerate(codes)]
        return {"seat": seat, "cards": cards, "rows": {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]},
                "warnings": []}

    hands = [CARD_CODES[13 * k:13 * k + 13] for k in range(4)]
    misread = hands[3][:12] + [hands[0][5]]  # seat 3's last card read as seat 0's sixth
    table = {"hands": [hand(k, hands[k]) for k in range(3)] + [hand(3, misread)], "unassigned": [], "warnings": []}
    table["hands"][3]["cards"][12].update(confidence=0.8, sure=False,
                                          alternatives=[{"code": hands[3][12], "confidence": 0.15}])
    read = one_deck(table)
    seat_3 = read["hands"][3]
    assert seat_3["rows"]["back"] == hands[3][8:] and seat_3["cards"][12]["code"] == hands[3][12]
    assert seat_3["cards"][12]["confidence"] == 0.15 and seat_3["cards"][12]["sure"] is False
    assert seat_3["warnings"] == [f"{hands[3][12]} deduced: read as {hands[0][5]} (0.80), a card seat 0 holds too; "
                                  f"no card read {hands[3][12]}: check it"]
    assert read["hands"][1:3] == table["hands"][1:3] and read["hands"][0]["cards"] == table["hands"][0]["cards"]
    assert read["hands"][0]["warnings"] == [f"{hands[0][5]}: read too in seat 3, taken there for another card: "
                                            "check it"]
    # both copies sure, the surer one gave the code no card was read the likelier chance: that one is renamed
    both = {"hands": [dict(h, cards=[dict(c) for c in h["cards"]]) for h in table["hands"]], "unassigned": [],
            "warnings": []}
    both["hands"][3]["cards"][12].update(confidence=0.98, sure=True,
                                         alternatives=[{"code": hands[3][12], "confidence": 0.007}])
    both["hands"][0]["cards"][5].update(confidence=0.994, sure=True,
                                        alternatives=[{"code": hands[3][12], "confidence": 0.026}])
    read = one_deck(both)
    assert read["hands"][0]["cards"][5]["code"] == hands[3][12] and read["hands"][0]["cards"][5]["sure"] is False
    assert read["hands"][3]["cards"][12]["code"] == hands[0][5]
    both["hands"][0]["cards"][5]["alternatives"] = []  # neither names it likelier: the less sure copy is renamed
    both["hands"][3]["cards"][12]["alternatives"] = []
    assert one_deck(both)["hands"][3]["cards"][12]["code"] == hands[3][12]
    # not a whole deck (seat 2 not on the table): the less sure copy takes its likeliest alternative no card holds
    three = dict(table, hands=[table["hands"][k] for k in (0, 1, 3)])
    three["hands"][2]["cards"][12]["alternatives"] = [{"code": hands[0][0], "confidence": 0.1},
                                                      {"code": hands[2][4], "confidence": 0.05}]
    seat_3 = one_deck(three)["hands"][2]
    assert seat_3["cards"][12]["code"] == hands[2][4] and seat_3["rows"]["back"][-1] == hands[2][4]
    three["hands"][2]["cards"][12]["alternatives"] = [{"code": hands[0][0], "confidence": 0.1}]
    assert one_deck(three) == three  # no alternative free: as it was (repeats_warned warns of it)
    short = dict(table, hands=table["hands"][:3] + [hand(3, misread[:12])])  # once each: nothing to deduce
    assert one_deck(short) == short
