"""Command line: ``python -m scoring settle [FILE|-]`` and ``python -m scoring presets``.

Errors print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Optional, Sequence, TextIO

from . import ScoringError, list_presets, settle

USAGE = "usage: python -m scoring settle [FILE|-] | python -m scoring presets"


def _fail(message: str) -> int:
    sys.stderr.write("error: " + " ".join(message.split()) + "\n")
    return 2


def _print_json(data: dict, out: TextIO) -> None:
    out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _read_round(source: str) -> object:
    if source == "-":
        text = sys.stdin.read()
    else:
        with open(source, encoding="utf-8") as handle:
            text = handle.read()
    return json.loads(text)


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
    if command != "settle":
        return _fail(f"unknown command {command!r}; {USAGE}")
    if len(rest) > 1:
        return _fail(f"settle takes one FILE (or - for stdin); {USAGE}")
    source = rest[0] if rest else "-"
    try:
        round_ = _read_round(source)
    except OSError as err:
        return _fail(f"cannot read {source}: {err.strerror or err}")
    except UnicodeDecodeError:
        return _fail(f"{source} is not UTF-8 text")
    except json.JSONDecodeError as err:
        return _fail(f"{source} is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}")
    try:
        result = settle(round_)
    except ScoringError as err:
        return _fail(str(err))
    _print_json(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
