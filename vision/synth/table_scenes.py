"""Part "tables": whole-table photos for the table reading (vision.table): 2–4 players' layouts on the four sides of a
table, each facing its owner, with chips, phones and cups about, seen by one overhead camera from straight above down
to 45° at a webcam's or a phone's quality. Labels per card: its seat (0 bottom, 1 left, 2 top, 3 right: clockwise
from the photo's bottom edge) and row. Big Two tables (`loose`) lay each seat's cards left in hand as a loose group.

Table units: a card is 1.0 tall (vision.synth.layouts). A seat's owner sits beyond the table edge; `SEAT_DOWN` is the
direction from the table centre towards them, which is also "down" (front row → back row) in their layout."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.crops import CARD_CODES
from vision.synth import layouts, scene
from vision.synth.bank import DeckFaces
from vision.synth.layouts import Layout, Placed, Prop
from vision.synth.parts.framing import projected_card_corners, scale_about
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import config, item_deck, item_rng

Rng = np.random.Generator
SEATS = 4
SEAT_DOWN = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))  # bottom, left, top, right (y down)
# Each photo quality: (long side, short side) of the picture, the photo effects' strength, JPEG quality range.
QUALITIES = {"phone": ((4000, 3000), 0.45, (80, 95)), "webcam": ((2592, 1944), 0.8, (60, 85))}
ELEVATION = (45.0, 90.0)
MAX_TURN_DEG = 8.0  # a layout lies this far off square to its table edge at most
MAX_OVERLAP = 0.02  # share of a card that a card of another hand may cover on a crowded table
NOTES = ("2-4 layouts on the table's four sides facing their owners; seats clockwise from the photo's bottom edge "
         "(0 bottom, 1 left, 2 top, 3 right); rows canonical per hand (front row at the top as its owner sees it); "
         "each card with its seat, row (null in loose tables) and visible index boxes")


@dataclass
class TableLayout:
    layout: Layout  # every card of every hand (drawn in order), clutter as props
    seats: list[int]  # seat of each card of layout.cards
    rows: dict[int, dict[str, list[str]] | None]  # per occupied seat: canonical rows (None: loose)


def seat_frame(seat: int, turn_deg: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The seat owner's "right" and "down" (towards them) directions on the table, turned by `turn_deg`."""
    down = np.array(SEAT_DOWN[seat])
    a = np.radians(turn_deg)
    down = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ down
    return np.array([down[1], -down[0]]), down


def placed_for_seat(hand: list[Placed], seat: int, centre: np.ndarray, turn_deg: float) -> list[Placed]:
    """A hand laid out upright (its owner below it) moved to `centre` and turned to face the seat's owner."""
    right, down = seat_frame(seat, turn_deg)
    card_turn = -90.0 * seat - turn_deg  # Placed.angle turns counter-clockwise as seen; seats go clockwise
    return [Placed(p.code, *(centre + p.x * right + p.y * down), p.angle + card_turn) for p in hand]


def loose_group(rng: Rng, aspect: float, codes: list[str]) -> Layout:
    """Big Two's cards left in a loser's hand, put down in front of them: one or two sloppy overlapped rows."""
    step = aspect * rng.uniform(0.35, 0.9)
    per_row = int(rng.integers(5, 9))
    cards = []
    for i, code in enumerate(codes):
        row, col = divmod(i, per_row)
        cards.append(Placed(code, col * step + rng.normal(0, 0.05), row * rng.uniform(0.5, 1.1) + rng.normal(0, 0.05),
                            float(rng.normal(0, 6))))
    return Layout(cards, aspect)


def _centred(cards: list[Placed]) -> tuple[list[Placed], float, float]:
    """The cards moved so their middle is at the origin; their half width and half depth (cards included)."""
    xs, ys = np.array([c.x for c in cards]), np.array([c.y for c in cards])
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    moved = [Placed(c.code, c.x - cx, c.y - cy, c.angle) for c in cards]
    return moved, float((xs.max() - xs.min()) / 2 + 0.5), float((ys.max() - ys.min()) / 2 + 0.5)


