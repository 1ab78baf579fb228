"""Orchestrates `python -m vision evaluate`: runs the evaluators and writes report.md + confusion.png."""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
from collections import Counter
from functools import partial
from pathlib import Path

import cv2

from vision.classifier import SCALE_VOTE, SCALE_VOTE_MIN_PX
from vision.crops import CARD_CODES
from vision.evaluation import datasets
from vision.evaluation.confusion_image import draw_confusion, side_by_side
from vision.evaluation.evaluators import (EXTRA, MISSED, MISSED_SIZE_LABELS, NO_CARD, SetResult,
                                          evaluate_detector_tiles, evaluate_rank_boxes, evaluate_scenes,
                                          evaluate_singles, evaluate_unknown_decks)
from vision.evaluation.index_outcomes import MATCH_IOU, OUTCOMES
from vision.evaluation.metrics import worst_confusions
from vision.evaluation.sureness_figures import reliability
from vision.evaluation.table_set import tables_set
from vision.evaluation.views import (BLUR_VIEWS, COLOURED_LIGHTS, FLAT_VIEWS, LIGHT_VIEWS, MOVED_SHARE, STEEP_VIEWS,
                                    blurred_view_bytes, blurred_view_with_boxes, coloured_view_bytes,
                                    coloured_view_with_boxes, lit_view_with_boxes, moved_photo_bytes, steep_view_bytes,
                                    steep_view_with_boxes)
from vision.looks import (DETECTION_SIZES, DETECTOR_SCORE_THRESHOLD, FAINT_BOX_MIN_PROBABILITY, FAINT_BOX_SCORE,
                          NONE_SURE_PROBABILITY, UNNAMED_BOX_SCORE)
from vision.reader import MODELS_DIR, PARTNER_CLASSIFIER_FILE, CardReader
from vision.reader_config import ReaderConfig
from vision.results import FILL_MIN_CONFIDENCE, MIN_CARD_CONFIDENCE
from vision.second_opinion import SECOND_CLASSIFIER_FILE
from vision.sureness import SURE_CHANCE

ALL_SETS = ("synthetic", "photos", "photos-moved", "real-deck", "four-colour", "tiles", "phone", "phone-steep",
            "phone-blur", "phone-coloured", "webcam", "webcam-coloured", "edje", "edje-steep", "edje-flat", "edje-blur",
            "edje-light", "edje-coloured", "tables", "unknown-deck")
EDJE_RANKS = ["9", "T", "J", "Q", "K", "A"]


