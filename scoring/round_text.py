"""A round written as JSON text -> the round document, with a one-line ScoringError for any bad text.

The command line reads rounds through here; ``json.loads`` alone would raise RecursionError on deep
nesting, ValueError past Python's int-to-text digit limit, accept NaN and Infinity (not JSON), and keep
only the last of two equal keys (a player entered twice would silently vanish).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .errors import ScoringError, shown
from .limits import check_document

MAX_ROUND_TEXT = 1_000_000   # characters; a round is a few hundred


def _refuse_constant(name: str) -> Any:
    raise ScoringError(f"{name} is not a JSON number")


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ScoringError(f"the key {shown(key)} appears twice in one object")
            seen.add(key)
    return result


def read_round_text(text: str, source: str = "the round") -> Any:
    """The JSON document in ``text``, checked against scoring.limits; ScoringError naming ``source``."""
    if len(text) > MAX_ROUND_TEXT:
        raise ScoringError(f"{source} is {len(text):,} characters; a round is at most {MAX_ROUND_TEXT:,}")
    try:
        document = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_object_without_repeats)
    except json.JSONDecodeError as err:
        raise ScoringError(f"{source} is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") \
            from None
    except RecursionError:
        raise ScoringError(f"{source} is nested far too deeply (a round needs 5 levels)") from None
    except ScoringError as err:
        raise ScoringError(f"{source} is not valid JSON: {err}") from None
    except ValueError:   # the only other ValueError: an int past Python's int-to-text digit limit
        raise ScoringError(f"{source} holds a number of more than {sys.get_int_max_str_digits():,} digits") \
            from None
    check_document(document)
    return document
