"""Hardening: spreadsheet-safe CSV export (OWASP CSV injection) and /lang redirecting only to the app's own paths."""
from __future__ import annotations

import csv
import io
from urllib.parse import urlsplit

import pytest
from webapp_testkit import ANN, BOB, CY, DEE, csrf_token

from webapp.export import spreadsheet_safe

FORMULA_NAMES = ["=1+1", "@SUM(1+1)", "+1+2", "-3+4", "=cmd|' calc'!A0"]


def _rows_of_export(client, players: list[str], hands: dict[str, str]) -> list[list[str]]:
    created = client.post("/api/games", json={"players": players, "rules": "2-4"})
    assert created.status_code == 201, created.get_json()
    token = created.get_json()["token"]
    made = client.post(f"/api/games/{token}/rounds", json={"hands": hands, "settle": True})
    assert made.status_code == 201, made.get_json()
    text = client.get(f"/g/{token}/export.csv").get_data(as_text=True)
    return list(csv.reader(io.StringIO(text)))


def _evaluated_by_a_spreadsheet(cell: str) -> bool:
    """What OWASP says a spreadsheet may run as a formula: a cell starting with = + - @, tab or CR/LF."""
    return cell[:1] in ("=", "+", "-", "@", "\t", "\r", "\n")


@pytest.mark.parametrize("names", [FORMULA_NAMES[:4], [FORMULA_NAMES[4], "Ann"]])
def test_player_names_that_look_like_formulas_are_exported_as_text(client, names):
    hands = dict(zip(names, (ANN, BOB, CY, DEE)))
    rows = _rows_of_export(client, names, hands)
    header, lines = rows[0], rows[1:]
    player_column = header.index("player")
    assert sorted(line[player_column] for line in lines) == sorted("'" + name if name != "Ann" else name
                                                                      for name in names)
    for line in lines:
        for cell in line:
            number_like = cell.lstrip("-").replace(".", "", 1).isdigit()
            assert not _evaluated_by_a_spreadsheet(cell) or number_like, cell


def test_negative_amounts_stay_numbers(client):
    rows = _rows_of_export(client, ["Ann", "Bob"], {"Ann": ANN, "Bob": BOB})
    header, lines = rows[0], rows[1:]
    points = [line[header.index("points")] for line in lines]
    assert any(p.startswith("-") for p in points), points  # someone lost: a plain negative number, no quote
    assert all(float(p) == float(p) for p in points)


@pytest.mark.parametrize("value, expected", [
    ("=1+1", "'=1+1"), ("@SUM(1+1)", "'@SUM(1+1)"), ("+1+2", "'+1+2"), ("-3+4", "'-3+4"), ("\t=1", "'\t=1"),
    ("-2", "-2"), ("-1.5", "-1.5"), ("-1/3", "'-1/3"), ("Ann", "Ann"), (3, 3), ("", ""),
])
def test_spreadsheet_safe(value, expected):
    assert spreadsheet_safe(value) == expected


LEAVING = [
    "/\t/example.com", "/\n/example.com", "/\r\n/example.com", "//example.com", "///example.com",
    "/\\example.com", "\\\\example.com", "\\/example.com", " //example.com", "\x00//example.com",
    "https://example.com", "http:example.com", "HTTPS://example.com/", "javascript:alert(1)",
    "data:text/html,hi", "example.com", "", "/\x0b/example.com", "/ /example.com", "\u3000//example.com",
    "//example.com/%2F..", "/\t\t/example.com",
]
STAYING = ["/", "/g/abc", "/g/abc?x=1", "/games/new#top", "/%2F/example.com", "/g/abc/r/1?lang=zh"]


def _browser_target(location: str) -> str:
    """The URL a browser would follow (WHATWG: strip C0 controls and spaces at the ends, drop tab/newline
    anywhere, read backslash as slash)."""
    cleaned = location.strip("".join(map(chr, range(0x21))))
    return "".join(ch for ch in cleaned if ch not in "\t\n\r").replace("\\", "/")


@pytest.mark.parametrize("target", LEAVING)
def test_language_switch_never_leaves_the_site(client, target):
    response = client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant", "next": target})
    assert response.status_code in (302, 303)
    location = response.headers["Location"]
    followed = urlsplit(_browser_target(location))
    assert not followed.scheme and not followed.netloc and followed.path.startswith("/"), location
    assert location == "/"


@pytest.mark.parametrize("target", STAYING)
def test_language_switch_returns_to_own_paths(client, target):
    response = client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "en", "next": target})
    assert response.headers["Location"] == target
