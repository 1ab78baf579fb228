"""`python -m vision compare REPORT_DIR REPORT_DIR [...]`: evaluation reports side by side.

A candidate is judged photo by photo (models/README.md, "The rule a new model must pass"): its summary figures next
to the shipped models', and which photos each report reads wrong without any warning that the first does not (new)
or the first reads so and it does not (mended). Reads only the `report.md` that `python -m vision evaluate` writes."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SILENT_HEADING = re.compile(r"^Read wrong without any warning \(\d+\):$")
DATA_FOLDER = re.compile(r" \(/[^)]*\)$")  # a set's folder, which differs between machines and set versions


class ReportError(ValueError):
    """A folder without a readable evaluation report."""


@dataclass
class Report:
    """The parts of one report.md that candidates are compared by."""
    summary: dict[tuple[str, str], str] = field(default_factory=dict)  # (set, measure) -> value as written
    silent: dict[str, dict[str, str]] = field(default_factory=dict)  # set -> photo -> its line


def set_name(heading: str) -> str:
    """A set's name without the data folder it was read from: 'synthetic val photos of every kind'."""
    return DATA_FOLDER.sub("", heading.strip())


def photo_of(failure: str) -> str:
    """The photo (and its kind or view) a failure line names: '0056.jpg (hand): cards [...]' -> '0056.jpg (hand)'.
    The view stays: a made-views set lists one photo once for each view read wrong ('IMG_2566.JPG (glare spot)')."""
    return failure.split(": ", 1)[0].strip()


def parse_report(text: str) -> Report:
    """The summary table and each set's list of photos read wrong without any warning."""
    if "## Summary" not in text:
        raise ReportError("not an evaluation report (no '## Summary' table)")
    report = Report()
    summary, _, details = text.partition("## Summary")[2].partition("\n## Details")
    for line in summary.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] not in ("set", "---"):
            report.summary[(set_name(cells[0]), cells[1])] = cells[2]
    current, listing = None, False
    for line in details.splitlines():
        if line.startswith("### "):
            current, listing = set_name(line[4:]), False
        elif current is not None and SILENT_HEADING.match(line):
            listing = True
            report.silent.setdefault(current, {})
        elif listing and line.startswith("- "):
            report.silent[current][photo_of(line[2:])] = line[2:]
        elif listing and line.strip():
            listing = False
    return report


def load_report(folder: Path) -> Report:
    path = Path(folder) / "report.md"
    try:
        return parse_report(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ReportError(f"{path}: cannot read ({err.strerror or err})") from err
    except ReportError as err:
        raise ReportError(f"{path}: {err}") from err


def compare_lines(reports: list[Report], names: list[str], only_differences: bool = False) -> list[str]:
    """Markdown: the summary figures side by side (with `only_differences`, only the rows whose figures differ), then
    per set the photos each later report reads wrong without any warning that the first does not, and those it no
    longer does."""
    lines = ["| set | measure | " + " | ".join(names) + " |", "| --- | --- |" + " --- |" * len(names)]
    keys = list(dict.fromkeys(key for report in reports for key in report.summary))
    for key in keys:
        values = [report.summary.get(key, "–") for report in reports]
        if not only_differences or len(set(values)) > 1:
            lines.append(f"| {key[0]} | {key[1]} | " + " | ".join(values) + " |")
    first = reports[0]
    for report, name in zip(reports[1:], names[1:]):
        lines += ["", f"Read wrong without any warning, {name} against {names[0]}:"]
        sets = list(dict.fromkeys([*first.silent, *report.silent]))
        changed = False
        for set_ in sets:
            before, after = first.silent.get(set_, {}), report.silent.get(set_, {})
            new = [after[photo] for photo in after if photo not in before]
            mended = [photo for photo in before if photo not in after]
            if new or mended:
                changed = True
                lines.append(f"- {set_}: {len(before)} -> {len(after)}")
                lines += [f"  - new: {line}" for line in new]
                lines += [f"  - mended: {photo}" for photo in mended]
        if not changed:
            lines.append("- the same photos in every set")
    return lines
