"""The closer look at an unsure table hand (vision.table_closer) with a stand-in reader: what it reads again, and
which second reads it keeps."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import table_closer
from vision.crops import CARD_CODES


def card(code: str, x: float, y: float, confidence: float = 0.99) -> dict:
    return {"code": code, "confidence": confidence, "box": [x, y, x + 20, y + 40], "row": None,
            "sure": confidence >= 0.7, "alternatives": []}


class StandInReader:
    """Reads every region as the same hand of 13 (codes given), in a line through the region's middle."""

    def __init__(self, codes: list[str], confidence: float = 0.95):
        self.codes, self.confidence, self.regions = codes, confidence, []

    def read(self, data: bytes, loose: bool = False):
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        self.regions.append(image.shape[:2])
        h, w = image.shape[:2]
        cards = [card(code, w // 2 - 60 + 10 * i, h // 2, self.confidence) for i, code in enumerate(self.codes)]
        rows = {"front": self.codes[:3], "middle": self.codes[3:8], "back": self.codes[8:]}
        return type("Read", (), {"to_dict": lambda _: {"cards": cards, "rows": rows, "warnings": []}})()


@pytest.fixture
def photo() -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((1500, 2000, 3), 90, np.uint8))
    return data.tobytes()


@pytest.fixture(autouse=True)
def same_reader(monkeypatch):
    monkeypatch.setattr(table_closer, "quick", lambda reader: reader)
    monkeypatch.setattr(table_closer, "EMPTY_SEAT_LOOKS", False)  # (its own tests below)


def table(short: list[str], other: list[str]) -> dict:
    return {"hands": [{"seat": 0, "cards": [card(c, 800 + 30 * i, 1200) for i, c in enumerate(short)],
                       "rows": None, "warnings": ["expected 13 cards, found 12"]},
                      {"seat": 2, "cards": [card(c, 800 + 30 * i, 100) for i, c in enumerate(other)],
                       "rows": None, "warnings": []}],
            "unassigned": [], "warnings": []}


def test_a_short_hand_is_read_again_from_its_region_and_kept_when_whole(photo):
    codes = CARD_CODES[:13]
    reader = StandInReader(codes)
    read = table_closer.closer_looks(reader, photo, table(codes[:12], CARD_CODES[13:26]))
    assert len(reader.regions) == 1  # the whole hand of seat 2 is not looked at again
    hand = read["hands"][0]
    assert [c["code"] for c in hand["cards"]] == codes and hand["seat"] == 0 and hand["warnings"] == []
    x0, y0, _, _ = table_closer.region(table(codes[:12], [])["hands"][0], (1500, 2000))
    h, w = reader.regions[0]
    assert hand["cards"][1]["box"][:2] == [x0 + w // 2 - 50, y0 + h // 2]  # boxes back in the photo's pixels
    assert read["hands"][1] == table(codes[:12], CARD_CODES[13:26])["hands"][1]


def test_a_second_read_naming_another_hands_card_is_not_kept(photo):
    codes = CARD_CODES[:12] + [CARD_CODES[13]]  # its 13th card is seat 2's
    before = table(CARD_CODES[:12], CARD_CODES[13:26])
    assert table_closer.closer_looks(StandInReader(codes), photo, before) == before


def test_a_whole_hand_read_again_is_kept_only_when_surer(photo):
    before = table(CARD_CODES[:13], CARD_CODES[13:26])
    before["hands"][0]["cards"][-1]["confidence"] = 0.45  # filled from an unsure mark
    assert table_closer.closer_looks(StandInReader(CARD_CODES[:13], confidence=0.5), photo, before) == before
    read = table_closer.closer_looks(StandInReader(CARD_CODES[:13]), photo, before)
    assert [c["confidence"] for c in read["hands"][0]["cards"]] == [0.95] * 13


def test_a_short_hand_gives_way_to_a_whole_one_even_named_less_surely(photo):
    read = table_closer.closer_looks(StandInReader(CARD_CODES[:13], confidence=0.5), photo,
                                     table(CARD_CODES[:12], CARD_CODES[13:26]))
    assert [c["code"] for c in read["hands"][0]["cards"]] == CARD_CODES[:13]


def test_a_big_two_read_reaching_to_the_regions_edge_is_not_kept(photo):
    class ToTheEdge(StandInReader):
        def read(self, data, loose=False):
            read = super().read(data, loose).to_dict()
            read["cards"][-1] = card(read["cards"][-1]["code"], 0, 0)  # a card in the margin: maybe a neighbour's
            return type("Read", (), {"to_dict": lambda _: read})()

    before = table(CARD_CODES[:5], CARD_CODES[13:20])
    before["hands"][0]["warnings"] = ["left out unsure marks: 5C? (0.45)"]
    assert table_closer.closer_looks(ToTheEdge(CARD_CODES[:6]), photo, before, loose=True) == before


def test_big_two_seat_read_again_keeps_every_card_it_had(photo):
    before = table(CARD_CODES[:5], CARD_CODES[13:20])
    before["hands"][0]["warnings"] = ["left out unsure marks: 5C? (0.45)"]
    read = table_closer.closer_looks(StandInReader(CARD_CODES[:6]), photo, before, loose=True)
    assert [c["code"] for c in read["hands"][0]["cards"]] == CARD_CODES[:6] and read["hands"][0]["rows"] is None
    assert table_closer.closer_looks(StandInReader(CARD_CODES[1:7]), photo, before, loose=True) == before


def test_big_two_seat_read_again_keeps_the_unsure_marks_it_does_not_name(photo):
    before = table(CARD_CODES[:5], CARD_CODES[13:20])
    before["hands"][0]["warnings"] = [f"left out unsure marks: {CARD_CODES[40]}? (0.45)"]
    read = table_closer.closer_looks(StandInReader(CARD_CODES[:6]), photo, before, loose=True)
    assert read["hands"][0]["warnings"] == before["hands"][0]["warnings"]
    same = table_closer.closer_looks(StandInReader(CARD_CODES[:5]), photo, before, loose=True)
    assert same == before  # no card more: the first read stands


class HandInRows(StandInReader):
    """Reads every region as one hand of 13 in rows, its front row nearest the region's bottom (a top seat's hand)."""

    def read(self, data: bytes, loose: bool = False):
        read = super().read(data, loose).to_dict()
        rows = read["rows"]
        for card_ in read["cards"]:
            row = next(name for name in rows if card_["code"] in rows[name])
            y = {"front": 300, "middle": 200, "back": 100}[row]
            card_["box"] = [card_["box"][0], y, card_["box"][2], y + 40]
            card_["row"] = row
        return type("Read", (), {"to_dict": lambda _: read})()


def strays(codes: list[str], x: float, y: float) -> list[dict]:
    return [dict(card(code, x + 40 * i, y), row=None) for i, code in enumerate(codes)]


def test_a_few_cards_in_no_hand_lying_together_are_read_again_as_a_hand_seated_by_its_rows(photo):
    codes = CARD_CODES[26:39]
    before = table(CARD_CODES[:13], CARD_CODES[13:26])
    before["hands"] = before["hands"][:1]  # seat 0 only: the top hand was seen as four cards in no hand
    before["unassigned"] = strays(codes[3:7], 900, 150)
    before["warnings"] = [f"card in no hand: {c['code']} at {c['box']} lies apart from every hand; add it to its "
                          "hand by hand" for c in before["unassigned"]] + ["left out unsure marks: 2C? (0.30)"]
    reader = HandInRows(codes)
    read = table_closer.closer_looks(reader, photo, before)
    assert [hand["seat"] for hand in read["hands"]] == [0, 2]
    assert read["hands"][1]["rows"] == {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]}
    assert read["unassigned"] == [] and read["warnings"] == ["left out unsure marks: 2C? (0.30)"]
    # the strays' region, widened by STRAYS_MARGIN index sizes (6 x 40 px) on every side (the top at the photo's edge)
    assert reader.regions == [(190 + 240, 140 + 2 * 240)]


def test_cards_in_no_hand_stay_unassigned_unless_read_again_as_a_whole_hand_in_a_free_seat(photo):
    codes = CARD_CODES[26:39]
    before = table(CARD_CODES[:13], CARD_CODES[13:26])
    before["unassigned"] = strays(codes[3:7], 900, 150)
    assert table_closer.closer_looks(HandInRows(codes), photo, before) == before  # seat 2 is taken
    alone = dict(before, hands=before["hands"][:1])
    assert table_closer.closer_looks(HandInRows(codes[:12]), photo, alone) == alone  # 12 cards: no hand
    assert table_closer.closer_looks(HandInRows(codes[:12] + CARD_CODES[:1]), photo, alone) == alone  # seat 0's card
    missing = [c for c in codes if c != codes[4]] + [CARD_CODES[40]]
    assert table_closer.closer_looks(HandInRows(missing), photo, alone) == alone  # a stray it does not name
    apart = dict(alone, unassigned=strays(codes[3:5], 900, 150) + strays(codes[5:6], 1800, 1400))
    reader = HandInRows(codes)
    assert table_closer.closer_looks(reader, photo, apart) == apart and reader.regions == []  # two together only


class ReadsAt(StandInReader):
    """Reads each region as these cards at these photo boxes (the region's origin taken off), one read after another:
    the n-th region gets the n-th list (the last one again after that)."""

    def __init__(self, reads: list[list[tuple[str, list[float]]]], origin: tuple[int, int]):
        super().__init__([])
        self.reads, self.origin = reads, origin

    def read(self, data: bytes, loose: bool = False):
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        self.regions.append(image.shape[:2])
        hand = self.reads[min(len(self.regions), len(self.reads)) - 1]
        cards = [dict(card(code, box[0] - self.origin[0], box[1] - self.origin[1]), row=None) for code, box in hand]
        codes = [code for code, _ in hand]
        rows = {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]}
        return type("Read", (), {"to_dict": lambda _: {"cards": cards, "rows": rows, "warnings": []}})()


