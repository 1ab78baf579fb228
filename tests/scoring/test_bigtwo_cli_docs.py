"""python -m scoring with Big Two rounds, and docs/bigtwo-presets.md covering every preset and option."""

import json
import subprocess
import sys
from pathlib import Path

import scoring
from scoring.bigtwo.options import OPTIONS

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "bigtwo-presets.md"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin, capture_output=True,
                          text=True, cwd=REPO, timeout=60)


def test_settle_the_issue_round_from_stdin():
    round_ = {"game": "bigtwo", "rules": "bigtwo-hk",
              "players": {"Ann": "", "Bob": "2S KD 5C", "Cy": "3S 4S 5S 6S 7S 8S 9S TS"}}
    done = run("settle", "-", stdin=json.dumps(round_))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    # Cy holds a straight flush, but bigtwo-hk has no 怪物牌 rule: 8 cards, 雙炒
    assert result["net"] == {"Ann": 3 + 16, "Bob": -3, "Cy": -16}
    assert result["players"]["Cy"]["multipliers"][0]["term"] == "雙炒"


def test_settle_error_is_one_line_with_status_2():
    round_ = {"game": "bigtwo", "rules": "bigtwo-hk", "players": {"Ann": "", "Bob": "2S KD", "Cy": "KD"}}
    done = run("settle", "-", stdin=json.dumps(round_))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "error: KD is in both Bob's and Cy's cards"


def test_presets_lists_big_two_presets_with_their_game():
    done = run("presets")
    assert done.returncode == 0
    presets = json.loads(done.stdout)
    assert presets["bigtwo-plus"]["game"] == "bigtwo"
    assert presets["bigtwo-plus"]["options"]["winner_bonus"]["default"] == 1
    assert presets["hk"]["game"] == "chinese-poker"


def test_every_big_two_preset_option_and_choice_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for name, preset in scoring.list_presets("bigtwo").items():
        assert f"### `{name}`" in text, name
        for choice in preset["choices"]:
            assert choice.split(" (")[0].split(":")[0][:40] in text, (name, choice)
    rows = {line.split("`")[1]: line for line in text.splitlines() if line.startswith("| `")}
    for option, spec in OPTIONS.items():
        assert spec.help in rows[option], option     # the page says what python -m scoring presets says
