"""One evaluator per set; each returns plain numbers and counters for the report."""
from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.cards import Card, IndexReading, merge_indices
from vision.crops import CARD_CODES
from vision.errors import ImageError
from vision.evaluation.datasets import Scene, yolo_label_boxes
from vision.evaluation.index_outcomes import (index_outcomes, named_by_a_perfect_classifier, right_first_scores,
                                             unfound_indices)
from vision.evaluation.sureness_figures import CardRecord, figures, record, rights_by_code
from vision.evaluation.metrics import (ClassDetectionAccumulator, DetectionAccumulator, box_iou, per_class_prf,
                                       ultralytics_average_precision)
from vision.messages import BLURRED_WARNING, UNKNOWN_DECK_WARNING
from vision.reader import SECOND_READS, CardReader
from vision.results import ReadResult
from vision.rows import ROW_NAMES, group_rows

NO_CARD = "none"
MISSED = "missed"
EXTRA = "extra"
MAP_THRESHOLD = 0.001  # mAP needs (nearly) all detections, as ultralytics' val does
LOWEST_AP50_CLASSES = 8  # the report names the classes that pull the mAP50 down most (session 56: QH, QS, 7C)
INSIDE_SHARE = 0.7  # an index "lies inside" a labelled card box when 70% of its area does
MULTI_LABEL_MAP50 = "52-class index mAP50 (whole reader, each box's other codes too: ultralytics' multi-label val)"
MULTI_LABEL_MAP50_95 = "52-class index mAP50-95 (whole reader, each box's other codes too)"
# The reader counted as the 52-class detector it amounts to, validated as ultralytics validates one (DetectionValidator:
# every box from conf 0.001, each class of it, at most max_det 300 a photo): the multi-label hypotheses joined by the
# detector's boxes under the reader's thresholds, each named by its classifier (docs/reader-decisions.md@538d56c, mAP
# conventions). The reads are not changed: only what the figure counts.
AS_DETECTOR_MAP50 = "52-class index mAP50 (the reader as a 52-class detector, every box from 0.001: ultralytics' val)"
AS_DETECTOR_MAP50_ULTRALYTICS = ("52-class index mAP50 (the reader as a 52-class detector, every box from 0.001, "
                                 "integrated as ultralytics does: 0.995 at most)")
AS_DETECTOR_MAP50_95 = "52-class index mAP50-95 (the reader as a 52-class detector, every box from 0.001)"
MAX_HYPOTHESES = 300  # ultralytics' max_det
# Wrong reads the player is not told to check: the costly kind at a table with money on the line
SILENTLY_WRONG_PHOTOS = "photos read wrong without any warning"
SILENTLY_WRONG_LAYOUTS = "layouts read wrong without any warning"
SILENTLY_NAMED_WRONG = "photos whose card is named wrong without any warning"  # singles
NO_WARNING = "(no warning)"  # ends a failure line read wrong without any warning; the report lists them all
# Warnings on reads that were right: what a warning costs the player (a check for nothing). A warning that fires on
# every photo would make the silent counts above meaningless, so a candidate is judged by both.
WARNED_RIGHT = "photos read right but warned (share of those read right)"
# Missed cards are counted by the short side of their largest visible index (photo pixels): what bounds recall
# (indices too small for the detector, or ordinary ones in fans) decides what to train next.
MISSED_SIZE_BINS = ((0.0, 12.0, "under 12 px"), (12.0, 24.0, "12–24 px"), (24.0, 48.0, "24–48 px"),
                    (48.0, float("inf"), "48 px and over"))
NO_VISIBLE_INDEX = "no visible index"
MISSED_SIZE_LABELS = tuple(label for _, _, label in MISSED_SIZE_BINS) + (NO_VISIBLE_INDEX,)  # the report's order


def warning_kind(warning: str) -> str:
    """A warning without its particulars: 'low confidence: 8H (0.55)' -> 'low confidence', 'front row has 2 card(s),
    expected 3' -> 'front row has N card'."""
    return re.sub(r"\d+", "N", re.split(r"[:(,]", warning, maxsplit=1)[0].strip())


def _unwarned_mark(warned: bool) -> str:
    """The end of a failure line: NO_WARNING when the read gave no warning (SetResult.silent_failures reads it)."""
    return "" if warned else f" {NO_WARNING}"


