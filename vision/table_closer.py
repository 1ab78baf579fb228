"""A closer look at a table hand the whole-photo read left unsure: its region cut from the photo at full resolution
and read again as one hand (rows mode), kept when that read is a whole hand of 13 named more surely.

A table photo shows each hand small (indices ~15–25 px in the reader's ≥ 1920 px copy of a 12 MP photo, where a
single-hand photo shows them 30–60 px): most cards a table read misses or doubts are named surely from the hand's
own region at the photo's full resolution."""
from __future__ import annotations

import re
from dataclasses import replace

import cv2
import numpy as np

from vision.cards import EXPECTED_CARDS, SEPARATE_CORNER_OVERLAP, Card, overlap_share
from vision.decode import decode_photo
from vision.errors import ImageError
from vision.reader import CardReader
from vision.messages import UNSURE_MARKS_WARNING
from vision.results import LOW_CONFIDENCE, ReadResult
from vision.rows import EXPECTED_SIZES, ROW_NAMES, RowGrouping, group_rows
from vision.table_fill import unsure_cards

# The region read again: the hand's cards' boxes, widened by this share of its larger side on every side (the boxes
# are the indices', the cards reach further).
MARGIN = 0.25
# A hand of fewer than WIDER_BELOW cards read again from that region and still not 13 is read once more with this
# margin: a hand seen as a few of its cards reaches further than they do (a hand of 11 or 12 reaches little further:
# on rendered tables their second reads found nothing, at ~0.4 s each).
WIDER_MARGIN = 0.5
WIDER_BELOW = 10
FULL_RESOLUTION = 1 << 30  # decode_photo's min_long_side: no reduced decoding
# Cards in no hand read again as a hand of their own: at least this many within STRAYS_APART index sizes of one
# another (a hand's cards lie 2–13 index sizes apart; a stray card between two hands lies alone), their region widened
# by STRAYS_MARGIN index sizes on every side (they may be a corner of the hand only).
STRAYS_TOGETHER = 3
STRAYS_APART = 12.0
STRAYS_MARGIN = 6.0
# A table has four seats; an empty one (rows mode) is looked at again from the photo's half on its side, keeping a
# hand of at least FEWEST_FOUND cards found there (rendered tables: 2 hands the whole photo's read saw nothing of, found
# whole; it costs a 12 MP photo of 2-3 hands ~0.3 s CPU per empty seat read, when paper shows there (`paper_seats`):
# False turns it off).
EMPTY_SEAT_LOOKS = True
SEATS = 4
FEWEST_FOUND = 8
# An empty seat's half is read only when it could hold a hand: a small decode of the photo (long side ≥ GLANCE_SIDE)
# shows at least PAPER_SHARE of that half, outside the hands already read (their regions widened by MARGIN), as card
# paper (bright, hardly coloured: value ≥ PAPER_VALUE, saturation ≤ PAPER_SATURATION). Rendered tables (three sets,
# 175 empty halves): the halves a whole hand was missed in show 0.005–0.7 (a small far hand, or one overlapped tight:
# 0.005, 0.008); of the empty ones 131 show under 0.004 (a dark or coloured cloth: not read), 8 show 0.004–0.03 and
# 36 (a white cloth's) 0.04–1.0.
GLANCE_SIDE = 400
PAPER_SHARE = 0.004
PAPER_VALUE = 170
PAPER_SATURATION = 50
# ...or, in a dark photo, bright as PAPER_OF_READ of the read cards' own paper (the PAPER_QUANTILE of the value in
# their index boxes): a dim room's paper shows ~140, under PAPER_VALUE (rendered tables: two far hands missed so).
PAPER_OF_READ = 0.85
PAPER_QUANTILE = 90
PAPER_OVER_CLOTH = 25  # ...but never within this of the photo's median value (its cloth, mostly)
# An empty seat's half is read first from its PATCHES largest patches of paper (pixels of the small decode within
# PATCH_MERGE of one another merged; widened by PATCH_MARGIN of their size), then whole: a far hand is small in the
# half's read (rendered tables: a top hand of a 45 degree photo, indices ~8 px, read in no half, whole in its patch).
PATCHES = 2
PATCH_MERGE = 5
PATCH_MARGIN = 0.5
HALF_IN_A_PATCH = 0.5  # a patch this share of its half or more is not read apart (a white cloth: all paper)
PATCH_SIDE, PATCH_ASPECT = 64, 4.0  # a patch narrower or thinner than this holds no hand (rows of 3/5/5 cards)
# A hand read again may hold a card in no hand where it lies: its box there within this many of its sizes.
STRAY_IS_READ = 2.0
# A Big Two seat of this many cards or more is read closer: the more cards a pile holds, the more of their indices
# the others half hide, too small to name at the table read's scale (rendered tables: a seat of 10 read as 11 there;
# ~0.1 s CPU a seat).
BIG_PILE = 8
# A hand is read closer at most this often (a second time when a hand read closer took one of its cards).
LOOKS_AT_A_HAND = 2
LOOK_ORDER = {1: 0, -1: 1, 0: 2}  # hands read closer: long ones first, then short ones, then whole ones
COUNT_WARNING = f"expected {EXPECTED_CARDS} cards"  # vision.results' warning of a hand not of 13
NOT_IN_A_HAND = "card in no hand"  # vision.table's warning of a card in no hand
CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")  # a card code named in a warning


