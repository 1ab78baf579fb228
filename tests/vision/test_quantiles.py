"""vision.quantiles: NumPy's linear percentile of sorted values, the same numbers as np.percentile."""
from __future__ import annotations

import numpy as np
import pytest

from vision.quantiles import median_colour, sorted_percentile


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 10, 11, 37, 400, 1601, 2304])
def test_the_same_numbers_and_type_as_numpys_percentile(size):
    rng = np.random.default_rng(size)
    for trial in range(80):
        values = rng.uniform(0, 255, size).astype(np.float32)
        if trial % 3 == 0:
            values = np.round(values / 7).astype(np.float32) * 7  # ties
        ascending = np.sort(values)
        for percent in (0, 1, 20, 50, 80, 99, 100):
            expected = np.percentile(values, percent)  # a Python number: the values' precision
            got = sorted_percentile(ascending, percent)
            assert got == expected and np.asarray(got).dtype == np.asarray(expected).dtype
        for percent, expected in zip((1, 99), np.percentile(values, [1, 99])):  # a list: float64
            got = sorted_percentile(ascending, percent, scalar_q=False)
            assert got == expected and np.asarray(got).dtype == expected.dtype


def test_a_number_between_two_values_differs_from_both():
    # guards the test above against a percentile that always lands on a value
    ascending = np.array([0.0, 10.0], np.float32)
    assert sorted_percentile(ascending, 20) == pytest.approx(2.0)
    assert sorted_percentile(ascending, 80) == pytest.approx(8.0)


@pytest.mark.parametrize("size", [3, 4, 5, 10, 11, 37, 400, 1601])
def test_the_median_colour_is_numpys(size):
    """The ink survey and the paper's cast use it without NumPy's per-call overhead; the colours must be the same."""
    rng = np.random.default_rng(size)
    for _ in range(60):
        pixels = rng.integers(0, 256, (size, 3), dtype=np.uint8)
        assert np.array_equal(median_colour(pixels), np.median(pixels, axis=0))