@dataclass
class SetResult:
    name: str
    photos: int = 0
    unreadable: int = 0
    seconds: float = 0.0
    numbers: dict[str, float] = field(default_factory=dict)
    confusion: Counter = field(default_factory=Counter)
    true_positive: Counter = field(default_factory=Counter)
    predicted: Counter = field(default_factory=Counter)
    actual: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # photo names not read right (first few shown)
    missed_by_size: Counter = field(default_factory=Counter)  # (photo kind, MISSED_SIZE_BINS label) -> cards
    second_reads: Counter = field(default_factory=Counter)  # (SECOND_READS name, "tried" or "kept") -> photos
    # (photo kind, index_outcomes.OUTCOMES name) -> labelled indices (legible ones where the set marks legibility)
    index_outcomes: Counter = field(default_factory=Counter)
    # the classes whose 52-class index AP50 as read is lowest: (code, AP50, labelled indices), lowest first
    lowest_ap50: list[tuple[str, float, int]] = field(default_factory=list)
    read_right: int = 0  # photos (or photo views) read right
    warned_right: Counter = field(default_factory=Counter)  # warning_kind -> photos read right that carried it
    right_warned: int = 0  # photos read right with any warning
    card_records: list[CardRecord] = field(default_factory=list)  # every card read: chance, sure, right
    unknown_deck_warned: int = 0  # photos warned that their cards' letters are unknown (on a French set: false alarms)

    def count_unknown_deck(self, warnings: list[str]) -> bool:
        """Whether the photo's warnings call its deck unknown (counted)."""
        warned = any(w.startswith(UNKNOWN_DECK_WARNING) for w in warnings)
        self.unknown_deck_warned += warned
        return warned

    def add_card_figures(self, photos_all_right: float) -> None:
        """The figures every set gives (issue 66): per-card F1, photos all right, and the `sure` flag's figures."""
        precision, recall = self.micro()
        self.numbers["per-card F1"] = (2 * precision * recall / (precision + recall)
                                       if precision + recall > 0 else float("nan"))
        self.numbers["photos all right"] = photos_all_right
        self.numbers.update(figures(self.card_records))
        self.numbers["photos warned of an unknown deck"] = self.unknown_deck_warned / max(self.photos, 1)

    @property
    def silent_failures(self) -> list[str]:
        """Failures read wrong without any warning: the reads a player would trust (all listed in the report)."""
        return [failure for failure in self.failures if failure.endswith(NO_WARNING)]

    @property
    def per_class(self) -> dict[str, dict[str, float]]:
        return per_class_prf(self.true_positive, self.predicted, self.actual)

    def count_cards(self, truth: Counter, guess: Counter) -> None:
        """Add one photo's true and read card codes (multisets) to the per-class counts."""
        for code in truth | guess:
            self.true_positive[code] += min(truth[code], guess[code])
        self.actual.update(truth)
        self.predicted.update(guess)

    def count_second_reads(self, read: ReadResult) -> None:
        """Which second reads a photo was given (their time is recorded) and which of them the reader kept."""
        for name in SECOND_READS:
            self.second_reads[(name, "tried")] += name in read.timings_ms
            self.second_reads[(name, "kept")] += name in read.kept_reads

    def add_second_read_numbers(self) -> None:
        """Shares of the photos given each second read and of those that kept it (on a two-colour set, a two-colour
        read is a false call of a four-colour deck); reads no photo was given are left out."""
        for name in SECOND_READS:
            if self.second_reads[(name, "tried")]:
                self.numbers[f"photos given a {name}"] = self.second_reads[(name, "tried")] / max(self.photos, 1)
                self.numbers[f"photos whose {name} was kept"] = self.second_reads[(name, "kept")] / max(self.photos, 1)

    def count_read_right(self, warnings: list[str]) -> None:
        """One photo read right, with the warnings the reader gave it (each kind counted once a photo)."""
        self.read_right += 1
        self.right_warned += bool(warnings)
        self.warned_right.update({warning_kind(w) for w in warnings})

    def add_warned_right_number(self) -> None:
        """The share of the photos read right that carried a warning (none read right: left out)."""
        if self.read_right:
            self.numbers[WARNED_RIGHT] = self.right_warned / self.read_right

    def micro(self) -> tuple[float, float]:
        tp, p, a = sum(self.true_positive.values()), sum(self.predicted.values()), sum(self.actual.values())
        return (tp / p if p else float("nan"), tp / a if a else float("nan"))


