"""Command line: ``python -m scoring settle [FILE|-]``, ``arrange [FILE|-]`` and ``presets``.

The error contract: any bad input (unreadable file, text that is not UTF-8 or not JSON, a document
nested too deeply or too large, a number out of range, a round the rules refuse) prints one line,
``error: <reason>``, on stderr and exits with status 2; a settlement prints JSON and exits with 0.
"""

from __future__ import annotations

import json
import sys
from typing import Optional, Sequence, TextIO

from . import ScoringError, list_presets, settle
from .arrange_cli import arrange_document
from .round_text import MAX_ROUND_TEXT, read_round_text

USAGE = "usage: python -m scoring settle [FILE|-] | python -m scoring arrange [FILE|-] | python -m scoring presets"


def _fail(message: str) -> int:
    line = "error: " + " ".join(message.split())
    # Whatever the terminal's encoding, the line gets out (unprintable characters escaped).
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    sys.stderr.write(line.encode(encoding, "backslashreplace").decode(encoding) + "\n")
    return 2


def _print_json(data: dict, out: TextIO) -> None:
    try:
        out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    except UnicodeEncodeError:   # a terminal that cannot show 葫蘆 gets the same JSON, escaped
        out.write(json.dumps(data, ensure_ascii=True, indent=2) + "\n")


def _read_text(source: str) -> str:
    """The round's text, reading at most one character past the limit (read_round_text refuses it)."""
    if source == "-":
        return sys.stdin.read(MAX_ROUND_TEXT + 1)
    with open(source, encoding="utf-8") as handle:
        return handle.read(MAX_ROUND_TEXT + 1)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        if args:
            print(USAGE)
            return 0
        return _fail(USAGE)
    command, rest = args[0], args[1:]
    if command == "presets":
        if rest:
            return _fail(f"presets takes no arguments; {USAGE}")
        _print_json(list_presets(), sys.stdout)
        return 0
    if command not in ("settle", "arrange"):
        return _fail(f"unknown command {ascii(command)}; {USAGE}")
    if len(rest) > 1:
        return _fail(f"{command} takes one FILE (or - for stdin); {USAGE}")
    source = rest[0] if rest else "-"
    shown_source = "the input" if source == "-" else source
    try:
        text = _read_text(source)
    except OSError as err:
        return _fail(f"cannot read {source}: {err.strerror or err}")
    except UnicodeDecodeError:
        return _fail(f"{shown_source} is not UTF-8 text")
    try:
        document = read_round_text(text, shown_source)
        result = arrange_document(document) if command == "arrange" else settle(document)
    except ScoringError as err:
        return _fail(str(err))
    _print_json(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
