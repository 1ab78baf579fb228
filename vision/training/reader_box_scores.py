"""Classifiers scored at the shipped reader's own boxes: a quick measure for classifier candidates (session 57).

    PYTHONPATH=. python -m vision.training.reader_box_scores cut /work/data/synth-v5/photos/val boxes.npz
    PYTHONPATH=. python -m vision.training.reader_box_scores score boxes.npz \\
        models/cards_cls.onnx+models/cards_cls_partner.onnx /work/cand/cls-X/cards_cls.onnx

`cut` reads a rendered set with the reader (the models folder's) and keeps every box it classified, cut from the
photo as given, with its detector score and truth (the labelled index it overlaps by IoU 0.5 or more, else `none`),
and every labelled index. `score` names those crops again with each candidate (ONNX files joined by `+` are averaged,
as the shipped pair is) and the reader's quarter-turn vote, and prints the set's 52-class mAP50 as the reader scores
its readings (detector score x probability), top-1 on the labelled boxes and how many are named right and wrong at the
unsure threshold, with a perfect classifier's line first. A candidate is scored in seconds, not in a reader's run of
minutes; the boxes stay the shipped reader's, so what a classifier changes in the looks (closer looks, faint boxes)
is not seen: a candidate that scores well here is then judged by `vision evaluate`. The val-deck crop folders
(vision.training.classifier_agreement) rank candidates unlike the reader does (session 56); these crops are the
reader's own.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import ROTATION_CHECK_BELOW, ROTATION_VOTE_BELOW, crops_to_input, takes_turned_mean
from vision.crops import CLASS_NAMES, CROP_SIZE, NONE_CLASS, index_crop
from vision.errors import ModelError
from vision.evaluation.datasets import load_scenes
from vision.evaluation.evaluators import labelled_indices
from vision.evaluation.metrics import ClassDetectionAccumulator, box_iou
from vision.reader import MODELS_DIR, CardReader
from vision.results import MIN_CARD_CONFIDENCE
from vision.training.classifier_agreement import probabilities_as_cut

NONE_INDEX = CLASS_NAMES.index(NONE_CLASS)
TRUTH_MIN_IOU = 0.5


@dataclass(frozen=True)
class ReaderBoxes:
    """The boxes a reader classified over a set, and the set's labelled indices; photo pixels throughout."""
    crops: np.ndarray  # (N, CROP_SIZE, CROP_SIZE, 3) BGR uint8, cut with vision.crops.index_crop
    truth: np.ndarray  # (N,) class index of the labelled index each box overlaps, NONE_INDEX where none
    detector_scores: np.ndarray  # (N,)
    photos: np.ndarray  # (N,) the photo each box is in (its order in the set)
    boxes: np.ndarray  # (N, 4)
    labelled_photos: np.ndarray  # (M,)
    labelled_boxes: np.ndarray  # (M, 4)
    labelled_codes: np.ndarray  # (M,) class indices

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{name: getattr(self, name) for name in self.__dataclass_fields__})

    @classmethod
    def load(cls, path: Path) -> ReaderBoxes:
        with np.load(path) as saved:
            return cls(**{name: saved[name] for name in cls.__dataclass_fields__})


def truth_of(boxes: np.ndarray, labelled_boxes: np.ndarray, labelled_codes: np.ndarray) -> np.ndarray:
    """Each box's labelled class: the labelled index it overlaps most, when by TRUTH_MIN_IOU or more, else `none`."""
    truth = np.full(len(boxes), NONE_INDEX)
    if len(boxes) and len(labelled_boxes):
        ious = box_iou(boxes, labelled_boxes)
        best = ious.argmax(axis=1)
        hit = ious[np.arange(len(boxes)), best] >= TRUTH_MIN_IOU
        truth[hit] = np.asarray(labelled_codes)[best[hit]]
    return truth


def cut(reader: CardReader, folder: Path) -> ReaderBoxes:
    """Read every photo of a rendered set (loose where it has no rows) and keep the boxes the reader named (its
    unnamed marks left out: they name no card)."""
    parts: dict[str, list] = {name: [] for name in ReaderBoxes.__dataclass_fields__}
    for order, scene in enumerate(load_scenes(folder)):
        data = scene.image.read_bytes()
        read = reader.read(data, loose=scene.rows is None)
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        labelled_boxes, codes = labelled_indices(scene)
        labelled_codes = np.array([CLASS_NAMES.index(code) for code in codes], int)
        parts["labelled_photos"].append(np.full(len(codes), order))
        parts["labelled_boxes"].append(labelled_boxes)
        parts["labelled_codes"].append(labelled_codes)
        named = [r for r in read.readings if not r.unnamed]
        boxes = np.array([r.box for r in named], np.float64).reshape(-1, 4) * read.scale
        crops = [index_crop(image, box) for box in boxes]
        parts["crops"].append(np.array(crops, np.uint8).reshape(-1, CROP_SIZE, CROP_SIZE, 3))
        parts["truth"].append(truth_of(boxes, labelled_boxes, labelled_codes))
        parts["detector_scores"].append(np.array([r.detector_score for r in named], np.float64))
        parts["photos"].append(np.full(len(named), order))
        parts["boxes"].append(boxes)
    if not parts["photos"]:
        raise ValueError(f"no labelled photos (*.json beside an image) in {folder}")
    return ReaderBoxes(**{name: np.concatenate(arrays) for name, arrays in parts.items()})


