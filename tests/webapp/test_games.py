"""Games: the form, validation with scoring's messages, links, PINs, CSRF, language."""
from __future__ import annotations

import re

from sqlalchemy import func, select

from webapp.db import get_session
from webapp.models import Game

from webapp_testkit import create_game, csrf_token


def _count_games(app) -> int:
    with app.app_context():
        return get_session().scalar(select(func.count(Game.id)))


def test_form_offers_each_game_only_its_own_presets(client):
    """Chinese poker by default, Big Two after picking it: every scoring preset on its game's form, none on the other."""
    import scoring

    presets = scoring.list_presets()
    assert {info["game"] for info in presets.values()} == {"chinese-poker", "bigtwo"}
    pages = {"chinese-poker": client.get("/games/new").get_data(as_text=True),
             "bigtwo": client.get("/games/new?game=bigtwo").get_data(as_text=True)}
    for name, info in presets.items():
        for game, html in pages.items():
            assert (f'<option value="{name}"' in html) == (info["game"] == game), (name, game)
    assert 'name="game" value="bigtwo"' in pages["bigtwo"]
    assert 'id="banker-box"' in pages["chinese-poker"] and 'id="banker-box"' not in pages["bigtwo"]


def _form_as_a_browser_sends_it(html: str, preset: str) -> dict[str, str]:
    """The preset's option fields with the values the page shows (selected option, ticked boxes)."""
    import html as htmllib

    fields = {m[0]: htmllib.unescape(m[1])
              for m in re.findall(rf'<input name="(opt-{preset}-[^"]+)" value="([^"]*)"', html)}
    for name, body in re.findall(rf'<select name="(opt-{preset}-[^"]+)">(.*?)</select>', html, re.S):
        chosen = re.findall(r'<option value="([^"]*)" selected', body) or re.findall(r'<option value="([^"]*)"', body)
        fields[name] = htmllib.unescape(chosen[0])  # a browser sends the first option when none is selected
    fields.update({name: "1" for name in re.findall(rf'<input type="checkbox" name="(opt-{preset}-[^"]+)" '
                                                    rf'value="1"\s*checked', html)})
    return fields


def test_every_preset_is_created_from_the_form_as_shown(client, app):
    """Untouched option fields are valid for every preset of both games (list and table options are typed
    as JSON, never offered as a one-value select)."""
    import scoring

    for preset, info in scoring.list_presets().items():
        html = client.get(f"/games/new?game={info['game']}").get_data(as_text=True)
        form = {"csrf_token": csrf_token(client, "/games/new"), "game": info["game"], "preset": preset,
                "player1": "A", "player2": "B", "stake": "1", **_form_as_a_browser_sends_it(html, preset)}
        response = client.post("/games/new", data=form)
        assert response.status_code == 303, (preset, re.findall(r'class="error">(.*?)</li>', response.get_data(as_text=True)))
    assert _count_games(app) == len(scoring.list_presets())


def test_create_game_and_open_it_by_its_link(client, app):
    token = create_game(client, players=("Ann", "Bob", "Cy"))
    assert len(token) >= 22  # secrets.token_urlsafe(18): 144 random bits
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Ann" in page and "Cy" in page
    assert _count_games(app) == 1


def test_game_list_shows_only_this_browsers_games(app, client):
    token = create_game(client)
    other = app.test_client()
    assert token in client.get("/").get_data(as_text=True)
    assert token not in other.get("/").get_data(as_text=True)
    assert other.get("/g/not-a-real-token").status_code == 404


def test_too_few_players_is_shown_on_the_form(client, app):
    form = {"csrf_token": csrf_token(client, "/games/new"), "preset": "2-4", "player1": "Solo", "stake": "1"}
    response = client.post("/games/new", data=form)
    assert response.status_code == 400
    assert "2 to 4 players" in response.get_data(as_text=True)
    assert _count_games(app) == 0


