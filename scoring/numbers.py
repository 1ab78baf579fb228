"""Exact numbers: reading stakes, costs and whole-number options from JSON, writing results back.

Every amount the engine multiplies by is read here, with its size and precision bounded *before* any
arithmetic, so that no input can make the engine build a huge number (``1e3000000`` once took minutes):

* an amount (a stake, a per-point value, a surrender cost) is an int, a float, a decimal text such as
  "0.25" or "2.5e3", or a fraction text such as "1/3", whose value, in lowest terms, is below
  10**12 in magnitude (at most 12 digits before the point) with a denominator of at most 10**6 (6 decimal
  places, or a fraction's equivalent); texts are at most 40 characters and an exponent has at most
  3 digits; anything else is a ScoringError with one line naming the value and the range;
* a whole-number option (a multiplier, a bonus, points per card) is an int from its own minimum to
  MAX_WHOLE (10**6).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from numbers import Rational
from typing import Union

from .errors import ScoringError, shown

Exact = Union[int, Fraction]

MAX_INTEGER_DIGITS = 12
MAX_DECIMALS = 6
MAX_MAGNITUDE = 10 ** MAX_INTEGER_DIGITS          # amounts are below this, in absolute value
MAX_DENOMINATOR = 10 ** MAX_DECIMALS               # ... with at most this denominator in lowest terms
MAX_TEXT = 40                                      # characters of a number written as text
MAX_EXPONENT_DIGITS = 3                            # "2.5e3" yes; "1e3000000" refused unread
MAX_WHOLE = 10 ** 6                                # the largest whole-number option
RANGE = (f"below {MAX_MAGNITUDE:,} with at most {MAX_DECIMALS} decimals "
         f"(a fraction's denominator at most {MAX_DENOMINATOR:,})")

# ASCII digits only: Python's int() would also read Arabic-Indic digits and "1_000".
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_FRACTION = re.compile(r"([+-]?[0-9]+)\s*/\s*([+-]?[0-9]+)")


def _out_of_range(what: str, value: object) -> ScoringError:
    return ScoringError(f"{what} must be a number {RANGE}, not {shown(value)}")


def _not_a_number(what: str, value: object) -> ScoringError:
    return ScoringError(f"{what} {shown(value)} is not a number: write it like 2, 0.5 or \"1/3\"")


def _from_text(text: str, what: str, original: object) -> Fraction:
    """The exact value of decimal or fraction text, refusing long texts and long exponents unread."""
    if len(text) > MAX_TEXT:
        raise _out_of_range(what, original)
    text = text.strip()
    fraction = _FRACTION.fullmatch(text)
    if fraction:
        numerator, denominator = fraction.groups()  # each at most MAX_TEXT digits: cheap to read
        if int(denominator) == 0:
            raise ScoringError(f"{what} divides by zero: {shown(original)}")
        return Fraction(int(numerator), int(denominator))
    decimal = _DECIMAL.fullmatch(text)
    if not decimal or not (decimal.group(2) or decimal.group(3)):
        raise _not_a_number(what, original)
    sign, whole, decimals, exponent = decimal.groups()
    if exponent is not None and len(exponent.lstrip("+-")) > MAX_EXPONENT_DIGITS:
        raise _out_of_range(what, original)
    decimals = decimals or ""
    shift = int(exponent or 0) - len(decimals)      # at most 999 + 40: a small power of ten
    digits = int(whole + decimals or "0")
    value = Fraction(digits * 10 ** shift) if shift >= 0 else Fraction(digits, 10 ** -shift)
    return -value if sign == "-" else value


def parse_exact(value: object, what: str) -> Exact:
    """An exact number in the documented range (module doc) from JSON: an int, a float (read through its
    decimal text), or "0.5" / "2.5e3" / "1/3" text; ScoringError naming ``what`` otherwise."""
    if isinstance(value, bool):
        raise _not_a_number(what, value)
    if isinstance(value, int):
        if -MAX_MAGNITUDE < value < MAX_MAGNITUDE:
            return int(value)
        raise _out_of_range(what, value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _not_a_number(what, value)
        number = _from_text(repr(value), what, value)  # 0.1 means one tenth, not the binary float near it
    elif isinstance(value, str):
        number = _from_text(value, what, value)
    elif isinstance(value, Rational):
        number = Fraction(value)
    else:
        raise _not_a_number(what, value)
    if not -MAX_MAGNITUDE < number < MAX_MAGNITUDE or number.denominator > MAX_DENOMINATOR:
        raise _out_of_range(what, value)
    return number.numerator if number.denominator == 1 else number


def parse_positive(value: object, what: str) -> Exact:
    """An exact number in range that must be greater than zero."""
    number = parse_exact(value, what)
    if number <= 0:
        raise ScoringError(f"{what} must be greater than 0, not {shown(value)}")
    return number


def parse_whole(value: object, what: str, minimum: int, maximum: int = MAX_WHOLE) -> int:
    """A whole number (a JSON int, not a bool or a float) from ``minimum`` to ``maximum``."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        limit = f"of at least {minimum} (at most {maximum:,})" if maximum == MAX_WHOLE else \
            f"from {minimum} to {maximum:,}"
        raise ScoringError(f"{what} must be a whole number {limit}; got {shown(value)}")
    return int(value)


def to_json(value: Exact) -> Union[int, str]:
    """JSON form of an exact number: an int when whole, otherwise text like "4/3"."""
    if value.__class__ is int:
        return value
    if value.denominator == 1:
        return int(value)
    return f"{value.numerator}/{value.denominator}"