def turned_probabilities(model: Path, crops: np.ndarray) -> np.ndarray:
    """The model's probabilities (4, N, classes) of the crops as cut and turned by 90, 180 and 270 degrees, loaded as
    the reader loads a classifier (a file with another class order is refused: ModelError)."""
    batch = crops_to_input(list(crops))
    turns = [batch] + [np.ascontiguousarray(np.rot90(batch, quarter, axes=(2, 3))) for quarter in (1, 2, 3)]
    return np.stack([probabilities_as_cut(model, turn) for turn in turns])


def reader_vote(turns: np.ndarray, rotation_vote_below: float = ROTATION_VOTE_BELOW,
                rotation_check_below: float = ROTATION_CHECK_BELOW) -> np.ndarray:
    """The probabilities (N, classes) the reader's classifier gives from one crop's four turns (4, N, classes):
    the crop as cut, or the turns' mean where vision.classifier's vote takes it."""
    probs = turns[0].copy()
    checked = np.flatnonzero(probs.max(axis=1) < max(rotation_check_below, rotation_vote_below))
    votes = turns[:, checked].mean(axis=0)
    take = takes_turned_mean(probs[checked], votes, rotation_vote_below)
    probs[checked[take]] = votes[take]
    return probs


@dataclass(frozen=True)
class BoxScore:
    map50: float  # the set's 52-class mAP50 of the readings as the reader scores them
    top1: float  # on the boxes that overlap a labelled index
    sure_right: int  # named right at the unsure threshold or over
    sure_wrong: int  # named another class (`none` included) at the unsure threshold or over


def score(boxes: ReaderBoxes, probabilities: np.ndarray, unsure_below: float = MIN_CARD_CONFIDENCE) -> BoxScore:
    """How the reader would score its boxes named by `probabilities` (N, classes): each box its likeliest class,
    scored detector score x probability, boxes named `none` dropped."""
    label, confidence = probabilities.argmax(axis=1), probabilities.max(axis=1)
    accumulator = ClassDetectionAccumulator()
    for photo in np.unique(np.concatenate([boxes.photos, boxes.labelled_photos])):
        kept = (boxes.photos == photo) & (label != NONE_INDEX)
        labelled = boxes.labelled_photos == photo
        accumulator.add(boxes.boxes[kept], (boxes.detector_scores * confidence)[kept],
                        [CLASS_NAMES[k] for k in label[kept]], boxes.labelled_boxes[labelled],
                        [CLASS_NAMES[k] for k in boxes.labelled_codes[labelled]])
    on_index, sure = boxes.truth != NONE_INDEX, confidence >= unsure_below
    return BoxScore(map50=accumulator.results()["mAP50"],
                    top1=float(np.mean(label[on_index] == boxes.truth[on_index])) if on_index.any() else float("nan"),
                    sure_right=int(np.sum(sure & on_index & (label == boxes.truth))),
                    sure_wrong=int(np.sum(sure & (label != boxes.truth))))


def perfect_probabilities(boxes: ReaderBoxes) -> np.ndarray:
    """A classifier that names every box its truth surely (`none` where it overlaps no labelled index)."""
    probabilities = np.zeros((len(boxes.truth), len(CLASS_NAMES)), np.float32)
    probabilities[np.arange(len(boxes.truth)), boxes.truth] = 1.0
    return probabilities


def candidate_probabilities(candidate: str, crops: np.ndarray, cache: dict[Path, np.ndarray]) -> np.ndarray:
    """A candidate's probabilities with the reader's vote: its `+`-joined ONNX files' turned probabilities averaged
    (each file's computed once in `cache`)."""
    models = [Path(part) for part in candidate.split("+")]
    for model in models:
        if model not in cache:
            cache[model] = turned_probabilities(model, crops)
    return reader_vote(np.mean([cache[model] for model in models], axis=0))


def _line(name: str, result: BoxScore) -> str:
    return (f"{name}: mAP50 {result.map50:.4f}, top-1 {result.top1:.4f}, named surely right {result.sure_right}, "
            f"wrong {result.sure_wrong}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.reader_box_scores",
                                     description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cutting = commands.add_parser("cut", help="read a rendered set and save the boxes the reader classified")
    cutting.add_argument("photos", type=Path, help="a rendered set's folder (e.g. synth-v5/photos/val)")
    cutting.add_argument("out", type=Path, help=".npz file to write")
    cutting.add_argument("--models", type=Path, default=MODELS_DIR, help="the reader's models folder")
    scoring = commands.add_parser("score", help="score classifier candidates at the saved boxes")
    scoring.add_argument("boxes", type=Path, help=".npz written by cut")
    scoring.add_argument("candidates", nargs="+", help="ONNX classifier files, several joined by + to average")
    args = parser.parse_args(argv)
    try:
        if args.command == "cut":
            boxes = cut(CardReader(args.models), args.photos)
            boxes.save(args.out)
            print(f"{args.out}: {len(boxes.truth)} boxes in {len(np.unique(boxes.labelled_photos))} photos, "
                  f"{int(np.sum(boxes.truth != NONE_INDEX))} on {len(boxes.labelled_codes)} labelled indices")
            return 0
        boxes = ReaderBoxes.load(args.boxes)
        print(_line("a perfect classifier", score(boxes, perfect_probabilities(boxes))))
        cache: dict[Path, np.ndarray] = {}
        for candidate in args.candidates:
            print(_line(candidate, score(boxes, candidate_probabilities(candidate, boxes.crops, cache))), flush=True)
    except (OSError, ValueError, KeyError, ModelError) as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