def table_layout(rng: Rng, aspect: float, seats: list[int], *, loose: bool = False, crowded: bool = False
                 ) -> TableLayout:
    """Hands for the given seats, dealt from one deck. `crowded`: a small table, where neighbouring hands may touch
    or overlap a little at the corners."""
    order = [CARD_CODES[i] for i in rng.permutation(52)]
    hands: list[tuple[int, list[Placed], float, float, dict | None]] = []
    for k, seat in enumerate(seats):
        codes = order[13 * k:13 * (k + 1)]
        if loose:
            group = loose_group(rng, aspect, codes[:int(rng.integers(1, 13))])
        else:
            group = layouts.rows_335(rng, aspect, codes=codes)
        cards, half_w, half_d = _centred(group.cards)
        hands.append((seat, cards, half_w, half_d, group.rows))
    widest = max(half_w for _, _, half_w, _, _ in hands)
    # The table's half size: beyond the widest hand's half width plus a deep hand's depth, or less when crowded.
    half_size = widest + max(2 * half_d for *_, half_d, _ in hands) + (rng.uniform(-0.8, 0.0) if crowded
                                                                      else rng.uniform(0.6, 2.5))
    places = [(rng.uniform(-0.6, 0.6), rng.uniform(0.0, 0.4), rng.uniform(-MAX_TURN_DEG, MAX_TURN_DEG))
              for _ in hands]
    while True:  # a crowded table is widened until neighbouring hands overlap a little at most
        placed: list[Placed] = []
        card_seats: list[int] = []
        for (seat, cards, half_w, half_d, _), (along, inset, turn) in zip(hands, places):
            right, down = seat_frame(seat)
            centre = down * (half_size - half_d - inset) + right * along * max(0.0, half_size - half_w - 0.5)
            placed += placed_for_seat(cards, seat, centre, float(turn))
            card_seats += [seat] * len(cards)
        if largest_overlap(placed, card_seats, aspect) <= MAX_OVERLAP * aspect:
            break
        half_size += 0.1
    layout = Layout(placed, aspect, props=clutter(rng, half_size))
    return TableLayout(layout, card_seats, {seat: hand_rows for seat, _, _, _, hand_rows in hands})