def wants_closer_look(hand: dict, loose: bool) -> bool:
    """A hand not of 13 cards, or filled with a card named under the unsure threshold, or in rows not 3/5/5 (a crowded
    layout's rows run together at the table read's scale); loose (Big Two): a seat's cards with unsure marks left out
    beside them, or BIG_PILE cards or more."""
    if loose:
        return len(hand["cards"]) >= BIG_PILE or any(w.startswith(UNSURE_MARKS_WARNING) for w in hand["warnings"])
    return (len(hand["cards"]) != EXPECTED_CARDS or any(card["confidence"] < LOW_CONFIDENCE for card in hand["cards"])
            or not rows_fit(hand["rows"]))


def rows_fit(rows: dict | None) -> bool:
    """Whether a hand's rows (None: not grouped) hold 3, 5 and 5 cards."""
    return rows is None or all(len(rows[name]) == size for name, size in EXPECTED_SIZES.items())


def closer_looks(reader: CardReader, data: bytes, table: dict, loose: bool = False) -> dict:
    """The table with each hand that wants it read again from its own region, then (rows mode) each few cards in no
    hand that lie together read again from their region as a hand of its own (`hand_in_no_hand`)."""
    wanted = [k for k, hand in enumerate(table["hands"]) if wants_closer_look(hand, loose)]
    strays = [] if loose else strays_together(table["unassigned"])
    empty = {} if loose or not EMPTY_SEAT_LOOKS else paper_seats(data, table)
    if not wanted and not strays and not empty:
        return table
    image = decode_photo(data, min_long_side=FULL_RESOLUTION).image
    reader = quick(reader)
    for stray in strays:
        table = hand_in_no_hand(reader, image, table, stray)
    for seat, patches in empty.items():
        if all(hand["seat"] != seat for hand in table["hands"]):  # (a stray's hand may have taken it)
            table = hand_at_empty_seat(reader, image, table, seat, patches)
    hands = list(table["hands"])
    # long hands first (a card they hold may be another's), then short ones (a card one lacks may be the one another
    # hand was filled with unsurely: it takes it back), then whole ones with unsure cards
    queue = sorted((k for k, hand in enumerate(hands) if wants_closer_look(hand, loose)),
                   key=lambda k: LOOK_ORDER[int(np.sign(len(hands[k]["cards"]) - EXPECTED_CARDS))])
    looks = [0] * len(hands)
    while queue:
        k = queue.pop(0)
        looks[k] += 1
        others = {card["code"]: (j, hand["seat"], card, len(hand["cards"]) == EXPECTED_CARDS)
                  for j, hand in enumerate(hands) if j != k for card in hand["cards"]}
        found = closer_hand(reader, image, hands[k], others, loose, strays=table["unassigned"])
        if found is None and not loose and len(hands[k]["cards"]) < WIDER_BELOW:
            found = closer_hand(reader, image, hands[k], others, loose, WIDER_MARGIN,  # the hand reaches further
                                strays=table["unassigned"])
        if found is None:
            continue
        hands[k], taken = found
        table = without_strays(table, {card["code"] for card in hands[k]["cards"]})
        for code in taken:  # a card another hand held unsurely, read surely here: that hand is short of it now
            j = others[code][0]
            hands[j] = without_card(hands[j], code, hands[k]["seat"])
            if looks[j] < LOOKS_AT_A_HAND and j not in queue and hands[j]["cards"]:
                queue.append(j)
    return dict(table, hands=hands)


