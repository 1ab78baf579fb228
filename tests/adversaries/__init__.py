"""Hostile inputs kept as tests: seeded generators that the regression tests and the benchmarks share."""