def test_a_short_hand_read_again_takes_a_card_in_no_hand_only_where_it_lies(photo):
    codes = CARD_CODES[:13]
    before = table(codes[:12], CARD_CODES[13:26])
    stray = card(codes[12], 800 + 30 * 12, 1200)
    before["unassigned"] = [dict(stray, row=None)]
    before["warnings"] = [f"card in no hand: {stray['code']} at {stray['box']} lies apart from every hand; add it "
                          "to its hand by hand"]
    origin = table_closer.region(before["hands"][0], (1500, 2000))[:2]
    there = [(c, [800 + 30 * i, 1200]) for i, c in enumerate(codes)]
    reader = ReadsAt([there], origin)
    read = table_closer.closer_looks(reader, photo, before)
    assert [c["code"] for c in read["hands"][0]["cards"]] == codes
    assert read["unassigned"] == [] and read["warnings"] == [] and read["hands"][1] == before["hands"][1]
    elsewhere = there[:12] + [(codes[12], [800 - 30 * 6, 1200])]  # read at the hand's other end: another card
    reader = ReadsAt([elsewhere], origin)
    assert table_closer.closer_looks(reader, photo, before) == before


def test_a_hand_still_short_when_read_again_is_read_once_more_from_a_wider_region(photo):
    codes = CARD_CODES[:13]
    before = table(codes[:6], CARD_CODES[13:26])  # six cards of the hand seen: it reaches further than they do
    wide = table_closer.region(before["hands"][0], (1500, 2000), table_closer.WIDER_MARGIN)
    narrow = table_closer.region(before["hands"][0], (1500, 2000))
    reader = ReadsAt([[(c, [800 + 30 * i, 1200]) for i, c in enumerate(codes[:12])],
                      [(c, [800 + 30 * i, 1200]) for i, c in enumerate(codes)]], wide[:2])
    read = table_closer.closer_looks(reader, photo, before)
    assert reader.regions == [(narrow[3] - narrow[1], narrow[2] - narrow[0]), (wide[3] - wide[1], wide[2] - wide[0])]
    assert [c["code"] for c in read["hands"][0]["cards"]] == codes
    nearly = table(codes[:12], CARD_CODES[13:26])  # a hand of 12 reaches little further: read once only
    reader = ReadsAt([[(c, [800 + 30 * i, 1200]) for i, c in enumerate(codes[:12])]], wide[:2])
    assert table_closer.closer_looks(reader, photo, nearly) == nearly and len(reader.regions) == 1


