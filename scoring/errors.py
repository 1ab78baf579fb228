"""The one error type of the scoring package, and how an error message shows a value from the input."""

from __future__ import annotations

MAX_MESSAGE = 400   # characters; a message echoes the input, which may be hostile
_SHOWN_TEXT = 40    # characters of a text shown in a message


class ScoringError(ValueError):
    """Invalid input to the scoring engine; ``str(err)`` is one line meant for a person."""

    def __init__(self, message: str) -> None:
        # Keep the promise that the message is a single, short line, whatever was interpolated into it.
        line = " ".join(str(message).split())
        super().__init__(line if len(line) <= MAX_MESSAGE else line[:MAX_MESSAGE - 1] + "…")


def shown(value: object) -> str:
    """A short, printable description of a value from the input, for an error message.

    Never recurses into containers (a 5,000-deep list must not overflow the stack), never writes a huge
    number out (int-to-text has a digit limit), and escapes what a terminal cannot print (lone surrogates)."""
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        digits = value.bit_length() * 30103 // 100000 + 1   # about log10, without writing it out
        return repr(value) if digits <= 20 else f"a number of about {digits:,} digits"
    if isinstance(value, str):
        # repr escapes the unprintable (a lone surrogate comes out as \ud800)
        if len(value) <= _SHOWN_TEXT:
            return repr(value)
        return repr(value[:_SHOWN_TEXT]) + f"… ({len(value):,} characters)"
    if isinstance(value, dict):
        return f"an object of {_count(len(value), 'key')}" if value else "{}"
    if isinstance(value, (list, tuple)):
        return f"a list of {_count(len(value), 'item')}" if value else "[]"
    return f"a {type(value).__name__}"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")
