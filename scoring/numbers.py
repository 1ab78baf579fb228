"""Exact numbers: reading stakes and costs from JSON, writing results back."""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational
from typing import Union

from .errors import ScoringError

Exact = Union[int, Fraction]


def parse_exact(value: object, what: str) -> Exact:
    """An exact number from JSON: an int, a float (read through its decimal text), or "0.5"/"1/2" text."""
    if isinstance(value, bool):
        raise ScoringError(f"{what} must be a number, not {value!r}")
    try:
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            number = Fraction(repr(value))  # 0.1 means one tenth, not the binary float near it
        elif isinstance(value, str):
            number = Fraction(value.strip())
        elif isinstance(value, Rational):
            number = Fraction(value)
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, OverflowError):
        raise ScoringError(f"{what} must be a number like 2, 0.5 or \"1/3\", not {value!r}") from None
    return number.numerator if number.denominator == 1 else number


def parse_positive(value: object, what: str) -> Exact:
    """An exact number that must be greater than zero."""
    number = parse_exact(value, what)
    if number <= 0:
        raise ScoringError(f"{what} must be greater than 0, not {value!r}")
    return number


def to_json(value: Exact) -> Union[int, str]:
    """JSON form of an exact number: an int when whole, otherwise text like "4/3"."""
    if value.__class__ is int:
        return value
    if value.denominator == 1:
        return int(value)
    return f"{value.numerator}/{value.denominator}"