def rows_hand(codes: list[str], x: float, y: float, front_down: bool = True) -> dict:
    """A hand of cards in rows at (x, y) on, the front row below the back (faces the top seat) or above it."""
    rows = {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]}
    step = 50 if front_down else -50
    cards = [dict(card(code, x + 30 * k, y + step * (2 - i)), row=name)
             for i, name in enumerate(("front", "middle", "back")) for k, code in enumerate(rows[name])]
    return {"seat": 2, "cards": cards, "rows": rows, "warnings": []}


def test_an_empty_seat_is_looked_at_again_from_the_photos_half_on_its_side(photo, monkeypatch):
    import vision.table

    monkeypatch.setattr(table_closer, "EMPTY_SEAT_LOOKS", True)
    monkeypatch.setattr(table_closer, "PAPER_SHARE", 0.0)  # (every half could hold a hand: the gate's test below)
    halves = []

    def half_table(read, size, loose=False):
        halves.append(size)
        return {"hands": [rows_hand(CARD_CODES[26:39], 300, 200)], "unassigned": [], "warnings": []}

    monkeypatch.setattr(vision.table, "table_of", half_table)
    before = table(CARD_CODES[:13], CARD_CODES[13:26])
    before["hands"][1]["seat"] = 1  # seats 0 and 1 held: 2 and 3 looked at
    read = table_closer.closer_looks(StandInReader([]), photo, before)
    assert halves == [(2000, 750), (1000, 1500)]  # the top half, the right half
    assert [hand["seat"] for hand in read["hands"]] == [0, 1, 2]  # the hand facing the top seat, found in its half
    assert read["hands"][2]["rows"]["front"] == CARD_CODES[26:29]
    assert read["hands"][2]["cards"][0]["box"][:2] == [300, 300]  # (the top half's origin is the photo's)
    halves.clear()
    monkeypatch.setattr(vision.table, "table_of", lambda read, size, loose=False: (halves.append(size), {
        "hands": [rows_hand(CARD_CODES[26:39], 300, 200, front_down=False)], "unassigned": [], "warnings": []})[1])
    assert table_closer.closer_looks(StandInReader([]), photo, before) == before  # it faces the bottom: not seat 2
    monkeypatch.setattr(vision.table, "table_of", lambda read, size, loose=False: {
        "hands": [rows_hand(CARD_CODES[:13], 300, 200)], "unassigned": [], "warnings": []})
    assert table_closer.closer_looks(StandInReader([]), photo, before) == before  # seat 0's cards
    assert table_closer.closer_looks(StandInReader([]), photo, before, loose=True) == before  # Big Two: seats empty


