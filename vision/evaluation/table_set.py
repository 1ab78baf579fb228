"""`vision evaluate --sets tables`: whole-table photos (vision.synth --parts tables) read by vision.table, judged per
hand (all 13 cards in the right rows; Big Two tables: the right cards), per seat and per card."""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from vision.errors import ImageError
from vision.evaluation.evaluators import NO_WARNING, SetResult
from vision.reader import CardReader
from vision.table import table_read


@dataclass(frozen=True)
class TablePhoto:
    image: Path
    truth: dict


def load_tables(folder: Path) -> list[TablePhoto]:
    """The photos of a tables folder with their truth (NNNN.jpg beside NNNN.json)."""
    return [TablePhoto(label.with_suffix(".jpg"), json.loads(label.read_text()))
            for label in sorted(folder.glob("*.json")) if label.with_suffix(".jpg").is_file()]


def hand_right(truth_hand: dict, read_hand: dict | None, loose: bool) -> bool:
    if read_hand is None:
        return False
    if loose:
        return sorted(c["code"] for c in read_hand["cards"]) == sorted(truth_hand["cards"])
    if read_hand["rows"] is None:
        return False
    # all 13 cards in the right rows: a row's order (left to right as its owner sees it) scores nothing
    return {name: sorted(row) for name, row in read_hand["rows"].items()} == {
        name: sorted(row) for name, row in truth_hand["rows"].items()}


def read_seat(truth_hand: dict, hands: list[dict]) -> int | None:
    """The seat of the read hand holding most of this hand's cards (None: none holds any)."""
    codes = set(truth_hand["cards"])
    held = [(len(codes & {c["code"] for c in hand["cards"]}), hand["seat"]) for hand in hands]
    best = max(held, default=(0, None))
    return best[1] if best[0] else None


def evaluate_tables(reader: CardReader, photos: list[TablePhoto], name: str) -> SetResult:
    result = SetResult(name)
    counts: Counter = Counter()
    start = time.perf_counter()
    for photo in photos:
        result.photos += 1
        truth, loose = photo.truth, photo.truth.get("loose", False)
        data = photo.image.read_bytes()
        try:
            table = table_read(reader, data, loose=loose)
        except ImageError:
            result.unreadable += 1
            continue
        by_seat = {hand["seat"]: hand for hand in table["hands"]}
        touching = {seat for pair in truth.get("touching", []) for seat in pair}
        shown = {card["code"] for card in truth["cards"] if card["indices"]}
        wrong = []
        for hand in truth["hands"]:
            kind = "loose" if loose else "rows"
            read = by_seat.get(hand["seat"])
            right = hand_right(hand, read, loose)
            counts[f"{kind} hands"] += 1
            counts[f"{kind} right"] += right
            if set(hand["cards"]) <= shown:
                counts[f"{kind} shown"] += 1
                counts[f"{kind} shown right"] += right
            seat_right = read_seat(hand, table["hands"]) == hand["seat"]
            counts["seated"] += 1
            counts["seated right"] += seat_right
            if hand["seat"] not in touching:
                counts["apart"] += 1
                counts["apart right"] += seat_right
            if not right:
                warned = bool(read and read["warnings"])  # the hand's own warnings: what its review shows
                counts["silent"] += not warned
                counts["not found"] += read is None  # (of those: the player sees a seat with no hand)
                counts["silent, every card sure"] += not warned and read is not None and all(
                    card.get("sure", True) for card in read["cards"])
                wrong.append(f"seat {hand['seat']}" + (" not found" if read is None else "")
                             + ("" if warned else f" {NO_WARNING}"))
            if not loose and read and len(read["cards"]) != 13 and not read["warnings"]:
                counts["miscounted silently"] += 1
        read_codes = Counter(c["code"] for hand in table["hands"] for c in hand["cards"])
        read_codes.update(c["code"] for c in table["unassigned"])
        result.count_cards(Counter(shown), read_codes)
        if wrong:
            wrong.sort(key=lambda line: line.endswith(NO_WARNING))  # a silent one last: the report lists those lines
            result.failures.append(f"{photo.image.name}: {', '.join(wrong)}")
    result.seconds = time.perf_counter() - start
    precision, recall = result.micro()
    for kind in ("rows", "loose"):
        if counts[f"{kind} hands"]:
            label = "hands" if kind == "rows" else "Big Two seats"
            result.numbers[f"{label} exactly right"] = counts[f"{kind} right"] / counts[f"{kind} hands"]
            if counts[f"{kind} shown"]:
                result.numbers[f"{label} exactly right where every card shows an index"] = (
                    counts[f"{kind} shown right"] / counts[f"{kind} shown"])
    result.numbers["seat assignment, hands not touching another"] = (
        counts["apart right"] / counts["apart"] if counts["apart"] else float("nan"))
    result.numbers["seat assignment, all hands"] = counts["seated right"] / max(counts["seated"], 1)
    result.numbers["per-card F1 (cards showing an index)"] = (2 * precision * recall / (precision + recall)
                                                              if precision + recall > 0 else float("nan"))
    result.numbers["card precision"], result.numbers["card recall"] = precision, recall
    result.numbers["hands read wrong without any warning"] = counts["silent"]
    result.numbers["...of them seats not found at all"] = counts["not found"]
    result.numbers["...of them read with every card shown sure"] = counts["silent, every card sure"]
    result.numbers["hands not of 13 cards without a warning"] = counts["miscounted silently"]
    return result


def tables_set(reader: CardReader, folder: Path | None, limit: int | None) -> SetResult | str:
    """The tables set's result, from `folder` or the newest /work/data/synth-tables-vN; a reason when there is none."""
    from vision.evaluation.datasets import newest_synth_root, subsample

    if folder is None and (root := newest_synth_root(needs=("tables/val/*.json",), prefix="synth-tables-v")):
        folder = root / "tables" / "val"
    if folder is None or not folder.is_dir():
        return "tables: no whole-table photos found (python -m vision.synth --parts tables, docs/training.md)"
    return evaluate_tables(reader, subsample(load_tables(folder), limit), f"whole-table photos ({folder})")