def evaluate_singles(reader: CardReader, photos: list[tuple[Path, str]], name: str,
                     labelled: dict[Path, str] | None = None,
                     views: tuple[tuple[str, Callable[[Path], bytes]], ...] = ()) -> SetResult:
    """Top-1 of the single card in each photo (the reader's most confident card, loose mode).

    `photos` pair each photo with the card it shows; `labelled` gives the original label of photos whose label was
    corrected, so "top-1 as labelled" is reported too. `views` (name, photo -> bytes) read each photo in each of
    these views instead of as it is (e.g. vision.evaluation.views' steep views).
    """
    labelled = labelled or {}
    result = SetResult(name)
    start = time.perf_counter()
    correct = correct_as_labelled = 0
    photo_views = [(path, truth, view, load) for path, truth in photos
                   for view, load in (views or (("", lambda p: p.read_bytes()),))]
    per_view: dict[str, Counter] = {}
    for path, truth, view, load in photo_views:
        result.photos += 1
        try:
            read = reader.read(load(path), loose=True)
        except ImageError:
            result.unreadable += 1
            cards, warned, warnings = [], True, []  # the reader's error is itself the warning
        else:
            cards, warned, warnings = read.cards, bool(read.warnings), read.warnings
            result.count_second_reads(read)
            result.count_unknown_deck(warnings)
        guess = max(cards, key=lambda c: c.confidence).code if cards else NO_CARD
        photo_name = f"{path.parent.name}/{path.name}{f' ({view})' if view else ''}"
        result.card_records += [record(photo_name, card, right)
                                for card, right in zip(cards, rights_by_code(cards, {truth: 1}))]
        if guess == truth:
            result.count_read_right(warnings)
        tally = per_view.setdefault(view, Counter())
        tally["photos"] += 1
        tally["right"] += guess == truth
        tally["named wrong, no warning"] += guess not in (truth, NO_CARD) and not warned
        result.confusion[(truth, guess)] += 1
        result.actual[truth] += 1
        if guess != NO_CARD:
            result.predicted[guess] += 1
        if guess == truth:
            correct += 1
            result.true_positive[truth] += 1
        else:
            result.failures.append(f"{path.name}{f' ({view})' if view else ''}: {truth} read as {guess}"
                                   + _unwarned_mark(warned))
        if guess == labelled.get(path, truth):
            correct_as_labelled += 1
        elif path in labelled:
            result.failures.append(f"{path.name}: labelled {labelled[path]} (label corrected to {truth}), "
                                   f"read as {guess}")
    result.seconds = time.perf_counter() - start
    result.numbers["top-1"] = correct / max(result.photos, 1)
    result.add_card_figures(correct / max(result.photos, 1))
    if labelled:
        result.numbers[f"top-1 as labelled ({len(labelled)} label(s) corrected)"] = (
            correct_as_labelled / max(result.photos, 1))
    result.numbers["no card found"] = sum(
        n for (_, guess), n in result.confusion.items() if guess == NO_CARD) / max(result.photos, 1)
    result.numbers[SILENTLY_NAMED_WRONG] = (sum(t["named wrong, no warning"] for t in per_view.values())
                                            / max(result.photos, 1))
    result.add_warned_right_number()
    if views:
        for view, tally in per_view.items():
            result.numbers[f"top-1, {view}"] = tally["right"] / max(tally["photos"], 1)
            result.numbers[f"{SILENTLY_NAMED_WRONG}, {view}"] = tally["named wrong, no warning"] / max(tally["photos"], 1)
    result.add_second_read_numbers()
    return result