def test_an_empty_seats_half_is_read_only_when_card_paper_shows_there_outside_the_hands_read(monkeypatch):
    import vision.table

    monkeypatch.setattr(table_closer, "EMPTY_SEAT_LOOKS", True)
    halves = []
    monkeypatch.setattr(vision.table, "table_of", lambda read, size, loose=False: (halves.append(size), {
        "hands": [], "unassigned": [], "warnings": []})[1])
    before = table(CARD_CODES[:13], CARD_CODES[13:26])
    before["hands"][1]["seat"] = 1  # seats 0 and 1 held (seat 1's cards at the top): 2 and 3 empty

    def photo_with(*papers) -> bytes:
        image = np.full((1500, 2000, 3), 90, np.uint8)  # a grey cloth
        for x0, y0, x1, y1 in papers:
            image[y0:y1, x0:x1] = 245
        return cv2.imencode(".jpg", image)[1].tobytes()

    assert table_closer.closer_looks(StandInReader([]), photo_with(), before) == before
    assert halves == []  # no paper anywhere: neither half read
    table_closer.closer_looks(StandInReader([]), photo_with((100, 100, 500, 400)), before)
    # paper in the top half only (left of the right half): seat 2's patch of paper read (widened by half its size
    # each way, clipped at the photo's edge), then its half
    assert len(halves) == 2 and halves[1] == (2000, 750)
    assert 690 <= halves[0][0] <= 730 and 540 <= halves[0][1] <= 580
    halves.clear()
    table_closer.closer_looks(StandInReader([]), photo_with((800, 60, 1200, 200)), before)
    assert halves == []  # the only paper is seat 1's hand's own (its cards lie there)
    table_closer.closer_looks(StandInReader([]), photo_with((1500, 1000, 1900, 1400)), before)
    assert halves[-1] == (1000, 1500)  # paper in the bottom right, outside seat 0's hand: the right half read
    halves.clear()
    table_closer.closer_looks(StandInReader([]), photo_with((1000, 0, 2000, 1500)), before)
    # the whole right half is paper (a white cloth, reaching into the top half too): each half read alone, once
    assert halves == [(2000, 750), (1000, 1500)]


