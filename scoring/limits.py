"""Bounds on a round document's size and shape, checked before anything reads it.

A real round is small: at most 4 players of 13 cards, an options object and stakes, a few hundred values
nested 5 deep.  Checking these bounds first (iteratively: a 5,000-deep list must not overflow the stack)
means that no later step can be made to work on a huge or deeply nested input, and that every text is
valid Unicode (a lone surrogate such as "\\ud800", which JSON can carry, cannot be printed or stored).
"""

from __future__ import annotations

from typing import Any

from .errors import ScoringError, shown

MAX_DEPTH = 8          # objects and lists inside one another (a round needs 5)
MAX_VALUES = 2_000     # values of every kind, keys included (a four-player round has about 300)
MAX_TEXT = 500         # characters of one text, a key or a value (a written hand is under 100)


def _check_text(text: str, where: str) -> None:
    if len(text) > MAX_TEXT:
        raise ScoringError(f"{where}: a text of {len(text):,} characters; at most {MAX_TEXT} are read")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ScoringError(f"{where}: {shown(text)} is not valid Unicode text (a lone surrogate)") from None


def check_document(document: Any, what: str = "the round") -> None:
    """ScoringError (one line) when ``document`` is nested deeper than MAX_DEPTH, holds more than
    MAX_VALUES values, or holds a text longer than MAX_TEXT characters or not valid Unicode."""
    pending: list[tuple[Any, int]] = [(document, 1)]
    count = 0
    while pending:
        value, depth = pending.pop()
        count += 1
        if count > MAX_VALUES:
            raise ScoringError(f"{what} holds more than {MAX_VALUES:,} values; a round is far smaller")
        if isinstance(value, str):
            _check_text(value, what)
        elif isinstance(value, (dict, list, tuple)):
            if depth > MAX_DEPTH:
                raise ScoringError(f"{what} is nested more than {MAX_DEPTH} levels deep")
            if len(value) > MAX_VALUES:
                raise ScoringError(f"{what} holds a list or object of {len(value):,} items; "
                                   f"a round is far smaller")
            if isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(key, str):
                        _check_text(key, what)
                    pending.append((item, depth + 1))
                count += len(value)
            else:
                pending.extend((item, depth + 1) for item in value)