def without_card(hand: dict, code: str, taker: int) -> dict:
    """The hand without its card of this code (seat `taker`'s closer look read it surely), warned of it and of its
    count."""
    cards = [card for card in hand["cards"] if card["code"] != code]
    rows = None if hand["rows"] is None else {name: [c for c in row if c != code] for name, row in hand["rows"].items()}
    warnings = [w for w in hand["warnings"] if not w.startswith(COUNT_WARNING) and set(CODE.findall(w)) != {code}]
    if rows is not None and len(cards) != EXPECTED_CARDS:
        warnings.insert(0, f"{COUNT_WARNING}, found {len(cards)}")
    warnings.append(f"{code} left out: seat {taker}'s hand read closer names it surely, here it was unsure")
    return dict(hand, cards=cards, rows=rows, warnings=warnings)


def paper_seats(data: bytes, table: dict) -> dict[int, list[tuple[int, int, int, int]]]:
    """The empty seats whose half of the photo could hold a hand: PAPER_SHARE or more of it, outside the hands read,
    card paper in a small decode of the photo (a few ms; the half's full-resolution read is ~0.3 s CPU); each with its
    paper's patches (`paper_patches`, full-resolution boxes), where a small far hand is read closer than in the half."""
    seats = sorted(set(range(SEATS)) - {hand["seat"] for hand in table["hands"]})
    if not seats:
        return {}
    photo = decode_photo(data, min_long_side=GLANCE_SIDE)
    small = photo.image
    h, w = small.shape[:2]
    full, scale = (h * photo.reduction, w * photo.reduction), 1.0 / photo.reduction
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    paper = (hsv[..., 2] >= paper_value(hsv[..., 2], table, scale)) & (hsv[..., 1] <= PAPER_SATURATION)
    outside = np.ones((h, w), bool)
    for hand in table["hands"]:
        if hand["cards"]:
            x0, y0, x1, y1 = region(hand, full, MARGIN)
            outside[int(y0 * scale):int(np.ceil(y1 * scale)), int(x0 * scale):int(np.ceil(x1 * scale))] = False
    found = {}
    for seat in seats:
        x0, y0, x1, y1 = half_of(seat, w, h)
        inside = outside[y0:y1, x0:x1]
        if inside.any() and paper[y0:y1, x0:x1][inside].mean() >= PAPER_SHARE:
            mask = np.zeros((h, w), np.uint8)
            mask[y0:y1, x0:x1] = paper[y0:y1, x0:x1] & inside
            found[seat] = paper_patches(mask, photo.reduction)
    return found


def paper_patches(mask: np.ndarray, reduction: float) -> list[tuple[int, int, int, int]]:
    """The PATCHES largest patches of card paper in a small decode's mask (cards a gap of a few pixels apart merged),
    as full-resolution boxes widened by PATCH_MARGIN of their size each way."""
    h, w = mask.shape
    merged = cv2.dilate(mask, np.ones((PATCH_MERGE, PATCH_MERGE), np.uint8))
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(merged)
    boxes = []
    for label in sorted(range(1, count), key=lambda k: -stats[k, cv2.CC_STAT_AREA])[:PATCHES]:
        x, y, bw, bh = (int(v) for v in stats[label, :4])
        mx, my = PATCH_MARGIN * bw, PATCH_MARGIN * bh
        box = (max(0.0, x - mx), max(0.0, y - my), min(float(w), x + bw + mx), min(float(h), y + bh + my))
        boxes.append(tuple(int(round(v * reduction)) for v in box))
    return boxes