def test_in_a_dark_photo_paper_is_as_bright_as_the_read_cards_own_and_a_far_hand_is_read_from_its_patch(monkeypatch):
    import vision.table

    monkeypatch.setattr(table_closer, "EMPTY_SEAT_LOOKS", True)
    regions = []

    def region_table(read, size, loose=False):
        regions.append(size)
        return {"hands": [rows_hand(CARD_CODES[26:39], 20, 20)] if size[0] < 1000 else [], "unassigned": [],
                "warnings": []}

    monkeypatch.setattr(vision.table, "table_of", region_table)
    before = table(CARD_CODES[:13], CARD_CODES[13:26])
    before["hands"][1]["seat"] = 1
    image = np.full((1500, 2000, 3), 40, np.uint8)  # a dim room: the cloth at 40...
    for hand in before["hands"]:  # ...the read cards' paper at 140, under the bright paper threshold
        for c in hand["cards"]:
            x0, y0, x1, y1 = (int(v) for v in c["box"])
            image[y0:y1, x0:x1] = 140
    image[100:300, 1300:1500] = 140  # a far hand's paper, top right (seat 2's half)
    read = table_closer.closer_looks(StandInReader([]), cv2.imencode(".jpg", image)[1].tobytes(), before)
    assert regions and regions[0][0] < 1000  # its patch read first, closer than the half (2000 x 750)
    assert [hand["seat"] for hand in read["hands"]] == [0, 1, 2]
    x0 = read["hands"][2]["cards"][0]["box"][0]
    assert 1150 <= x0 <= 1250  # the patch's origin added: where the far hand lies in the photo
    image[100:300, 1300:1500] = 40  # no far hand: nothing looked at
    regions.clear()
    assert table_closer.closer_looks(StandInReader([]), cv2.imencode(".jpg", image)[1].tobytes(), before) == before
    assert regions == []


def hand_in_rows(codes: list[str], seat: int, x: float, y: float, confidence: float = 0.99) -> dict:
    """A hand of these cards in rows at (x, y) on, its front row lowest."""
    rows = {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]}
    cards = [dict(card(code, x + 30 * k, y + 50 * (2 - i), confidence), row=name)
             for i, name in enumerate(("front", "middle", "back")) for k, code in enumerate(rows[name])]
    return {"seat": seat, "cards": cards, "rows": rows,
            "warnings": [] if len(codes) == 13 else [f"expected 13 cards, found {len(codes)}"]}


def test_a_short_hand_read_again_takes_back_a_card_another_hand_was_filled_with_unsurely(photo):
    codes = CARD_CODES[:13]
    short = hand_in_rows(codes[:12], 0, 800, 1100)
    filled = hand_in_rows(CARD_CODES[13:25] + codes[12:13], 2, 800, 100)
    filled["cards"][-1].update(confidence=0.45, sure=False)  # the card seat 0 lacks, filled in unsurely
    read = table_closer.closer_looks(StandInReader(codes), photo, {"hands": [short, filled], "unassigned": [],
                                                                    "warnings": []})
    seat_0, seat_2 = read["hands"]
    assert [c["code"] for c in seat_0["cards"]] == codes
    assert seat_0["warnings"] == [f"{codes[12]} also read, unsurely, in seat 2's hand: check it"]
    assert [c["code"] for c in seat_2["cards"]] == CARD_CODES[13:25] and codes[12] not in seat_2["rows"]["back"]
    assert seat_2["warnings"][0] == "expected 13 cards, found 12" and codes[12] in seat_2["warnings"][-1]
    filled["cards"][-1].update(confidence=0.99, sure=True)  # named surely there: seat 0's read is not kept
    before = {"hands": [short, filled], "unassigned": [], "warnings": []}
    assert table_closer.closer_looks(StandInReader(codes), photo, before) == before


