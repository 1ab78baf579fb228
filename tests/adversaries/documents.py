"""Fuzzed round documents: valid rounds of every preset family, then mutated into hostile ones.

``fuzzed_round_documents(seed, count)`` yields ``count`` documents, the same ones for the same seed.  Each
is either a JSON-able object (send ``json.dumps(document)``) or a ``RawText``: text to send verbatim because
no object serialises to it (nesting past the JSON parser's recursion limit, a 5,000-digit number, NaN,
a key given twice, broken JSON).  ``as_text(document)`` gives the text to send for either.

Mutations: wrong types anywhere, huge and odd numbers ("1e3000000", "1e-5000", "1/0", 10**4000, "١٢"),
deep nesting, lone surrogates, huge texts, lists and objects, unknown and missing keys, repeated cards,
repeated and odd player names, too many players.  About one document in ten stays valid, so the
regression tests also see settlements (and check that they are zero-sum).

Import it with the repository root on sys.path as well as tests/ (without it, tests/scoring, a folder
of tests, would stand in for the scoring package this module asks for the presets).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any, Iterator

import scoring
from scoring.cards import CODES


class RawText(str):
    """A document written as text, sent exactly as it is."""


def as_text(document: Any) -> str:
    """The text to send for a document: a RawText as it is, anything else as JSON (lone surrogates escaped)."""
    return str(document) if isinstance(document, RawText) else json.dumps(document)


def _presets() -> tuple[list[str], set[str], list[str]]:
    """(Chinese-poker preset ids, those that play against a banker, Big Two preset ids)."""
    chinese, banker, bigtwo = [], set(), []
    for preset_id, info in scoring.list_presets().items():
        if info["game"] == "bigtwo":
            bigtwo.append(preset_id)
        else:
            chinese.append(preset_id)
            if info["options"]["mode"]["default"] == "banker":
                banker.add(preset_id)
    return chinese, banker, bigtwo


CHINESE_PRESETS, BANKER_PRESETS, BIGTWO_PRESETS = _presets()
NAMES = ("Ann", "Bob", "Cy", "Dee", "阿明", "小美", "Zoë", "O'Neil", "Mary-Jane", "Λ")
VALID_STAKES = (1, 2, 5, "0.5", "1/3", 0.25, "2.5e3", "999999999999", "0.000001")
VALID_OPTIONS = ({}, {"scoop_multiplier": 3}, {"home_run_multiplier": 2}, {"majority_bonus": 1},
                 {"surrender": True, "surrender_cost": "1.5"}, {"suit_order": "SHDC"}, {"royalties": False})
VALID_BIGTWO_OPTIONS = ({}, {"two_multiplier": 2}, {"count_multipliers": {"8": 2, "13": 3}},
                        {"even_count_multiplier": 2}, {"max_cards": 13})

HUGE_NUMBER_TEXTS = ("1e3000000", "1e10000000", "1e99999999", "1e5000", "1e-5000", "-1e400", "1E+999999",
                     "9" * 400, "0." + "0" * 300 + "1", "1/" + "9" * 60, "1/0", "0/0")
ODD_NUMBER_TEXTS = ("NaN", "inf", "-inf", "0x10", "١٢", "1_000", "", " ", "-1", "0", "+0.5", ".5", "5.",
                    "1e", "e5", "2/3/4", "½", "1,5", " 7 ", "0.0000001", "1e12", "-0")
ODD_TEXTS = ("\ud800", "A\udfffB", "\udbff\udc00x", "\x00", "x" * 20_000, "🂡 🂱", "AS AS AS", "10♠\ufe0f",
             "\u202eSA", "AS KS QS / 2C", "/ / /", "|||", "null")


def _nested(depth: int, leaf: Any = None) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _hostile_value(rng: random.Random) -> Any:
    """One value meant to break whatever reads it (a fresh copy: later mutations change it in place)."""
    return copy.deepcopy(_hostile_choice(rng))


def _hostile_choice(rng: random.Random) -> Any:
    kind = rng.randrange(12)
    if kind == 0:
        return rng.choice(HUGE_NUMBER_TEXTS)
    if kind == 1:
        return rng.choice(ODD_NUMBER_TEXTS)
    if kind == 2:
        return rng.choice(ODD_TEXTS)
    if kind == 3:
        return rng.choice((None, True, False, 0, -1, 1.5, -0.0, 1e308, 5e-324, 2 ** 63, -(2 ** 64)))
    if kind == 4:
        return rng.choice((10 ** 30, 10 ** 4000, -(10 ** 4000), 10 ** 12, 10 ** 6 + 1))
    if kind == 5:
        return _nested(rng.choice((9, 50, 200)), rng.choice((None, 1, "AS", {})))
    if kind == 6:
        return list(range(rng.choice((20, 2_500))))
    if kind == 7:
        return {f"k{i}": i for i in range(rng.choice((20, 2_500)))}
    if kind == 8:
        return rng.choice(([], {}, [[]], [{}], {"": None}, {"\ud800": 1}))
    if kind == 9:
        return rng.sample(CODES, rng.randrange(0, 20))
    if kind == 10:
        return " ".join(rng.choice(CODES) for _ in range(rng.randrange(0, 60)))
    return rng.choice((1.0, 2.5, "1/3", 0.1, -3, "1.5"))


def _arranged(cards: list[str]) -> str:
    """13 cards as 'front / middle / back', strongest groups at the back (legal far more often than not)."""
    rank = {code: "23456789TJQKA".index(code[0]) for code in cards}
    count = Counter(rank.values())
    ordered = sorted(cards, key=lambda c: (count[rank[c]], rank[c]), reverse=True)
    return f"{' '.join(ordered[10:])} / {' '.join(ordered[5:10])} / {' '.join(ordered[:5])}"


def _names(rng: random.Random, count: int) -> list[str]:
    return rng.sample(NAMES, count)


def _stakes(rng: random.Random, names: list[str]) -> dict:
    stakes: dict[str, Any] = {"per_point": rng.choice(VALID_STAKES)}
    if rng.random() < 0.3:
        stakes["pairs"] = [{"players": names[:2], "per_point": rng.choice(VALID_STAKES)}]
    return stakes


def valid_chinese_poker_round(rng: random.Random, preset: str) -> dict:
    names = _names(rng, rng.randint(2, 4))
    deck = list(CODES)
    rng.shuffle(deck)
    players: dict[str, Any] = {name: _arranged(deck[i * 13:(i + 1) * 13]) for i, name in enumerate(names)}
    options = copy.deepcopy(rng.choice(VALID_OPTIONS))
    if "surrender" in options and rng.random() < 0.5:
        players[names[-1]] = {"surrender": True}
    round_: dict[str, Any] = {"rules": preset, "players": players}
    if options:
        round_["options"] = options
    if preset in BANKER_PRESETS:
        round_["banker"] = names[0]
    if rng.random() < 0.7:
        round_["stakes"] = _stakes(rng, names)
    return round_


def valid_bigtwo_round(rng: random.Random, preset: str) -> dict:
    names = _names(rng, rng.randint(2, 4))
    round_: dict[str, Any] = {"game": "bigtwo", "rules": preset}
    if preset == "bigtwo-rank":
        order = names[:]
        rng.shuffle(order)
        round_.update(players=names, order=order)
    else:
        deck = list(CODES)
        rng.shuffle(deck)
        hands: dict[str, Any] = {}
        for i, name in enumerate(names):
            hands[name] = "" if i == 0 else " ".join(deck[i * 13:i * 13 + rng.randint(1, 13)])
        round_["players"] = hands
        options = rng.choice(VALID_BIGTWO_OPTIONS)
        if options:
            round_["options"] = copy.deepcopy(options)
    if rng.random() < 0.7:
        round_["stakes"] = {"per_point": rng.choice(VALID_STAKES)}
    return round_


def valid_round(rng: random.Random, preset: str) -> dict:
    if preset in BIGTWO_PRESETS:
        return valid_bigtwo_round(rng, preset)
    return valid_chinese_poker_round(rng, preset)


def _slots(document: Any) -> list[tuple[Any, Any]]:
    """(container, key or index) for every value inside the document, not looking into a container of more
    than 50 items (an earlier mutation's hostile list: walking it again would only slow the generator)."""
    slots, pending = [], [document]
    while pending:
        container = pending.pop()
        keys = list(container) if isinstance(container, dict) else range(len(container))
        for key in keys:
            slots.append((container, key))
            if isinstance(container[key], (dict, list)) and len(container[key]) <= 50:
                pending.append(container[key])
    return slots


def _card_in(document: Any) -> str | None:
    if not isinstance(document, (dict, list)):
        return None
    for container, key in _slots(document):
        value = container[key]
        if isinstance(value, str) and value[:2] in CODES:
            return value[:2]
    return None


def _mutate(rng: random.Random, document: dict) -> Any:
    """One mutation of ``document`` (in place where it can be); returns the document."""
    slots = _slots(document)
    container, key = rng.choice(slots) if slots else (None, None)
    kind = rng.randrange(10)
    if kind <= 3 and container is not None:
        container[key] = _hostile_value(rng)
    elif kind == 4 and container is not None:
        del container[key]
    elif kind == 5:
        target = container[key] if container is not None and isinstance(container[key], dict) else document
        target[rng.choice(("extra", "Rules", "player", "\ud800", "x" * 600, "per_point"))] = _hostile_value(rng)
    elif kind == 6 and container is not None:
        container[key] = rng.choice(([container[key]], {"value": container[key]}, str(container[key])[:200]))
    elif kind == 7:   # a card held twice: copy one player's card into another's hand
        card = _card_in(document.get("players"))
        players = document.get("players")
        if card and isinstance(players, dict) and players:
            name = rng.choice(list(players))
            held = players[name]
            players[name] = f"{card} {held}" if isinstance(held, str) else [card, held]
    elif kind == 8:   # names: too many players, odd names, a player twice in a list
        players = document.get("players")
        if isinstance(players, dict):
            odd = rng.choice(("", " ", "\ud800", "x" * 5_000, "A/B", "\x00", "Ann ", "ann"))
            players[odd] = next(iter(players.values()), "")
            if rng.random() < 0.3:
                players.update({f"P{i}": "" for i in range(rng.choice((5, 2_500)))})
        elif isinstance(players, list):
            players.append(players[0] if players else "Ann")
    else:
        document[rng.choice(("rules", "players", "options", "stakes", "banker", "game", "order",
                             "failed_to_block", "winner"))] = _hostile_value(rng)
    return document


def _raw_text(rng: random.Random, document: dict) -> RawText:
    """Text no object serialises to, built around a valid round's JSON."""
    text = json.dumps(document)
    kind = rng.randrange(8)
    if kind == 0:   # past the JSON parser's recursion limit
        depth = rng.choice((1_000, 5_000, 100_000))
        return RawText(text[:-1] + ', "options": ' + "[" * depth + "]" * depth + "}")
    if kind == 1:   # past the int-to-text digit limit
        return RawText(text.replace('"rules"', f'"stakes": {{"per_point": {"9" * rng.choice((4_301, 50_000))}}}, '
                                               f'"rules"', 1))
    if kind == 2:
        constant = rng.choice(("NaN", "Infinity", "-Infinity"))
        return RawText(text.replace('"rules"', f'"stakes": {{"per_point": {constant}}}, "rules"', 1))
    if kind == 3:   # a key given twice: a second player of the same name
        players = document.get("players")
        if isinstance(players, dict) and players:
            name = json.dumps(next(iter(players)))
            return RawText(text.replace('"players": {', f'"players": {{{name}: "", ', 1))
        return RawText(text.replace('"rules"', '"rules": "2-4", "rules"', 1))
    if kind == 4:   # broken JSON: cut anywhere
        return RawText(text[:rng.randrange(len(text))])
    if kind == 5:
        return RawText(rng.choice(("", " ", "null", "[]", "{}", "0", '"round"', "\ufeff{}", "{'rules': '2-4'}",
                                   '{"rules": "2-4",}', "[" * 50 + "]" * 49)))
    if kind == 6:   # a lone surrogate written as an escape, in a key or a value
        return RawText(text.replace('"rules"', '"\\ud800": 1, "rules"', 1) if rng.random() < 0.5
                       else text.replace('{"', '{"\\udfff', 1))
    return RawText(text.replace('"', "'", 1) + rng.choice(("", "}", "\x00", " trailing")))


def fuzzed_round_documents(seed: int, count: int) -> Iterator[Any]:
    """``count`` fuzzed round documents (JSON-able objects or RawText), the same for the same seed; every
    preset family's valid rounds, mutated."""
    rng = random.Random(seed)
    families = CHINESE_PRESETS + BIGTWO_PRESETS
    for number in range(count):
        document: Any = valid_round(rng, families[number % len(families)])
        roll = rng.random()
        if roll < 0.1:
            yield document
        elif roll < 0.25:
            yield _raw_text(rng, document)
        elif roll < 0.28:
            yield _hostile_value(rng)          # not a round at all
        else:
            for _ in range(rng.choice((1, 1, 2, 3))):
                document = _mutate(rng, document)
            yield document