def test_scoring_rejects_bad_option_and_message_is_on_the_form(client, app):
    """A value scoring refuses comes back with scoring's own words, and nothing is stored."""
    import scoring

    presets = scoring.list_presets()
    name = "2-4" if "2-4" in presets else sorted(presets)[0]
    form = {"csrf_token": csrf_token(client, "/games/new"), "preset": name, "player1": "A", "player2": "B",
            "stake": "1", f"opt-{name}-surrender_cost": "-3"}
    response = client.post("/games/new", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    errors = re.search(r'id="form-errors">(.*?)</ul>', html, re.S)
    assert errors and "surrender" in errors.group(1).lower()
    assert _count_games(app) == 0


def test_bad_stake_and_pair_stake_are_reported(client):
    form = {"csrf_token": csrf_token(client, "/games/new"), "preset": "2-4", "player1": "A", "player2": "B",
            "stake": "zero", "pair_stakes": "A-Zed=2"}
    html = client.post("/games/new", data=form).get_data(as_text=True)
    assert "is not a number" in html
    assert "must name two different players" in html


def test_banker_preset_keeps_banker_and_rotation(client, app):
    token = create_game(client, players=("Ann", "Bob", "Cy"), preset="hk", banker="2", rotate_banker="1")
    with app.app_context():
        game = get_session().scalars(select(Game).where(Game.token == token)).one()
        assert game.banker_seat == 1 and game.rotate_banker
    from webapp_testkit import new_round

    first = new_round(client, token, "a")
    second = new_round(client, token, "b")
    assert "Bob" in client.get(f"/g/{token}/r/{first}").get_data(as_text=True).split("</h1>")[1][:300]
    assert "Cy" in client.get(f"/g/{token}/r/{second}").get_data(as_text=True).split("</h1>")[1][:300]


def test_post_without_csrf_token_is_refused(client, app):
    client.get("/")
    response = client.post("/games/new", data={"preset": "2-4", "player1": "A", "player2": "B"})
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)
    assert _count_games(app) == 0


def test_pin_protects_pages_and_api(app, client):
    token = create_game(client, pin="4321")
    stranger = app.test_client()
    response = stranger.get(f"/g/{token}")
    assert response.status_code == 302 and "/unlock" in response.headers["Location"]
    wrong = stranger.post(f"/g/{token}/unlock", data={"csrf_token": csrf_token(stranger, f"/g/{token}/unlock"),
                                                      "pin": "0000"})
    assert wrong.status_code == 403
    assert stranger.get(f"/api/games/{token}").status_code == 401
    assert stranger.get(f"/api/games/{token}", headers={"X-Game-PIN": "4321"}).status_code == 200
    ok = stranger.post(f"/g/{token}/unlock", data={"csrf_token": csrf_token(stranger, f"/g/{token}/unlock"),
                                                   "pin": "4321"})
    assert ok.status_code == 303
    assert stranger.get(f"/g/{token}").status_code == 200


def test_names_are_escaped(client):
    token = create_game(client, players=("<img src=x onerror=alert(1)>", "Bob"))
    html = client.get(f"/g/{token}").get_data(as_text=True)
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_language_switch(client):
    token = create_game(client, preset="hk")
    for lang, label in (("zh-Hant", "新一局"), ("zh-Hans", "新一局"), ("en", "New round")):
        client.post("/lang", data={"csrf_token": csrf_token(client), "lang": lang, "next": f"/g/{token}"})
        assert label in client.get(f"/g/{token}").get_data(as_text=True)
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hans", "next": f"/g/{token}"})
    assert "香港玩法（坐庄）" in client.get(f"/g/{token}").get_data(as_text=True)
    client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "zh-Hant", "next": f"/g/{token}"})
    assert "香港玩法（坐莊）" in client.get(f"/g/{token}").get_data(as_text=True)


def test_language_switch_never_redirects_off_site(client):
    response = client.post("/lang", data={"csrf_token": csrf_token(client), "lang": "en", "next": "//evil.example/"})
    assert response.headers["Location"] == "/"


def test_pin_guessing_is_slowed_down(app, client):
    token = create_game(client, pin="246810")
    guesser = app.test_client()
    codes = [guesser.get(f"/api/games/{token}", headers={"X-Game-PIN": f"{i:04d}"}).status_code for i in range(5)]
    assert codes == [401] * 5
    # Even the right PIN is refused until the window passes: guessing gains nothing.
    assert guesser.get(f"/api/games/{token}", headers={"X-Game-PIN": "246810"}).status_code == 429
    form = {"csrf_token": csrf_token(guesser, f"/g/{token}/unlock"), "pin": "246810"}
    page = guesser.post(f"/g/{token}/unlock", data=form)
    assert page.status_code == 429 and "Too many wrong PINs" in page.get_data(as_text=True)