def test_a_hand_in_rows_not_of_3_5_5_is_read_again(photo):
    codes = CARD_CODES[:13]
    jumbled = hand_in_rows(codes, 0, 800, 1100)
    jumbled["rows"] = {"front": codes[:1], "middle": codes[1:11], "back": codes[11:]}  # a crowded layout's rows
    before = {"hands": [jumbled, hand_in_rows(CARD_CODES[13:26], 2, 800, 100)], "unassigned": [], "warnings": []}
    reader = StandInReader(codes)
    read = table_closer.closer_looks(reader, photo, before)
    assert len(reader.regions) == 1 and read["hands"][0]["rows"] == {"front": codes[:3], "middle": codes[3:8],
                                                                     "back": codes[8:]}


class ResultReader:
    """Reads every region as these cards at these region boxes (a vision ReadResult, as CardReader.read gives)."""

    def __init__(self, placed: list[tuple[str, tuple[float, float]]], unsure: list[tuple[str, tuple[float, float]]]):
        self.placed, self.unsure, self.regions = placed, unsure, []

    def read(self, data: bytes, loose: bool = False):
        from vision.cards import Card, IndexReading
        from vision.results import ReadResult

        def reading(code, at, probability):
            return IndexReading((at[0], at[1], at[0] + 20, at[1] + 40), code, probability, 0.9)

        self.regions.append(data)
        cards = [Card(code, [reading(code, at, 0.95)]) for code, at in self.placed]
        unsure = [reading(code, at, 0.5) for code, at in self.unsure]
        return ReadResult(cards, None, [f"expected 13 cards, found {len(cards)}"], 1.0,
                          readings=[r for c in cards for r in c.indices] + unsure)


def test_a_neighbours_card_seen_in_the_margin_is_left_out_of_the_closer_read_and_the_rows_grouped_again(photo):
    codes = CARD_CODES[:13]
    short = hand_in_rows(codes[:11], 0, 800, 1100)  # 11 seen; the region read again shows 12 and the neighbour's
    neighbour = hand_in_rows(CARD_CODES[13:26], 1, 100, 1000)
    neighbour["cards"] = [dict(c, box=[b + (0, 500)[k % 2] for k, b in enumerate(c["box"])]) if i == 12 else c
                          for i, c in enumerate(neighbour["cards"])]  # its last card lies beside seat 0's hand
    x0, y0, _, _ = table_closer.region(short, (1500, 2000))
    rows = (codes[:3], codes[3:8], codes[8:])
    placed = [(code, (800 + 30 * k - x0, 1100 + 50 * (2 - i) - y0)) for i, row in enumerate(rows)
              for k, code in enumerate(row) if code != codes[4]]
    stray = neighbour["cards"][12]
    placed.append((stray["code"], (stray["box"][0] - x0, stray["box"][1] - y0)))
    reader = ResultReader(placed, [(codes[4], (800 + 30 - x0, 1150 - y0))])  # codes[4] read unsurely only
    read = table_closer.closer_looks(reader, photo, {"hands": [short, neighbour], "unassigned": [], "warnings": []})
    seat_0 = read["hands"][0]
    assert {name: sorted(row) for name, row in seat_0["rows"].items()} == {  # (the far side's order: reversed)
        "front": sorted(codes[:3]), "middle": sorted(codes[3:8]), "back": sorted(codes[8:])}
    assert seat_0["warnings"] == [f"low confidence: {codes[4]} (0.50)"] and read["hands"][1] == neighbour