def _inside(index_box: tuple[float, ...], card_box: list[float]) -> bool:
    x1, y1 = max(index_box[0], card_box[0]), max(index_box[1], card_box[1])
    x2, y2 = min(index_box[2], card_box[2]), min(index_box[3], card_box[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    area = max((index_box[2] - index_box[0]) * (index_box[3] - index_box[1]), 1e-9)
    return inter / area >= INSIDE_SHARE


def match_rank_boxes(cards: list[Card], labels: list[dict], scale: float = 1.0) -> list[tuple[int | None, int | None]]:
    """Pairs (card position or None, label position or None): a card matches a labelled whole-card box
    when one of its index boxes lies inside it; same-rank pairs are matched first."""
    candidates = [(c, l) for c, card in enumerate(cards) for l, label in enumerate(labels)
                  if any(_inside(tuple(v * scale for v in i.box), label["box"]) for i in card.indices)]
    used_cards: set[int] = set()
    used_labels: set[int] = set()
    pairs: list[tuple[int | None, int | None]] = []
    for same_rank_first in (True, False):
        for c, l in candidates:
            if c in used_cards or l in used_labels:
                continue
            if same_rank_first and cards[c].code[0] != labels[l]["rank"]:
                continue
            used_cards.add(c)
            used_labels.add(l)
            pairs.append((c, l))
    pairs += [(c, None) for c in range(len(cards)) if c not in used_cards]
    pairs += [(None, l) for l in range(len(labels)) if l not in used_labels]
    return pairs


def evaluate_rank_boxes(reader: CardReader, photos: list[tuple[Path, list[dict]]], name: str,
                        views: tuple[tuple[str, Callable[[Path, list[dict]], tuple[bytes, list[dict]]]], ...] = ()
                        ) -> SetResult:
    """Multi-card photos labelled with whole-card boxes and ranks only (suits ignored). `views` (name, (photo,
    labels) -> (bytes, labels moved)) read each photo in each of these views instead of as it is."""
    result = SetResult(name)
    start = time.perf_counter()
    all_correct = 0
    per_view: dict[str, Counter] = {}
    as_taken = (("", lambda path, labels: (path.read_bytes(), labels)),)
    for path, photo_labels, view, load in [(path, labels, view, load) for path, labels in photos
                                           for view, load in (views or as_taken)]:
        result.photos += 1
        warnings: list[str] = []
        try:
            data, labels = load(path, photo_labels)
            read = reader.read(data, loose=True)
            cards, scale = read.cards, read.scale
            warned_blurred = any(w.startswith(BLURRED_WARNING) for w in read.warnings)
            warned, warnings = bool(read.warnings), read.warnings
            result.count_second_reads(read)
            result.count_unknown_deck(warnings)
        except ImageError:  # the reader's error is itself the warning
            result.unreadable += 1
            cards, scale, labels, warned_blurred, warned = [], 1.0, photo_labels, False, True
        wrong = 0
        tally = per_view.setdefault(view, Counter())
        tally["photos"] += 1
        tally["warned blurred"] += warned_blurred
        for c, l in match_rank_boxes(cards, labels, scale):
            guess = cards[c].code[0] if c is not None else MISSED
            truth = labels[l]["rank"] if l is not None else EXTRA
            if c is not None:  # rank only: the set labels no suits
                result.card_records.append(record(f"{path.parent.name}/{path.name}{f' ({view})' if view else ''}",
                                                  cards[c], guess == truth))
            result.confusion[(truth, guess)] += 1
            if c is not None:
                result.predicted[guess] += 1
                tally["read"] += 1
            if l is not None:
                result.actual[truth] += 1
                tally["labelled"] += 1
            if guess == truth:
                result.true_positive[truth] += 1
                tally["right"] += 1
            else:
                wrong += 1
        if wrong == 0:
            all_correct += 1
            result.count_read_right(warnings)
        else:
            tally["read wrong"] += 1
            tally["read wrong, warned blurred"] += warned_blurred
            tally["read wrong, no warning"] += not warned
            result.failures.append(f"{path.name}{f' ({view})' if view else ''}: {wrong} wrong/missed/extra"
                                   + _unwarned_mark(warned))
    result.seconds = time.perf_counter() - start
    precision, recall = result.micro()
    result.numbers.update({"rank precision": precision, "rank recall": recall,
                           "photos all correct": all_correct / max(result.photos, 1),
                           "photos warned blurred": sum(t["warned blurred"] for t in per_view.values())
                           / max(result.photos, 1),
                           "photos read wrong, share warned blurred":
                               sum(t["read wrong, warned blurred"] for t in per_view.values())
                               / max(sum(t["read wrong"] for t in per_view.values()), 1),
                           SILENTLY_WRONG_PHOTOS: sum(t["read wrong, no warning"] for t in per_view.values())
                           / max(result.photos, 1)})
    result.add_card_figures(all_correct / max(result.photos, 1))
    result.add_warned_right_number()
    result.add_second_read_numbers()
    if views:
        for view, tally in per_view.items():
            result.numbers[f"rank precision, {view}"] = tally["right"] / max(tally["read"], 1)
            result.numbers[f"rank recall, {view}"] = tally["right"] / max(tally["labelled"], 1)
            result.numbers[f"photos warned blurred, {view}"] = tally["warned blurred"] / max(tally["photos"], 1)
            result.numbers[f"photos read wrong, share warned blurred, {view}"] = (
                tally["read wrong, warned blurred"] / max(tally["read wrong"], 1))
            result.numbers[f"{SILENTLY_WRONG_PHOTOS}, {view}"] = (
                tally["read wrong, no warning"] / max(tally["photos"], 1))
    return result


def rows_from_true_indices(scene: Scene) -> dict[str, list[str]]:
    """Rows the reader's merge + row logic make from the labelled index boxes (a perfect detector and
    classifier): separates row-logic errors from model errors."""
    readings = [IndexReading(tuple(map(float, box)), code, 1.0, 1.0) for code, boxes in scene.card_indices
                for box in boxes]
    if not readings:
        return {name: [] for name in ROW_NAMES}
    cards, _ = merge_indices(readings)
    size = float(np.median([r.size for r in readings]))
    grouping = group_rows([[i.centre for i in card.indices] for card in cards], size)
    return {name: [cards[i].code for i in grouping.rows[name]] for name in ROW_NAMES}


def _reader_indices(read: ReadResult) -> tuple[np.ndarray, list[float], list[str]]:
    """The reader's own indices in photo pixels (its score floor 0.25 included), scored detector score x class
    probability, with their codes."""
    boxes = np.array([r.box for r in read.readings], np.float64).reshape(-1, 4) * read.scale
    return boxes, [r.detector_score * r.probability for r in read.readings], [r.code for r in read.readings]


def _reader_hypotheses(read: ReadResult) -> tuple[np.ndarray, list[float], list[str]]:
    """As _reader_indices, with each reading's other codes (IndexReading.other_codes) as hypotheses of the same box,
    scored detector score x their probability, each kept from MAP_THRESHOLD: ultralytics' validation of a 52-class
    detector counts every class scoring at least 0.001 on a box (multi-label), so this is the figure its mAP would
    be compared with."""
    boxes, scores, codes = [], [], []
    for reading in read.readings:
        for code, probability in ((reading.code, reading.probability), *reading.other_codes(MAP_THRESHOLD)):
            if reading.detector_score * probability >= MAP_THRESHOLD:
                boxes.append(reading.box)
                scores.append(reading.detector_score * probability)
                codes.append(code)
    return np.array(boxes, np.float64).reshape(-1, 4) * read.scale, scores, codes


def as_a_detector(reader: CardReader, image: np.ndarray, hypotheses: tuple[np.ndarray, list[float], list[str]],
                  found: np.ndarray, found_scores: np.ndarray) -> tuple[np.ndarray, list[float], list[str]]:
    """The read's hypotheses (_reader_hypotheses, photo pixels) joined by the detector's `found` boxes (scored from
    MAP_THRESHOLD, in `image`'s pixels, the photo's) that no hypothesis lies on by IoU 0.5, each named by the reader's
    classifier from the photo as given (a four-colour photo is not turned two-colour for it), every card code scoring
    detector score x probability >= MAP_THRESHOLD a hypothesis of its own; the MAX_HYPOTHESES likeliest."""
    boxes, scores, codes = hypotheses
    found = np.asarray(found, np.float64).reshape(-1, 4)
    if len(found) and len(boxes):
        fresh = box_iou(found, boxes).max(axis=1) < 0.5
        found, found_scores = found[fresh], np.asarray(found_scores)[fresh]
    added_boxes, added_scores, added_codes = [], [], []
    if len(found):
        probabilities = reader.classifier.probabilities(image, found)[:, :len(CARD_CODES)]
        for box, score, row in zip(found, found_scores, probabilities):
            for k in np.flatnonzero(score * row >= MAP_THRESHOLD):
                added_boxes.append(box)
                added_scores.append(float(score * row[k]))
                added_codes.append(CARD_CODES[k])
    all_boxes = np.vstack([np.asarray(boxes, np.float64).reshape(-1, 4), np.array(added_boxes).reshape(-1, 4)])
    all_scores = np.array([*scores, *added_scores], np.float64)
    all_codes = [*codes, *added_codes]
    kept = np.argsort(-all_scores, kind="stable")[:MAX_HYPOTHESES]
    return all_boxes[kept], [float(all_scores[k]) for k in kept], [all_codes[k] for k in kept]


def labelled_indices(scene: Scene, legible_only: bool = False) -> tuple[np.ndarray, list[str]]:
    """Every visible (or only every legible) labelled index box with its card's code."""
    pairs = [(box, code) for code, boxes in (scene.legible_indices() if legible_only else scene.card_indices)
             for box in boxes]
    return np.array([box for box, _ in pairs], np.float64).reshape(-1, 4), [code for _, code in pairs]


def _with_unfound_indices(reader: CardReader, image: np.ndarray, boxes: np.ndarray, scores: list[float],
                          codes: list[str], true_boxes: np.ndarray) -> tuple[np.ndarray, list[float], list[str]]:
    """The readings joined by what a perfect detector would add: a reading at each labelled index no reading lies on,
    named by the reader's classifier from the photo as given (a four-colour photo is not turned two-colour), scored
    by its probability."""
    missing = unfound_indices(boxes, true_boxes)
    if len(missing) == 0:
        return boxes, scores, codes
    probabilities = reader.classifier.probabilities(image, true_boxes[missing])[:, :len(CARD_CODES)]
    best = probabilities.argmax(axis=1)
    return (np.vstack([boxes, true_boxes[missing]]), [*scores, *probabilities[np.arange(len(best)), best]],
            [*codes, *(CARD_CODES[k] for k in best)])


def _illegible_indices(scene: Scene) -> tuple[np.ndarray, list[str]]:
    """The visible labelled index boxes that are not legible, with their cards' codes."""
    pairs = [(box, code) for (code, boxes), flags in zip(scene.card_indices, scene.legible or [])
             for box, legible in zip(boxes, flags) if not legible]
    return np.array([box for box, _ in pairs], np.float64).reshape(-1, 4), [code for _, code in pairs]


def _legible_truth(scene: Scene, truth: Counter, guess: Counter) -> tuple[Counter, Counter]:
    """Loose photos' truth and reading with the cards whose visible indices are all illegible made optional: not
    expected, and not counted when read under their own code."""
    if scene.rows is not None or scene.legible is None:
        return truth, guess
    optional = Counter(code for code, boxes in scene.card_indices if boxes) - Counter(
        code for code, boxes in scene.legible_indices() if boxes)
    return truth - optional, guess - (optional & guess)


def index_size_bin(boxes: list[list[float]]) -> str:
    """The MISSED_SIZE_BINS label of the largest of a card's visible index boxes by its short side."""
    if not boxes:
        return NO_VISIBLE_INDEX
    short = max(min(b[2] - b[0], b[3] - b[1]) for b in boxes)
    return next(label for low, high, label in MISSED_SIZE_BINS if low <= short < high)


def _count_missed(result: SetResult, scene: Scene, truth: Counter, guess: Counter) -> None:
    boxes_by_code: dict[str, list[list[float]]] = {}
    for code, boxes in scene.card_indices:
        boxes_by_code.setdefault(code, []).extend(boxes)
    for code in (truth - guess).elements():
        result.missed_by_size[(scene.kind, index_size_bin(boxes_by_code.get(code, [])))] += 1


def evaluate_scenes(reader: CardReader, scenes: list[Scene], name: str,
                    load: Callable[[int, Scene], bytes] | None = None) -> SetResult:
    """Full pipeline on rendered photos: cards found (per kind too), rows exactly right (3/5/5 layouts), index mAP
    of the detector alone at the reader's first size, and 52-class index mAP of what the whole reader finds, with
    where it is lost (vision.evaluation.index_outcomes: each labelled index's outcome, and the mAP50 of the same
    readings with the right ones ranked first, named by a perfect classifier, or joined by the indices it missed
    found exactly and named by its classifier).
    Scenes without rows (fans, scattered or single cards) are read in loose mode; their truth is every card
    with a visible index. `load(order, scene)` gives the bytes read instead of the photo as rendered (a view that
    moves no label, e.g. vision.evaluation.views.moved_photo_bytes)."""
    result = SetResult(name)
    detections = DetectionAccumulator()
    named = ClassDetectionAccumulator()
    named_right_first = ClassDetectionAccumulator()
    named_multi_label = ClassDetectionAccumulator()
    as_detector = ClassDetectionAccumulator()
    perfect_classifier = ClassDetectionAccumulator()
    perfect_detector = ClassDetectionAccumulator()
    named_legible = ClassDetectionAccumulator()
    legible_cards = SetResult(name)
    labelled_legibility = any(scene.legible is not None for scene in scenes)
    by_kind: dict[str, SetResult] = {}
    start = time.perf_counter()
    layouts = exact = same_members = oracle = silent_layouts = silent_loose = loose = 0
    loose_right = loose_right_warned = 0
    for order, scene in enumerate(scenes):
        result.photos += 1
        data = load(order, scene) if load else scene.image.read_bytes()
        try:
            read = reader.read(data, loose=scene.rows is None)
        except ImageError:
            result.unreadable += 1
            continue
        result.count_second_reads(read)
        result.count_unknown_deck(read.warnings)
        boxes, scores, codes = _reader_indices(read)
        true_boxes, true_codes = labelled_indices(scene)
        named.add(boxes, scores, codes, true_boxes, true_codes)
        hypotheses = _reader_hypotheses(read)
        named_multi_label.add(*hypotheses, true_boxes, true_codes)
        named_right_first.add(boxes, right_first_scores(boxes, codes, scores, true_boxes, true_codes), codes,
                              true_boxes, true_codes)
        named_codes, named_scores = named_by_a_perfect_classifier(
            boxes, codes, [r.detector_score for r in read.readings], scores, true_boxes, true_codes)
        perfect_classifier.add(boxes, named_scores, named_codes, true_boxes, true_codes)
        counted_boxes, counted_codes = labelled_indices(scene, legible_only=True)
        result.index_outcomes.update((scene.kind, outcome) for outcome in index_outcomes(
            boxes, codes, [r.probability for r in read.readings], counted_boxes, counted_codes,
            reader.min_card_confidence))
        named_legible.add(boxes, scores, codes, counted_boxes, counted_codes, *_illegible_indices(scene))
        if scene.rows is None:
            truth_codes = Counter(code for code, boxes in scene.card_indices if boxes)
        else:
            truth_codes = Counter(code for row in scene.rows.values() for code in row)
        guess_codes = Counter(card.code for card in read.cards)
        result.count_cards(truth_codes, guess_codes)
        photo_name = f"{scene.image.parent.name}/{scene.image.name}"
        result.card_records += [record(photo_name, card, right)
                                for card, right in zip(read.cards, rights_by_code(read.cards, truth_codes))]
        legible_cards.count_cards(*_legible_truth(scene, truth_codes, guess_codes))
        _count_missed(result, scene, truth_codes, guess_codes)
        by_kind.setdefault(scene.kind, SetResult(scene.kind)).count_cards(truth_codes, guess_codes)
        if scene.rows is not None:
            layouts += 1
            oracle += rows_from_true_indices(scene) == {r: scene.rows[r] for r in ROW_NAMES}
            predicted_rows = read.to_dict()["rows"]
            if all(predicted_rows[r] == scene.rows[r] for r in ROW_NAMES):
                exact += 1
                result.count_read_right(read.warnings)
            else:
                silent_layouts += not read.warnings
                result.failures.append(f"{scene.image.name}: rows {predicted_rows} expected {scene.rows}"
                                       + _unwarned_mark(bool(read.warnings)))
            if all(sorted(predicted_rows[r]) == sorted(scene.rows[r]) for r in ROW_NAMES):
                same_members += 1
        else:
            loose += 1
            if truth_codes == guess_codes:
                result.count_read_right(read.warnings)
                loose_right += 1
                loose_right_warned += bool(read.warnings)
            else:
                silent_loose += not read.warnings
                result.failures.append(f"{scene.image.name} ({scene.kind}): cards {sorted(guess_codes.elements())} "
                                       f"expected {sorted(truth_codes.elements())}"
                                       + _unwarned_mark(bool(read.warnings)))
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        perfect_detector.add(*_with_unfound_indices(reader, image, boxes, scores, codes, true_boxes),
                             true_boxes, true_codes)
        # index mAP at the reader's first detection size, all scores
        boxes, scores = reader.detector.detect(image, reader.detection_sizes[0], score_threshold=MAP_THRESHOLD)
        detections.add(boxes, scores, scene.index_boxes)
        as_detector.add(*as_a_detector(reader, image, hypotheses, boxes, scores), true_boxes, true_codes)
    result.seconds = time.perf_counter() - start
    precision, recall = result.micro()
    result.numbers.update({"card precision": precision, "card recall": recall})
    result.add_card_figures((exact + loose_right) / max(result.photos, 1))
    if layouts:
        result.numbers.update({"rows exactly right": exact / layouts, "rows right ignoring order": same_members / layouts,
                               "rows from the true index boxes (row logic alone)": oracle / layouts,
                               SILENTLY_WRONG_LAYOUTS: silent_layouts / layouts})
    if loose:
        result.numbers[f"{SILENTLY_WRONG_PHOTOS} (loose cards)"] = silent_loose / loose
    result.add_warned_right_number()
    if loose_right and layouts:
        result.numbers[f"{WARNED_RIGHT}, loose cards"] = loose_right_warned / loose_right
    result.add_second_read_numbers()
    if len(by_kind) > 1:
        for kind_name, kind in sorted(by_kind.items()):
            kind_precision, kind_recall = kind.micro()
            result.numbers[f"card precision, {kind_name} photos"] = kind_precision
            result.numbers[f"card recall, {kind_name} photos ({sum(kind.actual.values())} cards)"] = kind_recall
    maps = detections.results()
    result.numbers.update({"index mAP50 (full scenes)": maps["mAP50"],
                           "index mAP50-95 (full scenes)": maps["mAP50-95"]})
    maps = named.results()
    result.lowest_ap50 = sorted(((code, ap, count) for code, (ap, count) in named.class_ap50().items()),
                                key=lambda item: (item[1], item[0]))[:LOWEST_AP50_CLASSES]
    result.numbers.update({"52-class index mAP50 (whole reader)": maps["mAP50"],
                           "52-class index mAP50-95 (whole reader)": maps["mAP50-95"],
                           "52-class index mAP50 (whole reader, right readings ranked first)":
                               named_right_first.results()["mAP50"],
                           "52-class index mAP50 (whole reader, a perfect classifier on its boxes)":
                               perfect_classifier.results()["mAP50"],
                           "52-class index mAP50 (whole reader, every index it missed found exactly)":
                               perfect_detector.results()["mAP50"]})
    maps = named_multi_label.results()
    result.numbers.update({MULTI_LABEL_MAP50: maps["mAP50"], MULTI_LABEL_MAP50_95: maps["mAP50-95"]})
    maps = as_detector.results()
    result.numbers.update({AS_DETECTOR_MAP50: maps["mAP50"], AS_DETECTOR_MAP50_95: maps["mAP50-95"],
                           AS_DETECTOR_MAP50_ULTRALYTICS:
                               as_detector.results(ultralytics_average_precision)["mAP50"]})
    if labelled_legibility:
        maps = named_legible.results()
        precision, recall = legible_cards.micro()
        result.numbers.update({"52-class index mAP50 (whole reader, legible indices)": maps["mAP50"],
                               "52-class index mAP50-95 (whole reader, legible indices)": maps["mAP50-95"],
                               "card precision (legible indices)": precision,
                               "card recall (legible indices)": recall})
    return result


# The courts whose letters a German deck prints otherwise (B for the jack, D for the queen; its king is a K)
UNKNOWN_LETTER_RANKS = frozenset("JQ")


def evaluate_unknown_decks(reader: CardReader, scenes: list[Scene], name: str) -> SetResult:
    """Photos of decks whose court letters the reader does not know (vision.synth --unknown-letters: German B and D):
    the photos showing such a court's index should carry the unknown-deck warning, and no card be named wrong surely.
    Scenes without rows are read in loose mode."""
    result = SetResult(name)
    start = time.perf_counter()
    showing = flagged = all_right = 0
    for scene in scenes:
        result.photos += 1
        try:
            read = reader.read(scene.image.read_bytes(), loose=scene.rows is None)
        except ImageError:
            result.unreadable += 1
            continue
        warned = result.count_unknown_deck(read.warnings)
        truth = Counter(code for code, boxes in scene.card_indices if boxes)
        guess = Counter(card.code for card in read.cards)
        result.count_cards(truth, guess)
        all_right += truth == guess
        result.card_records += [record(f"{scene.image.parent.name}/{scene.image.name}", card, right)
                                for card, right in zip(read.cards, rights_by_code(read.cards, truth))]
        if any(code[0] in UNKNOWN_LETTER_RANKS for code in truth):
            showing += 1
            flagged += warned
            if not warned:
                result.failures.append(f"{scene.image.name} ({scene.kind}): shows "
                                       f"{sorted(c for c in truth if c[0] in UNKNOWN_LETTER_RANKS)}, not flagged"
                                       + _unwarned_mark(bool(read.warnings)))
    result.seconds = time.perf_counter() - start
    result.numbers["photos showing unknown letters"] = showing
    result.numbers["unknown-deck photos flagged"] = flagged / max(showing, 1)
    result.add_card_figures(all_right / max(result.photos, 1))
    return result


def evaluate_detector_tiles(reader: CardReader, tiles: list[tuple[Path, Path]], name: str = "detector val tiles"
                            ) -> SetResult:
    """mAP50 and mAP50-95 of the detector alone on its validation tiles, at the tile's own size
    (NMS IoU as in the reader, 0.5; ultralytics' val uses 0.7, so its figures differ slightly)."""
    result = SetResult(name)
    detections = DetectionAccumulator()
    found, labelled = Counter(), Counter()  # per size band, at the reader's score floor
    start = time.perf_counter()
    for image_path, label_path in tiles:
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            result.unreadable += 1
            continue
        result.photos += 1
        boxes, scores = reader.detector.detect(image, max(image.shape[:2]), score_threshold=MAP_THRESHOLD)
        truth = yolo_label_boxes(label_path, image.shape[1], image.shape[0])
        detections.add(boxes, scores, truth)
        sure = boxes[scores >= reader.score_threshold]
        hit = box_iou(truth, sure).max(axis=1) >= 0.5 if len(sure) else np.zeros(len(truth), bool)
        for box, was_found in zip(truth, hit):
            band = _size_band(box)
            labelled[band] += 1
            found[band] += int(was_found)
    result.seconds = time.perf_counter() - start
    maps = detections.results()
    result.numbers.update({"mAP50": maps["mAP50"], "mAP50-95": maps["mAP50-95"], "boxes": maps["boxes"]})
    for band in SIZE_BANDS:
        if labelled[band]:
            result.numbers[f"recall at score 0.25, {band} ({labelled[band]} boxes)"] = found[band] / labelled[band]
    return result


SIZE_BANDS = ("index box short side < 10 px", "index box short side >= 10 px")


def _size_band(box: np.ndarray) -> str:
    """Tiles hold indices squeezed by steep views to a few pixels; the reader looks closer at those."""
    return SIZE_BANDS[int(min(box[2] - box[0], box[3] - box[1]) >= 10)]