def card_outline(card: Placed, aspect: float) -> np.ndarray:
    """A card's corners on the table (float32, for OpenCV)."""
    a = np.radians(-card.angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners = np.array([[-aspect, -1.0], [aspect, -1.0], [aspect, 1.0], [-aspect, 1.0]]) / 2
    return (corners @ rot.T + [card.x, card.y]).astype(np.float32)


def largest_overlap(cards: list[Placed], seats: list[int], aspect: float) -> float:
    """The largest area two cards of different hands share (table units: a card's area is `aspect`)."""
    outlines = [card_outline(card, aspect) for card in cards]
    centres = np.array([[card.x, card.y] for card in cards])
    largest = 0.0
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if seats[i] != seats[j] and np.hypot(*(centres[i] - centres[j])) < 1.3:
                largest = max(largest, float(cv2.intersectConvexConvex(outlines[i], outlines[j])[0]))
    return largest


def clutter(rng: Rng, half_size: float) -> list[Prop]:
    """Chips, phones and cups in the middle of the table and at its corners, clear of the hands."""
    spots = [np.zeros(2)] + [np.array([sx, sy]) * half_size * 0.85 for sx in (-1, 1) for sy in (-1, 1)]
    props: list[Prop] = []
    for spot in spots:
        if rng.random() > 0.5:
            continue
        at = spot + rng.normal(0, 0.3, 2)
        kind = rng.integers(3)
        colour = tuple(float(c) for c in rng.uniform(20, 230, 3))
        if kind == 0:  # a stack of chips, seen from above: a disc with a lighter ring
            radius = rng.uniform(0.15, 0.25)
            for k in range(int(rng.integers(1, 4))):
                centre = at + rng.normal(0, 0.35, 2)
                props.append(Prop(_circle(centre, radius), colour, 0.1))
                props.append(Prop(_circle(centre, radius * 0.7), tuple(min(255.0, c * 1.3 + 30) for c in colour)))
        elif kind == 1:  # a phone face down or up
            w, h = rng.uniform(0.75, 0.9), rng.uniform(1.6, 1.9)
            a = np.radians(rng.uniform(0, 180))
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            box = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2 @ rot.T + at
            props.append(Prop(box, (25.0, 25.0, 30.0) if rng.random() < 0.6 else colour, 0.2))
        else:  # a cup: rim, then its drink
            radius = rng.uniform(0.4, 0.55)
            props.append(Prop(_circle(at, radius), colour, 0.2))
            props.append(Prop(_circle(at, radius * 0.82), tuple(float(c) for c in rng.uniform(10, 90, 3)), 0.1))
    return props


def _circle(centre: np.ndarray, radius: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([np.cos(t), np.sin(t)], axis=1) * radius + centre


def render_table(rng: Rng, faces: DeckFaces, seats: list[int], *, quality: str = "phone", loose: bool = False,
                 crowded: bool = False, elevation: float | None = None, size: tuple[int, int] | None = None,
                 strength: float | None = None) -> tuple[np.ndarray, TableLayout, scene.Scene]:
    """A table photo (before JPEG) of hands at `seats` seen by `table_camera`; `size` and the photo effects'
    `strength` override the quality's."""
    (long_side, short_side), quality_strength, _ = QUALITIES[quality]
    strength = quality_strength if strength is None else strength
    table = table_layout(rng, faces.aspect, seats, loose=loose, crowded=crowded)
    w, h = size or (long_side, short_side)
    sc = scene.render_layout(rng, table.layout, faces, table_camera(rng, table.layout, (w, h), elevation), (w, h))
    return scene.photo_effects(rng, sc.image, strength=strength), table, sc


def table_camera(rng: Rng, layout: Layout, size: tuple[int, int], elevation: float | None = None) -> np.ndarray:
    """Table → picture: a camera above the table's centre tilted towards the bottom seat's side by `elevation`
    (drawn from ELEVATION when None), 24–80 card heights away, framed so the cards fill 82–95 % of the picture."""
    w, h = size
    elevation = float(rng.uniform(*ELEVATION)) if elevation is None else elevation
    cam = scene.make_camera(rng, 16.0, 100.0, (w, h), elevation=elevation, yaw=float(rng.normal(0, 2)))
    proj = projected_card_corners(layout, cam)
    corners = np.array([proj.min(axis=0), proj.max(axis=0)])
    extent = corners[1] - corners[0]
    fit = min(w / extent[0], h / extent[1]) * rng.uniform(0.82, 0.95)
    return scale_about(corners, fit, (w / 2, h / 2)) @ cam


def table_truth(table: TableLayout, sc: scene.Scene) -> dict:
    """Per seat its rows (or loose codes); per card its code, seat, row and visible index boxes."""
    row_of = {code: name for rows in table.rows.values() if rows for name, codes in rows.items() for code in codes}
    visible = sc.visible_labels()
    cards = [{"code": p.code, "seat": seat, "row": row_of.get(p.code),
              "indices": [[round(v, 1) for v in lab.box] for lab in visible if lab.card == number]}
             for number, (p, seat) in enumerate(zip(table.layout.cards, table.seats))]
    hands = [{"seat": seat, "rows": rows,
              "cards": [p.code for p, s in zip(table.layout.cards, table.seats) if s == seat]}
             for seat, rows in sorted(table.rows.items())]
    return {"hands": hands, "cards": cards, "touching": hands_touching(table, sc)}


def hands_touching(table: TableLayout, sc: scene.Scene) -> list[list[int]]:
    """Seat pairs whose cards' outlines (in the picture) touch or overlap."""
    pairs = set()
    polygons = [poly.astype(np.float32) for poly in sc.card_polygons]
    for i in range(len(polygons)):
        for j in range(i + 1, len(polygons)):
            a, b = table.seats[i], table.seats[j]
            if a != b and (min(a, b), max(a, b)) not in pairs:
                area, _ = cv2.intersectConvexConvex(polygons[i], polygons[j])
                if area > 0:
                    pairs.add((min(a, b), max(a, b)))
    return [list(p) for p in sorted(pairs)]


def draw_seats(rng: Rng) -> list[int]:
    """2–4 occupied seats, any subset."""
    count = int(rng.integers(2, SEATS + 1))
    return sorted(int(s) for s in rng.choice(SEATS, count, replace=False))


def table_item(args: tuple[str, int, int]) -> int:
    split, item, _ = args
    rng = item_rng("tables", split, item)
    faces = item_deck("tables", split, item)
    quality = "webcam" if item % 3 == 2 else "phone"
    loose = item % 5 == 4
    crowded = not loose and rng.random() < 0.25
    image, table, sc = render_table(rng, faces, draw_seats(rng), quality=quality, loose=loose, crowded=crowded)
    out = Path(config().out) / "tables" / split
    jpeg = QUALITIES[quality][2]
    cv2.imwrite(str(out / f"{item:04d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*jpeg))])
    truth = table_truth(table, sc)
    truth.update(deck=faces.deck.name, quality=quality, loose=loose, crowded=crowded)
    (out / f"{item:04d}.json").write_text(json.dumps(truth, indent=1))
    return 1


def make_folders(out: Path) -> None:
    (out / "tables" / "val").mkdir(parents=True, exist_ok=True)


def write(pool: Any, tables: int) -> int:
    return sum(run_items(pool, table_item, [("val", i, 0) for i in range(tables)], "tables/val"))


def on_disk(out: Path) -> int:
    return len(list((out / "tables" / "val").glob("*.jpg")))
