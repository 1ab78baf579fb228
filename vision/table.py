"""The whole table in one photo: every player's hand, each in its seat (`vision.read_table`, `vision read --table`).

The photo is read once by the card reader in loose mode (its detector and classifiers do not care how a card is
turned); the cards are then grouped into hands and seated by their geometry alone, top to bottom in `table_of`:

1. Each card faces its owner, so its corner indices stand upright (taller than wide) for the bottom and top seats
   and lie on their side for the left and right ones: the cards split into an upright and a side-on class at the
   widest gap between their aspects, which keeps hands apart where neighbouring seats' layouts touch at a corner.
2. Within a class the cards are split across the table (upright ones by height, side-on ones by width) where two
   hands' worth of cards lie (rows mode), or at a gap wider than any inside one hand.
3. A card far from every other card of its group belongs to no hand, nor do a few cards lying apart (rows mode): they
   are reported, never given to a neighbour. A hand short of 13 is filled from the read's unsure marks that lie
   with it (vision.table_fill), flagged `low confidence` as the single-hand read does; a Big Two seat takes those
   named at least LOOSE_FILL, and is warned of the rest and of boxes left unnamed among its cards.
4. Rows (`vision.rows`, rows mode) cut each hand 3/5/5 whatever its turn; the front row faces the table's centre, so
   the direction front → back points at the owner and names the seat. Two hands in one class, or no clear front
   (and loose groups), are seated by where they lie: seats run clockwise from the photo's bottom edge (0 bottom,
   1 left, 2 top, 3 right).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median

import numpy as np

from vision.cards import EXPECTED_CARDS, Card
from vision.crops import CARD_CODES
from vision.decode import check_limits
from vision.imageheader import ImageHeader
from vision.messages import SEEN_TWICE_WARNING, UNSURE_MARKS_WARNING
from vision.results import LOW_CONFIDENCE, ReadResult
from vision.rows import ROW_NAMES, group_rows
from vision.table_closer import CODE, NOT_IN_A_HAND, closer_looks
from vision.table_fill import filled, nearest_group, other_marks, unsure_cards

# An index box taller than wide by this much stands upright: upright indices measure 1.3–2.7 tall for wide, side-on
# ones 0.25–0.55, seen straight above down to 45° (the tilt squeezes both) on rendered tables.
UPRIGHT_ASPECT = 0.85
# Two hands of one class lie across the table from each other: their nearest cards at least ~4 card heights apart
# (20+ index sizes), a hand's own rows at most ~1.7 card heights (13 index sizes) centre to centre.
HANDS_APART = 16.0
# Upright and side-on indices differ by the square of an index's aspect (~2): their log aspects lie ~1.4 apart, less
# in a steep view's far side, and a gap of 0.6 or more parts them; within a class they lie closer together.
CLASSES_APART = 0.35
# One class holding at least this many cards in rows mode holds two hands (a hand is 13).
TWO_HANDS = 20
# A card this many times its group's typical spacing from the nearest other card of the group is in no hand.
DETACHED = 2.5
# ...and at least this many index sizes from it (a group's spacing can be tiny: overlapped cards).
DETACHED_MIN = 7.0
# Fewer cards lying together are no Chinese-poker hand (a stray card or two between the hands); Big Two's losers may
# hold a single card.
FEWEST_IN_A_HAND = 4
# A Big Two seat takes an unsure mark lying with it (no card holds its code) named at least this surely, flagged
# `low confidence` (left out, rendered tables' marks from 0.4 were nearly all the seat's own cards: neoclassical 7s;
# from 0.3, other seats' cards too); fainter ones are only named in its warnings.
LOOSE_FILL = 0.4
FRONT_AMBIGUOUS = "cannot tell front from back"


@dataclass(frozen=True)
class Mark:
    """What the grouping needs of one card the reader named: where it lies and how it is turned (working pixels)."""
    centre: np.ndarray  # (x, y)
    size: float  # its indices' median size (the longer side of an index box)
    upright: bool
    points: list[tuple[float, float]]  # its index centres, surest first (vision.rows)


def read_table(data: bytes, *, loose: bool = False) -> dict:
    """Read a table photo: `{"hands": [{"seat", "cards", "rows", "warnings"}, ...], "unassigned": [...],
    "warnings": [...]}`, seats clockwise from the photo's bottom edge. `loose` (Big Two): each seat's cards without
    rows. Raises vision.ImageError for unreadable photos, vision.ModelError when the models are missing."""
    from vision.reader import default_reader

    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("read_table needs the photo's bytes")
    data = bytes(data)
    check_limits(data)  # a bad photo gets its typed error before the models are loaded
    return table_read(default_reader(), data, loose=loose)


def table_read(reader, data: bytes, *, loose: bool = False) -> dict:
    """read_table with this reader (a vision.CardReader): one loose read of the photo grouped into seated hands, then
    a closer look at each hand left unsure (vision.table_closer)."""
    table = table_of(reader.read(data, loose=True), photo_size(check_limits(data)), loose=loose)
    return repeats_warned(one_deck(closer_looks(reader, data, table, loose)))


def one_deck(table: dict) -> dict:
    """The table with each code read twice (one deck holds each card once) read once: the copy likelier wrong
    (`renaming_odds`) is named its `replacement` (on rendered tables the neoclassical deck's 7s read as 2s, a blurred
    JS as JC), unsure and warned; the rest as it was (vision.table's repeats_warned warns of those left)."""
    codes = [card["code"] for hand in table["hands"] for card in hand["cards"]] + [
        card["code"] for card in table["unassigned"]]
    for code in sorted({code for code in codes if codes.count(code) == 2}):
        copies = [(k, i) for k, hand in enumerate(table["hands"]) for i, card in enumerate(hand["cards"])
                  if card["code"] == code]
        if len(copies) != 2:
            continue  # (a card in no hand: its place says nothing of which copy is wrong)
        k, i = max(copies, key=lambda ki: renaming_odds(table, table["hands"][ki[0]]["cards"][ki[1]]))
        other = next(ki for ki in copies if ki != (k, i))
        was = table
        table = renamed(table, k, i, table["hands"][other[0]]["seat"])
        if table is not was:  # the copy kept may be the wrong one: its hand is told too
            hands = list(table["hands"])
            hands[other[0]] = dict(hands[other[0]], warnings=hands[other[0]]["warnings"] + [
                f"{code}: read too in seat {table['hands'][k]['seat']}, taken there for another card: check it"])
            table = dict(table, hands=hands)
    return table


def renaming_odds(table: dict, card: dict) -> tuple[float, bool, float]:
    """How likely a copy of a code read twice is the wrong one, for max(): the chance its classifier gave the code
    it would be renamed to (`replacement`), then not sure, then less confident (rendered tables: a blurred JS read
    JC at 0.994, the other JC at 0.983; JS was 0.026 of the first's, 0.007 of the second's)."""
    new = replacement(table, card)
    return (alternative_chance(card, new[0]) if new else 0.0), not card["sure"], -card["confidence"]


def alternative_chance(card: dict, code: str) -> float:
    """The chance the classifier gave `code` among the card's alternatives (0 where it is not listed)."""
    return next((a["confidence"] for a in card["alternatives"] if a["code"] == code), 0.0)


def replacement(table: dict, card: dict) -> tuple[str, str] | None:
    """The code a copy of a code read twice would be renamed to, and why: the code no card was read as where the
    table was read as a whole deck but for it, else its likeliest alternative no card holds; None when neither."""
    held = {card["code"] for hand in table["hands"] for card in hand["cards"]} | {
        card["code"] for card in table["unassigned"]}
    count = sum(len(hand["cards"]) for hand in table["hands"]) + len(table["unassigned"])
    unread = sorted(set(CARD_CODES) - held)
    if count == len(CARD_CODES) and len(unread) == 1:
        return unread[0], f"no card read {unread[0]}"
    new = next((a["code"] for a in card["alternatives"] if a["code"] not in held), None)
    return None if new is None else (new, f"its likeliest other code, no card read {new}")


def renamed(table: dict, k: int, i: int, holder: int) -> dict:
    """The table with hand k's card i (a code seat `holder` holds too) named the code no card was read
    as, where the table is a whole deck but for it, else its likeliest alternative no card holds; unchanged when
    neither is there."""
    hand, old = table["hands"][k], table["hands"][k]["cards"][i]
    found = replacement(table, old)
    if found is None:
        return table
    new, why = found
    card = dict(old, code=new, confidence=alternative_chance(old, new), sure=False,
                alternatives=[{"code": old["code"], "confidence": old["confidence"]}])
    rows = hand["rows"]
    if rows is not None and old.get("row") in rows:  # the card's place in its row: as many of the row before it
        row = list(rows[old["row"]])
        place = sum(1 for c in hand["cards"][:i] if c.get("row") == old["row"])
        place = place if place < len(row) and row[place] == old["code"] else row.index(old["code"])
        row[place] = new
        rows = dict(rows, **{old["row"]: row})
    warning = (f"{new} deduced: read as {old['code']} ({old['confidence']:.2f}), a card seat {holder} holds too; "
               f"{why}: check it")
    hands = list(table["hands"])
    hands[k] = dict(hand, cards=[card if j == i else c for j, c in enumerate(hand["cards"])], rows=rows,
                    warnings=hand["warnings"] + [warning])
    return dict(table, hands=hands)


def repeats_warned(table: dict) -> dict:
    """The table with each hand holding a code another hand (or a card in no hand) holds too warned of it: one deck
    is on the table, so one of them is read wrong (the closer looks keep none; a safety net for what they miss)."""
    places: dict[str, list[str]] = {}
    for hand in table["hands"]:
        for card in hand["cards"]:
            places.setdefault(card["code"], []).append(f"seat {hand['seat']}")
    for card in table["unassigned"]:
        places.setdefault(card["code"], []).append("no hand")
    hands = []
    for hand in table["hands"]:
        warned = [f"{SEEN_TWICE_WARNING}: {code} in {' and '.join(places[code])}: one of them is another card"
                  for code in dict.fromkeys(card["code"] for card in hand["cards"]) if len(places[code]) > 1
                  and not any(w.startswith(f"{SEEN_TWICE_WARNING}: {code} ") for w in hand["warnings"])]
        hands.append(dict(hand, warnings=hand["warnings"] + warned) if warned else hand)
    return dict(table, hands=hands)


def photo_size(header: ImageHeader) -> tuple[int, int]:
    """Width and height of the photo as shown (after its EXIF orientation)."""
    return (header.height, header.width) if header.orientation >= 5 else (header.width, header.height)


def table_of(result: ReadResult, photo_size: tuple[int, int], *, loose: bool = False) -> dict:
    """The hands of a loose read of a table photo (`photo_size` = its width and height in pixels, as shown)."""
    read = len(result.cards)
    spare_cards = unsure_cards(result)
    cards = result.cards + spare_cards  # spares (to fill short hands) after the cards read surely
    unfilling = len(cards)
    if loose:  # ...then marks that fill nothing but warn the seat they lie with (rows: a hand not of 13 warns)
        cards += other_marks(result, spare_cards)
    card_dicts = ReadResult(cards, None, [], result.scale).to_dict()["cards"]
    marks = marks_of(cards, read)
    groups, unassigned = [], []
    for upright in (True, False):
        members = [i for i in range(read) if marks[i].upright == upright]
        for group in split_across(marks, members, upright, rows_mode=not loose):
            kept, detached = attached(marks, group)
            if len(kept) < (1 if loose else FEWEST_IN_A_HAND):
                kept, detached = [], group
            unassigned += detached
            if kept:
                groups.append(kept)
    centres, sizes = np.array([m.centre for m in marks]).reshape(-1, 2), np.array([m.size for m in marks])
    reaches = [reach(marks, g) for g in groups]
    spares = list(range(read, unfilling))
    groups = filled(groups, cards, centres, sizes, reaches,
                    spares if not loose else [s for s in spares if cards[s].confidence >= LOOSE_FILL])
    centre = np.array(photo_size, dtype=float) / 2 / result.scale
    hands = [hand_of(cards, marks, group, marks[group[0]].upright, centre, loose) for group in groups]
    left_out: dict[int, list[int]] = {}  # the spares no hand took, by the group they lie with: warned there
    for spare in [s for s in spares if all(s not in g for g in groups)] + list(range(unfilling, len(cards))):
        left_out.setdefault(nearest_group(groups, centres, sizes, reaches, spare), []).append(spare)
    for k, hand in enumerate(hands):
        if left_out.get(k):
            hand["warnings"].append(f"{UNSURE_MARKS_WARNING}: " + ", ".join(
                f"{cards[i].code}? ({cards[i].confidence:.2f})" for i in left_out[k]))
    hands = seated(hands)
    warnings = list(result.warnings)
    for i in sorted(unassigned):
        warnings.append(f"{NOT_IN_A_HAND}: {cards[i].code} at {card_dicts[i]['box']} lies apart from every hand; "
                        "add it to its hand by hand")
    for hand in hands:  # the read's warnings that name a card of the hand (doubts, a card seen twice) go with it too
        codes = {cards[i].code for i in hand["cards"]}
        hand["warnings"] += [w for w in result.warnings if not w.startswith(UNSURE_MARKS_WARNING)
                             and codes & set(CODE.findall(w))]
    return {"hands": [{"seat": h["seat"], "cards": [dict(card_dicts[i], row=h["row_of"].get(i)) for i in h["cards"]],
                       "rows": h["rows"], "warnings": h["warnings"]} for h in hands],
            "unassigned": [dict(card_dicts[i], row=None) for i in sorted(unassigned)],
            "warnings": warnings}


def marks_of(cards: list[Card], read: int) -> list[Mark]:
    """Each card's mark, upright where its indices' aspect (height / width) is above the threshold the first `read`
    cards (those read surely) set."""
    aspects = [median(math.log(max(r.box[3] - r.box[1], 1e-6) / max(r.box[2] - r.box[0], 1e-6)) for r in card.indices)
               for card in cards]
    threshold = upright_threshold(aspects[:read])
    return [Mark(np.array(card.centre), median(r.size for r in card.indices), aspect > threshold,
                 [r.centre for r in card.indices]) for card, aspect in zip(cards, aspects)]


def upright_threshold(log_aspects: list[float]) -> float:
    """The log aspect between upright and side-on indices: in the widest gap between the photo's aspects where that
    is wide enough to part two classes (a steep view squeezes every index along the view, the far side most, and a
    view from the side makes side-on indices look square), else UPRIGHT_ASPECT, or the side of it most cards lie."""
    values = np.sort(np.array(log_aspects))
    fixed = float(np.log(UPRIGHT_ASPECT))
    if len(values) < 2:
        return fixed
    gaps = np.diff(values)
    k = int(np.argmax(gaps))
    if gaps[k] > CLASSES_APART:
        return float((values[k] + values[k + 1]) / 2)
    return values[0] - 1.0 if np.median(values) > fixed else values[-1] + 1.0  # one class: every card in it


def split_across(marks: list[Mark], members: list[int], upright: bool, rows_mode: bool) -> list[list[int]]:
    """One class's cards as one group, or two split across the table at the widest gap (upright: by height, side-on:
    by width), nearest the photo's top or left first."""
    if not members:
        return []
    axis = 1 if upright else 0
    order = sorted(members, key=lambda i: marks[i].centre[axis])
    if len(order) < 2:
        return [order]
    gaps = np.array([(marks[b].centre[axis] - marks[a].centre[axis]) / ((marks[a].size + marks[b].size) / 2)
                     for a, b in zip(order, order[1:])])
    if rows_mode and len(order) >= TWO_HANDS:
        # two hands: cut where each side keeps nearly a hand (a stray card or a few missed move the cut little)
        least = len(order) - EXPECTED_CARDS - 2
        gaps[:least - 1] = gaps[len(order) - least:] = -np.inf
        widest = int(np.argmax(gaps))
        return [order[:widest + 1], order[widest + 1:]]
    widest = int(np.argmax(gaps))
    if gaps[widest] > HANDS_APART:
        return [order[:widest + 1], order[widest + 1:]]
    return [order]


def nearest_apart(marks: list[Mark], group: list[int]) -> np.ndarray:
    """Each card's distance to the nearest other card of its group, in its index sizes."""
    centres = np.array([marks[i].centre for i in group])
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    return distances.min(axis=1) / np.array([marks[i].size for i in group])


def reach(marks: list[Mark], group: list[int]) -> float:
    """How far (index sizes) a card may lie from the nearest card of the group and still be in its hand."""
    return max(DETACHED * float(np.median(nearest_apart(marks, group))), DETACHED_MIN) if len(group) > 1 \
        else DETACHED_MIN


def attached(marks: list[Mark], group: list[int]) -> tuple[list[int], list[int]]:
    """The group's cards that lie with the others, and those far from all of them (in no hand)."""
    if len(group) < 3:
        return group, []
    nearest = nearest_apart(marks, group)
    limit = reach(marks, group)
    return ([i for i, d in zip(group, nearest) if d <= limit],
            [i for i, d in zip(group, nearest) if d > limit])


def hand_of(cards: list[Card], marks: list[Mark], members: list[int], upright: bool, centre: np.ndarray,
            loose: bool) -> dict:
    """A hand: its cards (front, middle, back in rows mode), rows, warnings and the seat its own geometry names
    (`facing`: from its front row, else None) and its place (`side`: the seat its position names)."""
    axis = 1 if upright else 0
    middle = np.mean([marks[i].centre for i in members], axis=0)
    after = middle[axis] > centre[axis]  # below / right of the photo's centre
    side = (0 if after else 2) if upright else (3 if after else 1)
    hand = {"members": members, "upright": upright, "position": float(middle[axis]), "side": side, "facing": None,
            "cards": list(members), "rows": None, "row_of": {}, "warnings": []}
    if len(members) != EXPECTED_CARDS and not loose:
        hand["warnings"].append(f"expected {EXPECTED_CARDS} cards, found {len(members)}")
    hand["warnings"] += [f"low confidence: {cards[i].code} ({cards[i].confidence:.2f})" for i in members
                         if cards[i].confidence < LOW_CONFIDENCE]  # a short hand's fillers
    if loose:
        hand["cards"] = sorted(members, key=lambda i: tuple(marks[i].centre[::-1]))
        return hand
    index_size = float(np.median([marks[i].size for i in members]))
    grouping = group_rows([marks[i].points for i in members], index_size)
    hand["warnings"] += grouping.warnings
    rows = {name: [members[k] for k in grouping.rows[name]] for name in ROW_NAMES}
    in_rows = [i for name in ROW_NAMES for i in rows[name]]
    hand["cards"] = in_rows + [i for i in members if i not in in_rows]
    hand["rows"] = {name: [cards[i].code for i in rows[name]] for name in ROW_NAMES}
    hand["row_of"] = {i: name for name in ROW_NAMES for i in rows[name]}
    clear = in_rows and not any(FRONT_AMBIGUOUS in w for w in grouping.warnings)
    if clear:
        facing = int(round(grouping.angle_deg / 90.0)) % 4  # front → back: 0 down, 90 left, 180 up, 270 right
        hand["facing"] = facing if (facing % 2 == 0) == upright else None
    return hand


def seated(hands: list[dict]) -> list[dict]:
    """Each hand's seat: two hands of one class by their order across the photo, a lone one by the way it faces
    (else by its side of the photo); hands ordered by seat. A class holds two hands at most, so no seat holds two."""
    for upright, (first, second) in ((True, (2, 0)), (False, (1, 3))):
        group = sorted((h for h in hands if h["upright"] == upright), key=lambda h: h["position"])
        if len(group) == 2:
            group[0]["seat"], group[1]["seat"] = first, second
        elif len(group) == 1:
            hand = group[0]
            hand["seat"] = hand["facing"] if hand["facing"] is not None else hand["side"]
    return sorted(hands, key=lambda h: h["seat"])
