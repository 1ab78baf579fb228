"""The standings chart tells equal lines apart and labels each line's last point (issue 69 item 7)."""
from __future__ import annotations

from itertools import combinations

from webapp.chart import LABEL_GAP, standings_chart


def _series(*rows: dict[str, float]) -> list[dict]:
    return [{"round": i, "points": row} for i, row in enumerate(rows, start=1)]


def test_equal_scores_are_drawn_apart_and_labelled_apart():
    chart = standings_chart(["Ann", "Bob", "Cy", "Dee"],
                            _series({"Ann": 6, "Bob": 6, "Cy": -6, "Dee": -6}, {"Ann": 12, "Bob": 12, "Cy": -12, "Dee": -12}))
    lines = {line["name"]: line for line in chart["lines"]}
    assert lines["Ann"]["points"] != lines["Bob"]["points"]  # identical scores, two visible lines
    assert len({line["dash"] for line in chart["lines"]}) == 4  # and four patterns, for those who cannot tell colours
    assert [line["label"] for line in chart["lines"]] == ["Ann 12", "Bob 12", "Cy -12", "Dee -12"]
    for a, b in combinations(chart["lines"], 2):
        assert abs(a["label_y"] - b["label_y"]) >= LABEL_GAP
    assert all(9 <= line["label_y"] <= chart["height"] - 14 for line in chart["lines"])


def test_labels_stay_at_their_points_when_there_is_room():
    chart = standings_chart(["Ann", "Bob"], _series({"Ann": 40, "Bob": -40}))
    for line in chart["lines"]:
        assert line["label_y"] == line["end"][1] + 3
        assert line["end"][0] + 6 + 6 * len(line["label"]) <= chart["width"] + 10  # the label fits right of the point
