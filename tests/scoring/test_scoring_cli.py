"""python -m scoring: settle and presets, errors on one line of stderr with exit status 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ROUND = {"rules": "2-4", "players": {"Ivey": "6S 6H 4C / TS TH 9C QD 8D / 3S 3H 3D 2S 2H",
                                    "Hellmuth": "AS KS QC / 9S 9D 5C 5D 4D / KH JH 9H 8H 7H"}}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin, capture_output=True,
                          text=True, cwd=REPO, timeout=60)


def test_settle_from_stdin():
    done = run("settle", "-", stdin=json.dumps(ROUND))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["net"] == {"Ivey": 2, "Hellmuth": -2}


def test_settle_from_a_file_with_unicode_suits(tmp_path):
    round_ = {"rules": "1-6", "players": {"A": "6♠ 6♥ 4♣ / 10♠ 10♥ 9♣ Q♦ 8♦ / 3♠ 3♥ 3♦ 2♠ 2♥",
                                          "B": "A♠ K♠ Q♣ / 9♠ 9♦ 5♣ 5♦ 4♦ / K♥ J♥ 9♥ 8♥ 7♥"}}
    path = tmp_path / "round.json"
    path.write_text(json.dumps(round_, ensure_ascii=False), encoding="utf-8")
    done = run("settle", str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["net"] == {"A": 1, "B": -1}
    assert result["players"]["A"]["rows"][2]["hand_zh"] == "葫蘆（3、2）"


@pytest.mark.parametrize("args, stdin, fragment", [
    (("settle", "-"), "{not json", "not valid JSON"),
    (("settle", "-"), json.dumps({"rules": "nope", "players": {}}), "unknown rules"),
    (("settle", "/no/such/file.json"), "", "cannot read"),
    (("settle", "a", "b"), "", "one FILE"),
    (("deal",), "", "unknown command"),
    ((), "", "usage"),
])
def test_errors_are_one_line_with_status_2(args, stdin, fragment):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0]


def test_presets_lists_every_preset_with_options():
    done = run("presets")
    assert done.returncode == 0
    presets = json.loads(done.stdout)
    assert {"hk", "taiwan-banker", "points", "taiwan", "fujian", "2-4", "1-6", "low-middle", "criss-cross",
            "eleven-point"} == {
        name for name, preset in presets.items() if preset["game"] == "chinese-poker"}
    assert presets["taiwan"]["options"]["scoop_multiplier"]["default"] == 2
