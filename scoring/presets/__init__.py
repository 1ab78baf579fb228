"""Preset data files (one JSON file per rule set); loaded by scoring.rules."""