def set_names(text: str) -> set[str]:
    """--sets: a comma list of ALL_SETS; a misspelt name is an error, not a set silently left out."""
    wanted = {s.strip() for s in text.split(",") if s.strip()}
    unknown = sorted(wanted - set(ALL_SETS))
    if unknown or not wanted:
        raise argparse.ArgumentTypeError(f"unknown set(s) {', '.join(unknown) or '(none given)'}; "
                                         f"choose from {','.join(ALL_SETS)}")
    return wanted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="artifacts/eval", help="folder for report.md and confusion.png")
    parser.add_argument("--models", default=None, help="folder with cards.onnx and cards_cls.onnx (default models/)")
    parser.add_argument("--scenes", default=None,
                        help="synthetic validation scenes folder (default: newest /work/data/synth-vN/scenes/val)")
    parser.add_argument("--photos", default=None,
                        help="synthetic validation photos of every kind (default: newest synth-vN/photos/val)")
    parser.add_argument("--real-deck-photos", default=None,
                        help="synthetic photos of every kind of decks cut out of real photos (docs/training.md; default: "
                             "newest /work/data/synth-real-vN/photos/val)")
    parser.add_argument("--four-colour-photos", default=None,
                        help="synthetic photos of every kind of the val decks printed in four colours (docs/training.md; "
                             "default: newest /work/data/synth-4c-vN/photos/val)")
    parser.add_argument("--tables", default=None,
                        help="whole-table photos, every hand in its seat (vision.synth --parts tables; default: newest "
                             "/work/data/synth-tables-vN/tables/val)")
    parser.add_argument("--unknown-deck-photos", default=None,
                        help="photos of decks with court letters the reader does not know (German B/D: python -m "
                             "vision.synth --unknown-letters; default: newest /work/data/synth-unknown-vN/photos/val)")
    parser.add_argument("--data-yaml", default=None,
                        help="detector data.yaml for mAP on its val tiles (default: newest synth-vN/detect/data.yaml)")
    parser.add_argument("--dev-photos", default=str(datasets.DEFAULT_DEV_PHOTOS), help="real photos folder")
    parser.add_argument("--sets", type=set_names, default=",".join(ALL_SETS),
                        help=f"comma list out of {','.join(ALL_SETS)}")
    parser.add_argument("--limit", type=int, default=None, help="at most N photos per set (evenly spread)")
    parser.add_argument("--min-card-confidence", type=float, default=MIN_CARD_CONFIDENCE,
                        help="cards named with less are left out (the reader's rule; 0 keeps every mark)")
    parser.add_argument("--sure-chance", type=float, default=SURE_CHANCE,
                        help="cards whose calibrated chance of being right is less are not marked sure (vision.sureness)")
    parser.add_argument("--fill-min-confidence", type=float, default=FILL_MIN_CONFIDENCE,
                        help="in rows mode unsure cards down to this fill a hand of fewer than 13 (above 1: never)")
    parser.add_argument("--detector-score-threshold", type=float, default=DETECTOR_SCORE_THRESHOLD,
                        help="the detector's boxes scoring less are dropped (the reader's rule)...")
    parser.add_argument("--faint-box-score", type=float, default=FAINT_BOX_SCORE,
                        help="...unless they score at least this and are named plainly (at or above the threshold "
                             "to turn faint boxes off)")
    parser.add_argument("--faint-box-min-probability", type=float, default=FAINT_BOX_MIN_PROBABILITY,
                        help="how surely the classifier must name a faint box for it to be kept")
    parser.add_argument("--unnamed-box-score", type=float, default=UNNAMED_BOX_SCORE,
                        help="boxes the detector scores at least this and the classifier names `none` less surely "
                             "than --none-sure-probability are kept as warn-only marks, and so are a replaced first "
                             "look's marks a closer look missed (docs/reader-decisions.md@538d56c, unnamed boxes; above 1: "
                             "off)")
    parser.add_argument("--none-sure-probability", type=float, default=NONE_SURE_PROBABILITY,
                        help="how surely the classifier must name such a box `none` for it to be dropped")
    parser.add_argument("--scale-vote", type=scale_factors, default=",".join(map(str, SCALE_VOTE)),
                        help="unsure crops also classified from boxes scaled by these factors, averaged "
                             "(comma list, e.g. 0.85,1.2; empty: off, the reader's rule)")
    parser.add_argument("--scale-vote-min-px", type=float, default=SCALE_VOTE_MIN_PX,
                        help="...only boxes at least this long, in pixels of the picture classified")
    parser.add_argument("--no-balanced-read", action="store_true",
                        help="no second read balanced to the paper under a strongly coloured light (vision.casts)")
    parser.add_argument("--no-second-opinion", action="store_true",
                        help="no second classifier's look at the sure cards, even where the models folder has one "
                             "(vision.second_opinion)")
    parser.add_argument("--no-partner-classifier", action="store_true",
                        help="the classifier alone, even where the models folder has a partner to average it with "
                             "(docs/reader-decisions.md@538d56c, partner classifier)")
    parser.add_argument("--detection-size", type=int, default=DETECTION_SIZES[0],
                        help="detector input long side (smaller sizes follow for close-ups)")


def scale_factors(text: str) -> tuple[float, ...]:
    """'0.85,1.2' -> (0.85, 1.2); '' -> () (argparse type of --scale-vote)."""
    try:
        factors = tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma list of numbers: {text!r}") from None
    if any(not 0.5 <= f <= 2.0 for f in factors):
        raise argparse.ArgumentTypeError(f"scale factors must lie in 0.5..2: {text!r}")
    return factors


