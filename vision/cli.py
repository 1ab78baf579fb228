"""`python -m vision read PHOTO [PHOTO ...] [--loose]`, `python -m vision evaluate ...` and
`python -m vision compare REPORT_DIR REPORT_DIR ...`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from vision.errors import ImageError, ModelError

EXIT_UNREADABLE = 2
EXIT_NO_MODEL = 3


def _read_command(args: argparse.Namespace) -> int:
    from vision.decode import check_limits
    from vision.reader import CardReader, MODELS_DIR

    reader = None
    results = []
    for photo in args.photos:
        try:
            data = Path(photo).read_bytes()
        except OSError as err:
            print(f"vision read: {photo}: cannot open ({err.strerror or err})", file=sys.stderr)
            return EXIT_UNREADABLE
        try:
            check_limits(data)  # bad files fail fast, before the models are loaded
            if reader is None:
                reader = CardReader(Path(args.models) if args.models else MODELS_DIR)
            result = (_table_of(reader, data, args.loose) if args.table
                      else reader.read(data, loose=args.loose).to_dict())
        except ModelError as err:
            print(f"vision read: {err}", file=sys.stderr)
            return EXIT_NO_MODEL
        except ImageError as err:
            print(f"vision read: {photo}: {err}", file=sys.stderr)
            return EXIT_UNREADABLE
        results.append({"photo": photo, **result})
    print(json.dumps(results, indent=2, ensure_ascii=False))
    return 0


def _table_of(reader, data: bytes, loose: bool) -> dict:
    """`read --table`: every hand of the table photo in its seat (vision.table)."""
    from vision.table import table_read

    return table_read(reader, data, loose=loose)


def _evaluate_command(args: argparse.Namespace) -> int:
    from vision.evaluation.run import run_evaluation

    try:
        return run_evaluation(args)
    except ModelError as err:
        print(f"vision evaluate: {err}", file=sys.stderr)
        return EXIT_NO_MODEL


def _compare_command(args: argparse.Namespace) -> int:
    from vision.evaluation.compare import ReportError, compare_lines, load_report

    try:
        reports = [load_report(Path(folder)) for folder in args.reports]
    except ReportError as err:
        print(f"vision compare: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    names = [Path(folder).name or str(folder) for folder in args.reports]
    print("\n".join(compare_lines(reports, names, only_differences=args.diff)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m vision", description="Card reader: photos → cards in rows.")
    sub = parser.add_subparsers(dest="command", required=True)
    read = sub.add_parser("read", help="read photos and print a JSON list, one object per photo")
    read.add_argument("photos", nargs="+", metavar="PHOTO")
    read.add_argument("--loose", action="store_true", help="loose cards: no front/middle/back rows")
    read.add_argument("--table", action="store_true",
                      help="a whole table: every player's hand in its seat (0 bottom, 1 left, 2 top, 3 right); "
                           "with --loose, each seat's cards without rows (Big Two)")
    read.add_argument("--models", help="folder with cards.onnx and cards_cls.onnx (default: models/)")
    read.set_defaults(func=_read_command)
    from vision.evaluation.run import add_arguments

    evaluate = sub.add_parser("evaluate", help="measure the reader: markdown report + confusion picture")
    add_arguments(evaluate)
    evaluate.set_defaults(func=_evaluate_command)
    compare = sub.add_parser("compare", help="evaluation reports side by side, and the photos each reads wrong "
                                             "without any warning that the first does not")
    compare.add_argument("reports", nargs="+", metavar="REPORT_DIR", help="folders holding report.md (the first is "
                                                                          "the baseline)")
    compare.add_argument("--diff", action="store_true", help="only the summary rows whose figures differ")
    compare.set_defaults(func=_compare_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
