"""Big Two preset data files (one JSON file per rule set); loaded by scoring.bigtwo.rules."""