def _fmt(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "n/a"
    if isinstance(value, float) and value <= 1.0:
        return f"{value:.3f}"
    return f"{value:g}"


def _second_opinion_words(args: argparse.Namespace, models: Path) -> str:
    return "off" if args.no_second_opinion or not (models / SECOND_CLASSIFIER_FILE).is_file() else "on"


def _partner_words(args: argparse.Namespace, models: Path) -> str:
    return "off" if args.no_partner_classifier or not (models / PARTNER_CLASSIFIER_FILE).is_file() else "on"


def _model_lines(models: Path) -> list[str]:
    lines = []
    for name in ("cards.onnx", "cards_cls.onnx", PARTNER_CLASSIFIER_FILE, SECOND_CLASSIFIER_FILE):
        path = models / name
        if name in (PARTNER_CLASSIFIER_FILE, SECOND_CLASSIFIER_FILE) and not path.is_file():
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        lines.append(f"- `{name}`: {path.stat().st_size / 1e6:.2f} MB, sha256 {digest}…, "
                     f"modified {time.strftime('%Y-%m-%d %H:%M', time.localtime(path.stat().st_mtime))}")
    return lines


def _section(result: SetResult, classes: list[str] | None) -> list[str]:
    lines = [f"### {result.name}", "",
             f"{result.photos} photos ({result.unreadable} unreadable), {result.seconds:.1f} s "
             f"({1000 * result.seconds / max(result.photos, 1):.0f} ms per photo)", "",
             "| measure | value |", "| --- | --- |"]
    lines += [f"| {key} | {_fmt(value)} |" for key, value in result.numbers.items()]
    lines.append("")
    if classes is not None and result.actual:
        table = result.per_class
        lines += ["| class | precision | recall | F1 | support |", "| --- | --- | --- | --- | --- |"]
        for label in classes:
            if label in table:
                row = table[label]
                lines.append(f"| {label} | {_fmt(row['precision'])} | {_fmt(row['recall'])} | {_fmt(row['f1'])} "
                             f"| {row['support']} |")
        lines.append("")
    if result.card_records:
        lines += _reliability_table(result)
    confusions = worst_confusions(result.confusion)
    if confusions:
        lines += ["Worst confusions (truth → read, count): " +
                  ", ".join(f"{t} → {p} ×{n}" for t, p, n in confusions), ""]
    if result.missed_by_size:
        counts = sorted(result.missed_by_size.items(),
                        key=lambda item: (item[0][0], MISSED_SIZE_LABELS.index(item[0][1])))
        lines += ["Cards not read (missed, or read as another card), by the short side of their largest visible index "
                  "(photo px): " + "; ".join(f"{kind} {label} ×{n}" for (kind, label), n in counts), ""]
    if result.index_outcomes:
        lines += _index_outcome_table(result.index_outcomes)
    if result.lowest_ap50:
        lines += ["Lowest 52-class index AP50 as read (class, AP50, labelled indices): " +
                  ", ".join(f"{code} {_fmt(ap)} ({count})" for code, ap, count in result.lowest_ap50), ""]
    if result.warned_right:
        lines += [f"Warnings on photos read right ({result.right_warned} of {result.read_right} warned; a photo counts "
                  "once per kind): " + "; ".join(f"{kind} ×{n}" for kind, n in result.warned_right.most_common()), ""]
    if result.failures:
        lines += [f"First failures ({len(result.failures)} in all):", ""]
        lines += [f"- {failure}" for failure in result.failures[:8]] + [""]
    if result.silent_failures:  # every one, so candidates can be compared photo by photo
        lines += [f"Read wrong without any warning ({len(result.silent_failures)}):", ""]
        lines += [f"- {failure}" for failure in result.silent_failures] + [""]
    return lines


def _reliability_table(result: SetResult) -> list[str]:
    """The cards read by their calibrated chance of being right: how many, the mean chance, the share right."""
    lines = ["Reliability of the cards' calibrated chance (vision.sureness):", "",
             "| chance | cards | mean chance | share right |", "| --- | --- | --- | --- |"]
    lines += [f"| {name} | {n} | {chance:.3f} | {right:.3f} |" for name, n, chance, right in reliability(
        result.card_records)]
    return lines + [""]


def _index_outcome_table(outcomes: Counter) -> list[str]:
    """Labelled indices (the legible ones where a set marks legibility) by what the whole reader made of them, per
    photo kind and in all: where the 52-class index mAP is lost."""
    kinds = sorted({kind for kind, _ in outcomes})
    lines = ["Labelled indices by what the whole reader made of them (legible ones where the set marks them; a "
             f"reading on an index overlaps it by IoU {MATCH_IOU} or more, surely = at the unsure threshold or over):",
             "",
             "| photo kind | indices | " + " | ".join(OUTCOMES) + " |", "| --- " * (len(OUTCOMES) + 2) + "|"]
    for kind in [*kinds, None]:
        counts = [sum(n for (k, o), n in outcomes.items() if o == outcome and kind in (None, k)) for outcome in OUTCOMES]
        lines.append(f"| {kind or 'all'} | {sum(counts)} | " + " | ".join(str(n) for n in counts) + " |")
    return lines + [""]


def _scale_vote_words(args: argparse.Namespace) -> str:
    if not args.scale_vote:
        return "off"
    factors = ", ".join(map(str, args.scale_vote))
    return f"{factors} (boxes of {args.scale_vote_min_px:g} px or more)" if args.scale_vote_min_px else factors


def _unnamed_box_words(args: argparse.Namespace) -> str:
    if args.unnamed_box_score > 1:
        return "dropped"
    return f"scoring ≥ {args.unnamed_box_score:g} warned unless named `none` ≥ {args.none_sure_probability:g}"


def models_dir(args: argparse.Namespace) -> Path:
    return Path(args.models) if args.models else MODELS_DIR


def make_reader(args: argparse.Namespace) -> CardReader:
    """The reader with the run's models and its reading settings (sizes, thresholds)."""
    return CardReader(models_dir(args), ReaderConfig(
        detection_sizes=(args.detection_size,) + tuple(s for s in DETECTION_SIZES if s < args.detection_size),
        score_threshold=args.detector_score_threshold, faint_box_score=args.faint_box_score,
        faint_box_min_probability=args.faint_box_min_probability, min_card_confidence=args.min_card_confidence,
        sure_chance=args.sure_chance,
        fill_min_confidence=args.fill_min_confidence, scale_vote=args.scale_vote,
        scale_vote_min_px=args.scale_vote_min_px, balance_casts=not args.no_balanced_read,
        unnamed_box_score=args.unnamed_box_score, none_sure_probability=args.none_sure_probability,
        second_opinion=not args.no_second_opinion, partner_classifier=not args.no_partner_classifier))


def run_evaluation(args: argparse.Namespace) -> int:
    models = models_dir(args)
    reader = make_reader(args)
    wanted = args.sets
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results: list[tuple[SetResult, list[str] | None]] = []
    skipped: list[str] = []
    started = time.perf_counter()

    for key, given, part, prefix, title, missing in (
            ("synthetic", args.scenes, "scenes", "synth-v", "synthetic val scenes",
             "synthetic: no validation scenes folder found"),
            ("photos", args.photos, "photos", "synth-v", "synthetic val photos of every kind",
             "photos: no synthetic photos folder found (python -m vision.synth --parts photos)"),
            ("photos-moved", args.photos, "photos", "synth-v",
             f"synthetic val photos of every kind, every second one moved {MOVED_SHARE:.1%} of its side",
             "photos-moved: no synthetic photos folder found (python -m vision.synth --parts photos)"),
            ("real-deck", args.real_deck_photos, "photos", "synth-real-v", "photos of every kind of a real deck",
             "real-deck: no photos of the real decks found (python -m vision.synth --parts photos --val-decks "
             "real_webcam,real_phone, docs/training.md)"),
            ("four-colour", args.four_colour_photos, "photos", "synth-4c-v",
             "photos of every kind of the val decks in four colours",
             "four-colour: no four-colour photos found (python -m vision.synth --parts photos --four-colour 1, "
             "docs/training.md)")):
        if key not in wanted:
            continue
        folder = Path(given) if given else None
        if folder is None and (root := datasets.newest_synth_root(needs=(f"{part}/val/*.json",),
                                                                   prefix=prefix)) is not None:
            folder = root / part / "val"
        if folder and folder.is_dir():
            scenes = datasets.load_scenes(folder)
            moved = key == "photos-moved"
            scenes = datasets.subsample(scenes[::2] if moved else scenes, args.limit)
            results.append((evaluate_scenes(reader, scenes, f"{title} ({folder})",
                                            load=(lambda order, scene: moved_photo_bytes(scene.image, order))
                                            if moved else None), CARD_CODES))
        else:
            skipped.append(missing)
    if "unknown-deck" in wanted:
        folder = Path(args.unknown_deck_photos) if args.unknown_deck_photos else None
        if folder is None and (root := datasets.newest_synth_root(needs=("photos/val/*.json",),
                                                                   prefix="synth-unknown-v")) is not None:
            folder = root / "photos" / "val"
        if folder and folder.is_dir():
            scenes = datasets.subsample(datasets.load_scenes(folder), args.limit)
            results.append((evaluate_unknown_decks(reader, scenes, f"photos of decks with unknown court letters "
                                                                    f"({folder})"), None))
        else:
            skipped.append("unknown-deck: no photos of decks with unknown letters found (scripts/eval_data.sh)")
    if "tiles" in wanted:
        data_yaml = Path(args.data_yaml) if args.data_yaml else None
        if data_yaml is None and (root := datasets.newest_synth_root(
                needs=("detect/data.yaml", "detect/labels/val/*.txt"))) is not None:
            data_yaml = root / "detect" / "data.yaml"
        if data_yaml and data_yaml.is_file():
            tiles = datasets.subsample(datasets.detector_val_tiles(data_yaml), args.limit)
            results.append((evaluate_detector_tiles(reader, tiles, f"detector val tiles ({data_yaml.parent})"), None))
        else:
            skipped.append("detector tiles: no data.yaml found (give --data-yaml)")
    if "tables" in wanted:
        tables = tables_set(reader, Path(args.tables) if args.tables else None, args.limit)
        if isinstance(tables, str):
            skipped.append(tables)
        else:
            results.append((tables, CARD_CODES))
    dev = Path(args.dev_photos)
    if not (dev / "labels.json").is_file():
        skipped.append(f"real photos: {dev} not found")
    else:
        labels = datasets.dev_labels(dev)
        for key, folder, keep, title in (
                ("phone", "phone-singles", lambda name: True, "real phone-singles (top-1)"),
                ("webcam", "webcam-singles", datasets.is_heldout_webcam,
                 "real webcam-singles held out of training (top-1)")):
            if key in wanted:
                photos = sorted((dev / name, datasets.corrected_code(name, codes[0])) for name, codes in labels.items()
                                if name.startswith(folder) and keep(name))
                photos = datasets.subsample(photos, args.limit)
                chosen = {path for path, _ in photos}
                labelled = {dev / name: codes[0] for name, codes in labels.items()
                            if dev / name in chosen and datasets.corrected_code(name, codes[0]) != codes[0]}
                results.append((evaluate_singles(reader, photos, title, labelled), CARD_CODES + [NO_CARD]))
        coloured_views = tuple((light, partial(coloured_view_bytes, light=light)) for light, _ in COLOURED_LIGHTS)
        single_views = (
            ("phone-steep", "phone-singles", "real phone-singles in steep views", _steep_views(steep_view_bytes)),
            ("phone-blur", "phone-singles", "real phone-singles in blurred views", _blurred_views(blurred_view_bytes)),
            ("phone-coloured", "phone-singles", "real phone-singles in coloured light", coloured_views),
            ("webcam-coloured", "webcam-singles", "real webcam-singles held out of training in coloured light",
             coloured_views))
        for key, folder, title, views in single_views:
            if key in wanted:
                keep = datasets.is_heldout_webcam if folder == "webcam-singles" else (lambda name: True)
                photos = sorted((dev / name, datasets.corrected_code(name, codes[0]))
                                for name, codes in labels.items() if name.startswith(folder) and keep(name))
                results.append((evaluate_singles(reader, datasets.subsample(photos, args.limit),
                                                 f"{title} (top-1; labels corrected)", views=views),
                                CARD_CODES + [NO_CARD]))
        if wanted & {"edje", "edje-steep", "edje-flat", "edje-blur", "edje-light", "edje-coloured"}:
            photos = datasets.subsample(sorted((dev / name, boxes) for name, boxes in datasets.edje_labels(dev).items()),
                                        args.limit)
            if "edje" in wanted:
                results.append((evaluate_rank_boxes(reader, photos, "real edje-multi (rank only)"), EDJE_RANKS))
            if "edje-steep" in wanted:
                results.append((evaluate_rank_boxes(reader, photos, "real edje-multi in steep views (rank only)",
                                                    views=_steep_views(steep_view_with_boxes)), EDJE_RANKS))
            if "edje-flat" in wanted:
                title = "real edje-multi in views flatter than 30° (rank only)"
                results.append((evaluate_rank_boxes(reader, photos, title,
                                                    views=_steep_views(steep_view_with_boxes, FLAT_VIEWS)), EDJE_RANKS))
            if "edje-blur" in wanted:
                results.append((evaluate_rank_boxes(reader, photos, "real edje-multi in blurred views (rank only)",
                                                    views=_blurred_views(blurred_view_with_boxes)), EDJE_RANKS))
            if "edje-light" in wanted:
                views = tuple((light, partial(lit_view_with_boxes, light=light)) for light in LIGHT_VIEWS)
                results.append((evaluate_rank_boxes(reader, photos, "real edje-multi in other light (rank only)",
                                                    views=views), EDJE_RANKS))
            if "edje-coloured" in wanted:
                views = tuple((light, partial(coloured_view_with_boxes, light=light)) for light, _ in COLOURED_LIGHTS)
                results.append((evaluate_rank_boxes(reader, photos, "real edje-multi in coloured light (rank only)",
                                                    views=views), EDJE_RANKS))

    _write_report(out, models, args, results, skipped, time.perf_counter() - started)
    # every card read, per set: what vision.training.fit_calibration fits the calibration on
    (out / "cards.json").write_text(json.dumps({result.name: [r.to_json() for r in result.card_records]
                                                for result, _ in results if result.card_records}))
    print(f"report: {out / 'report.md'}")
    return 0


def _steep_views(load, views=STEEP_VIEWS):
    """(view name, load with that view's settings) for each of `views` (STEEP_VIEWS or FLAT_VIEWS); `load` is one of
    views' steep_view_* ."""
    return tuple((view, partial(load, elevation=elevation, quarter_turns=turns, blur=blur))
                 for view, elevation, turns, blur in views)


def _blurred_views(load):
    """(view name, load with that view's settings) for each of BLUR_VIEWS; `load` is one of views' blurred_view_* ."""
    return tuple((view, partial(load, defocus_share=defocus, motion_share=motion)) for view, defocus, motion in BLUR_VIEWS)


def _write_report(out: Path, models: Path, args, results, skipped, seconds: float) -> None:
    lines = ["# Card reader evaluation", "",
             f"Run {time.strftime('%Y-%m-%d %H:%M')}, {seconds:.0f} s in all, detection long side "
             f"{args.detection_size}, detector boxes scoring < {args.detector_score_threshold} dropped "
             f"(kept from {args.faint_box_score} where named ≥ {args.faint_box_min_probability}), "
             f"cards named with < {args.min_card_confidence} left out, sure from a chance of {args.sure_chance}, "
             f"(in rows, down to {args.fill_min_confidence} where a hand has fewer than 13), "
             f"scale vote {_scale_vote_words(args)}, balanced read {'off' if args.no_balanced_read else 'on'}, "
             f"unnamed boxes {_unnamed_box_words(args)}, "
             f"partner classifier {_partner_words(args, models)}, "
             f"second opinion {_second_opinion_words(args, models)}, "
             f"limit per set: {args.limit or 'none'}.", ""]
    lines += _model_lines(models) + [""]
    lines += ["## Summary", "", "| set | measure | value |", "| --- | --- | --- |"]
    for result, _ in results:
        lines += [f"| {result.name} | {key} | {_fmt(value)} |" for key, value in result.numbers.items()]
    lines += [""] + [f"- skipped {reason}" for reason in skipped]
    lines += ["", "Dev-photo labels corrected (the figures count what the photo shows; singles also as labelled):"]
    lines += [f"- `{name}`: labelled {label}, shows {shows}: {why}"
              for name, (label, shows, why) in datasets.LABEL_CORRECTIONS.items()]
    lines += ["", "## Details", ""]
    for result, classes in results:
        lines += _section(result, classes)
    panels = []
    for result, classes in results:
        if not result.confusion or classes is None:
            continue
        if classes == EDJE_RANKS:
            panels.append(draw_confusion(result.confusion, EDJE_RANKS + [EXTRA], EDJE_RANKS + [MISSED],
                                         result.name, cell=28))
        elif NO_CARD in classes:
            panels.append(draw_confusion(result.confusion, CARD_CODES, classes, result.name))
    if panels:
        cv2.imwrite(str(out / "confusion.png"), side_by_side(panels))
        lines += ["![confusion](confusion.png)", ""]
    (out / "report.md").write_text("\n".join(lines))