def paper_value(value: np.ndarray, table: dict, scale: float) -> float:
    """The least value (HSV, of a small decode scaled by `scale`) that counts as card paper: PAPER_VALUE, or less
    where the cards read in this photo show darker paper in their index boxes."""
    inside = []
    for hand in table["hands"]:
        for card in hand["cards"]:
            x0, y0, x1, y1 = (int(round(v * scale)) for v in card["box"])
            inside.append(value[max(0, y0):max(0, y1) + 1, max(0, x0):max(0, x1) + 1].ravel())
    pixels = np.concatenate(inside) if inside else np.zeros(0)
    if not pixels.size:
        return PAPER_VALUE
    dim_paper = PAPER_OF_READ * float(np.percentile(pixels, PAPER_QUANTILE))
    return min(PAPER_VALUE, max(dim_paper, float(np.median(value)) + PAPER_OVER_CLOTH))


def half_of(seat: int, w: int, h: int) -> tuple[int, int, int, int]:
    """The photo's half on a seat's side (bottom: seat 0, left 1, top 2, right 3): x0, y0, x1, y1."""
    return {0: (0, h // 2, w, h), 1: (0, 0, w // 2, h), 2: (0, 0, w, h // 2), 3: (w // 2, 0, w, h)}[seat]


def hand_at_empty_seat(reader: CardReader, image: np.ndarray, table: dict, seat: int,
                       patches: list[tuple[int, int, int, int]] = ()) -> dict:
    """The table with a hand found at this empty seat: each of its paper's patches, then the photo's half on that side,
    read at full resolution (a hand the whole photo's read saw nothing of: small, far, on a busy cloth) and grouped as
    a table, keeping the first hand of FEWEST_FOUND or more cards in rows that faces this seat and holds no card
    another hand or a stray does (a hand not of 13 warns, as every hand); else the table as it was."""
    h, w = image.shape[:2]
    taken = {card["code"] for hand in table["hands"] for card in hand["cards"]}
    taken |= {card["code"] for card in table["unassigned"]}
    half = half_of(seat, w, h)
    # a patch near its half's size: the half's read is enough; a strip (a card's edge, a napkin's): no hand's
    patches = [box for box in patches if area(box) < HALF_IN_A_PATCH * area(half) and hand_shaped(box)]
    for x0, y0, x1, y1 in [*patches, half]:
        found = hand_in_region(reader, image, (x0, y0, x1, y1), seat, taken)
        if found is not None:
            return dict(table, hands=sorted(table["hands"] + [found], key=lambda h: h["seat"]))
    return table


def area(box: tuple[int, int, int, int]) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def hand_shaped(box: tuple[int, int, int, int]) -> bool:
    """Whether a patch could hold a hand: neither side under PATCH_SIDE pixels nor over PATCH_ASPECT times the other."""
    w, h = box[2] - box[0], box[3] - box[1]
    return min(w, h) >= PATCH_SIDE and max(w, h) <= PATCH_ASPECT * min(w, h)


def hand_in_region(reader: CardReader, image: np.ndarray, box: tuple[int, int, int, int], seat: int,
                   taken: set[str]) -> dict | None:
    """The hand facing `seat` read in this region of the photo (see `hand_at_empty_seat`), or None."""
    from vision.table import table_of  # (vision.table reads through this module)

    x0, y0, x1, y1 = box
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    ok, crop = cv2.imencode(".jpg", image[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        return None
    try:
        read = table_of(reader.read(crop.tobytes(), loose=True), (x1 - x0, y1 - y0))
    except ImageError:  # a half of a long, thin photo may be too thin to read: no hand found there
        return None
    for hand in read["hands"]:
        codes = {card["code"] for card in hand["cards"]}
        if len(codes) < FEWEST_FOUND or taken & codes or hand["rows"] is None or facing_seat(hand["cards"]) != seat:
            continue
        cards = [dict(card, box=[card["box"][0] + x0, card["box"][1] + y0, card["box"][2] + x0, card["box"][3] + y0])
                 for card in hand["cards"]]
        return {"seat": seat, "cards": cards, "rows": hand["rows"], "warnings": hand["warnings"]}
    return None


def strays_together(unassigned: list[dict]) -> list[list[dict]]:
    """The cards in no hand that lie together, STRAYS_TOGETHER or more within STRAYS_APART index sizes of one
    another (a far-side hand the whole-photo read saw only a few cards of): each such cluster, largest first."""
    if len(unassigned) < STRAYS_TOGETHER:
        return []
    centres = np.array([[(c["box"][0] + c["box"][2]) / 2, (c["box"][1] + c["box"][3]) / 2] for c in unassigned])
    size = float(np.median([max(c["box"][2] - c["box"][0], c["box"][3] - c["box"][1]) for c in unassigned]))
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) <= STRAYS_APART * max(size, 1.0)
    cluster_of = list(range(len(unassigned)))
    for i, j in zip(*np.nonzero(near)):  # single linkage: merge i's and j's clusters
        a, b = cluster_of[i], cluster_of[j]
        if a != b:
            cluster_of = [a if c == b else c for c in cluster_of]
    clusters: dict[int, list[dict]] = {}
    for card, c in zip(unassigned, cluster_of):
        clusters.setdefault(c, []).append(card)
    return sorted((c for c in clusters.values() if len(c) >= STRAYS_TOGETHER), key=len, reverse=True)


def hand_in_no_hand(reader: CardReader, image: np.ndarray, table: dict, stray: list[dict]) -> dict:
    """The table with these cards in no hand read again from their region (widened by STRAYS_MARGIN index sizes):
    a hand when that read is 13 cards in rows, holding every one of them and no other hand's or stray's card, seated
    by the way its rows face (front → back points at its owner) in a seat no hand holds; else the table as it was."""
    size = float(np.median([max(c["box"][2] - c["box"][0], c["box"][3] - c["box"][1]) for c in stray]))
    x0, y0, x1, y1 = region({"cards": stray}, image.shape, 0.0, extra=STRAYS_MARGIN * size)
    ok, crop = cv2.imencode(".jpg", image[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        return table
    read = reader.read(crop.tobytes()).to_dict()
    codes = [card["code"] for card in read["cards"]]
    mine = {card["code"] for card in stray}
    others = {card["code"] for hand in table["hands"] for card in hand["cards"]}
    others |= {card["code"] for card in table["unassigned"]} - mine
    if len(codes) != EXPECTED_CARDS or read["rows"] is None or not mine <= set(codes) or others & set(codes):
        return table
    cards = [dict(card, box=[card["box"][0] + x0, card["box"][1] + y0, card["box"][2] + x0, card["box"][3] + y0])
             for card in read["cards"]]
    seat = facing_seat(cards)
    if seat is None or any(hand["seat"] == seat for hand in table["hands"]):
        return table
    hand = {"seat": seat, "cards": cards, "rows": read["rows"], "warnings": read["warnings"]}
    return dict(without_strays(table, mine), hands=sorted(table["hands"] + [hand], key=lambda h: h["seat"]))


def without_strays(table: dict, codes: set[str]) -> dict:
    """The table without these codes' cards in no hand, nor their warnings (a hand read again holds them now)."""
    gone = {card["code"] for card in table["unassigned"]} & codes
    if not gone:
        return table
    return dict(table, unassigned=[card for card in table["unassigned"] if card["code"] not in gone],
                warnings=[w for w in table["warnings"]
                          if not any(w.startswith(f"{NOT_IN_A_HAND}: {code} at ") for code in gone)])


def facing_seat(cards: list[dict]) -> int | None:
    """The seat a hand in rows faces: its front row's centre → its back row's points at its owner (down: seat 0,
    left 1, up 2, right 3); None when the rows are not apart by more than they are across."""
    def middle(row: str) -> np.ndarray:
        return np.mean([[(c["box"][0] + c["box"][2]) / 2, (c["box"][1] + c["box"][3]) / 2]
                        for c in cards if c["row"] == row], axis=0)
    if not any(c["row"] == "front" for c in cards) or not any(c["row"] == "back" for c in cards):
        return None
    dx, dy = middle("back") - middle("front")
    if max(abs(dx), abs(dy)) < 2 * min(abs(dx), abs(dy)):
        return None  # a diagonal hand: no seat it clearly faces
    if abs(dy) > abs(dx):
        return 0 if dy > 0 else 2
    return 3 if dx > 0 else 1


def quick(reader: CardReader) -> CardReader:
    """The reader with the same models and no sharpened read (a blurred photo's restoration, 1–2 s a region: the
    closer look's full resolution is what it needs), made once per reader."""
    if getattr(reader, "_closer_reader", None) is None:
        reader._closer_reader = CardReader(config=replace(reader.config, sharpen_blurred=False),
                                           detector=reader.detector, classifier=reader.classifier,
                                           second_classifier=reader.second_classifier)
    return reader._closer_reader


def closer_hand(reader: CardReader, image: np.ndarray, hand: dict, others: dict[str, tuple[int, int, dict, bool]],
                loose: bool = False, margin: float = MARGIN, strays: list[dict] = ()
                ) -> tuple[dict, list[str]] | None:
    """The hand read from its own region and the codes it takes from other hands (`others`: code -> the hand
    holding it, its seat, its card, whether that hand is whole), or None when that read is no better: not 13 cards (loose: not every card the seat had,
    or a card in the region's outer margin), a code another hand or a card in no hand (`strays`) holds (rows mode:
    unless read where that stray lies; or the other hand, whole, holds it surely there: a neighbour's card seen in
    the margin, left out of this read; or that card is unsure and this one sure: it is taken), or no better standing
    (a hand of 13 against one short or long, else more cards named surely)."""
    x0, y0, x1, y1 = region(hand, image.shape, margin)
    ok, crop = cv2.imencode(".jpg", image[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        return None
    result = reader.read(crop.tobytes(), loose=loose)
    read = result.to_dict()
    if not loose:
        neighbours = {card["code"] for card in read["cards"] if card["code"] in others
                      and others[card["code"]][3] and others[card["code"]][2]["sure"]
                      and lies_at(card, (x0, y0), others[card["code"]][2])}
        if neighbours:
            read = without_codes(result, neighbours, set(others)).to_dict()
    codes = [card["code"] for card in read["cards"]]
    at = {card["code"]: centre(card["box"], (x0, y0)) for card in read["cards"]}
    held = {card["code"] for card in strays if loose or card["code"] not in at
            or np.linalg.norm(at[card["code"]] - centre(card["box"])) > STRAY_IS_READ * box_size(card["box"])}
    taken = [] if loose else [card["code"] for card in read["cards"] if card["code"] in others
                              and card["sure"] and not others[card["code"]][2]["sure"]]
    if (set(others) - set(taken) | held) & set(codes):
        return None
    if loose and not {card["code"] for card in hand["cards"]} <= set(codes):
        return None
    if not loose and (len(codes) != EXPECTED_CARDS or read["rows"] is None):
        return None
    if standing(read, loose) <= standing(hand, loose):
        return None
    cards = [dict(card, box=[card["box"][0] + x0, card["box"][1] + y0, card["box"][2] + x0, card["box"][3] + y0])
             for card in read["cards"]]
    bx0, by0, bx1, by1 = region(hand, image.shape, MARGIN / 2)
    if loose and any(not (bx0 <= (c["box"][0] + c["box"][2]) / 2 <= bx1 and by0 <= (c["box"][1] + c["box"][3]) / 2
                          <= by1) for c in cards):
        return None  # Big Two: a card at the region's edge may be a neighbour's (a hand of 13 says whose it is)
    found = set(codes)
    unexplained = [w for w in hand["warnings"]  # the first read's unsure marks this read does not name stay warned
                   if w.startswith(UNSURE_MARKS_WARNING) and not set(CODE.findall(w)) <= found]
    taking = [f"{code} also read, unsurely, in seat {others[code][1]}'s hand: check it"
              for code in taken]
    return ({"seat": hand["seat"], "cards": cards, "rows": None if loose else read["rows"],
             "warnings": read["warnings"] + unexplained + taking}, taken)


def lies_at(card: dict, origin: tuple[float, float], other: dict) -> bool:
    """Whether a card read in a region (its box in the region's pixels, cut at `origin`) lies where the other card
    (photo pixels) does: within STRAY_IS_READ of its sizes."""
    return bool(np.linalg.norm(centre(card["box"], origin) - centre(other["box"])) <= STRAY_IS_READ * box_size(
        other["box"]))


def without_codes(result: ReadResult, codes: set[str], held: set[str]) -> ReadResult:
    """A rows read without these codes' cards (another hand's, seen in the region's margin), filled (when short) from
    its unsure marks, none of a code another hand holds (`held`), as vision.results fills a short hand, its rows
    grouped again, and its warnings of the count, of the rows and of those cards alone left out (the others stay)."""
    def grouped(cards: list[Card]) -> RowGrouping:
        size = float(np.median([r.size for card in cards for r in card.indices]))
        return group_rows([[r.centre for r in card.indices] for card in cards], size)

    cards = [card for card in result.cards if card.code not in codes]
    before = set(grouped(result.cards).warnings) if result.cards else set()
    warnings = [w for w in result.warnings if w not in before and not w.startswith(COUNT_WARNING)
                and not (CODE.findall(w) and set(CODE.findall(w)) <= codes)]
    for spare in unsure_cards(result):  # a hand short now is filled as the read fills one (it was long: it did not)
        if len(cards) >= EXPECTED_CARDS:
            break
        if spare.code in codes | held or any(overlap_share(a.box, b.box) > SEPARATE_CORNER_OVERLAP
                                             for card in cards for a in spare.indices for b in card.indices):
            continue
        cards.append(spare)
        warnings.append(f"low confidence: {spare.code} ({spare.confidence:.2f})")
    if not cards:
        return replace(result, cards=[], rows=None, warnings=warnings)
    grouping = grouped(cards)
    rows = {name: [cards[i] for i in grouping.rows[name]] for name in ROW_NAMES}
    in_rows = [card for name in ROW_NAMES for card in rows[name]]
    counted = [] if len(cards) == EXPECTED_CARDS else [f"{COUNT_WARNING}, found {len(cards)}"]
    return replace(result, cards=in_rows + [card for card in cards if all(card is not c for c in in_rows)],
                   rows=rows, warnings=counted + grouping.warnings + warnings)


def centre(box: list[float], offset: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2 + offset[0], (box[1] + box[3]) / 2 + offset[1]])


def box_size(box: list[float]) -> float:
    return max(box[2] - box[0], box[3] - box[1], 1.0)


def standing(hand: dict, loose: bool) -> tuple:
    """How good a hand's read is, compared as a tuple: a whole hand of 13 first, then rows of 3/5/5, then the cards
    named surely, then all the cards' confidence; loose, the number of cards."""
    cards = hand["cards"]
    if loose:  # Big Two: more cards (every one it had, checked before)
        return (len(cards),)
    return (len(cards) == EXPECTED_CARDS, rows_fit(hand["rows"]), sum(card["confidence"] >= LOW_CONFIDENCE
                                                                     for card in cards),
            sum(card["confidence"] for card in cards))


def region(hand: dict, shape: tuple[int, ...], share: float = MARGIN, extra: float = 0.0
           ) -> tuple[int, int, int, int]:
    """The hand's cards' boxes (photo pixels) widened by `share` of their larger side (and `extra` pixels), within
    the photo."""
    boxes = np.array([card["box"] for card in hand["cards"]], dtype=float)
    x0, y0 = boxes[:, :2].min(axis=0)
    x1, y1 = boxes[:, 2:].max(axis=0)
    margin = share * max(x1 - x0, y1 - y0) + extra
    h, w = shape[:2]
    return (int(max(0, x0 - margin)), int(max(0, y0 - margin)), int(min(w, x1 + margin)), int(min(h, y1 + margin)))
