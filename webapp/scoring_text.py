"""Sentences written in English by `scoring` (settlement explanations, foul reasons, Big Two penalties) and its
Chinese names, in the reader's language.

`scoring` stays free of any web or translation code: it writes stable English sentences, and each form it can
write is listed here as an English template (webapp.sentence_forms). Values that are themselves words (a row, a
hand, a foul reason, a natural) are translated too. A sentence of a form not listed stays in English
(tests/webapp/test_translations.py settles many rounds and checks that every sentence scoring wrote was matched).
Chinese names from `scoring` (hand categories, naturals, local terms, some written in Japanese by the seeds) are
message ids as well: the catalogs give the Chinese name."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from webapp.i18n import N_, current_language, translate, translate_or
from webapp.sentence_forms import Form, first_match, set_labels

# --- words inside sentences -------------------------------------------------------------------------------------

def row_word(word: str) -> str:
    """front / middle / back (and Big Two's "cards") as the page names them."""
    return translate("cards_left") if word == "cards" else translate_or(word, word)


def _rows_in(text: str) -> str:
    """'4 (front 3, back 1)' with the rows named in the reader's language."""
    return re.sub(r"\b(front|middle|back)\b", lambda m: row_word(m.group(1)), text)


_RANK_WORDS = dict(zip(("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
                        "King", "Ace"), ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")))
_RANK_WORDS.update({plural: short for plural, short in zip(
    ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks", "Queens", "Kings",
     "Aces"), _RANK_WORDS.values())})


def _rank(word: str) -> str:
    return _RANK_WORDS.get(word, word)


# scoring.hand_names.describe_en's forms (most specific first).
HAND_FORMS = [
    Form(N_("Straight flush, Five high (wheel)")),
    Form(N_("Straight, Five high (wheel)")),
    Form(N_("Straight flush, {r} high"), {"r": _rank}),
    Form(N_("Straight, {r} high"), {"r": _rank}),
    Form(N_("Flush, {r} high"), {"r": _rank}),
    Form(N_("Two pair, {r} and {s}"), {"r": _rank, "s": _rank}),
    Form(N_("Full house, {r} full of {s}"), {"r": _rank, "s": _rank}),
    Form(N_("Pair of {r}"), {"r": _rank}),
    Form(N_("Three {r}"), {"r": _rank}),
    Form(N_("Four {r}"), {"r": _rank}),
    Form(N_("{r} high"), {"r": _rank}),
]


def hand_description(text: str) -> str:
    """'Pair of Aces' -> '一對（A）' (English pages: as scoring wrote it)."""
    if current_language() == "en":
        return text
    return first_match(HAND_FORMS, text) or text


_HAND = {"h": hand_description, "g": hand_description}
# scoring.row_order.foul_text
FOUL_FORMS = [
    Form(N_("front {h} is not below middle {g}"), _HAND),
    Form(N_("front {h} is not below back {g}"), _HAND),
    Form(N_("middle {h} beats back {g}"), _HAND),
    Form(N_("middle {h} ties back {g}"), _HAND),
]


def foul_reason(text: str) -> str:
    """Why a hand is fouled, in the reader's language."""
    if current_language() == "en":
        return text
    return first_match(FOUL_FORMS, text) or text


def name_text(text: str) -> str:
    """A Chinese name from `scoring` ('一條龍', '順子（A大）', 'スクープ', '雙炒 老二') as the reader's catalog names
    it, word by word, the deciding ranks in brackets kept."""
    if not text:
        return text
    return " ".join(_one_name(word) for word in text.split(" "))


_COUNT_TERM = re.compile(r"(?P<fold>[雙三四])(?P<word>炒)|(?P<word2>.+?)(?P<n>\d+)倍")


def _one_name(word: str) -> str:
    head, bracket, rest = word.partition("（")
    translated = translate_or(head, "") if head else ""
    if not translated:
        found = _COUNT_TERM.fullmatch(head)
        if found and found["fold"]:
            translated = translate(N_("{fold}炒"), fold=translate_or(found["fold"], found["fold"]))
        elif found:
            translated = translate(N_("{term}{n}倍"), term=_one_name(found["word2"]), n=found["n"])
        else:
            translated = head
    return translated + bracket + rest   # the deciding ranks ("A大）", "A、K）") read alike in both scripts


@lru_cache(maxsize=1)
def _natural_names() -> dict[str, str]:
    from webapp.rules import natural_names

    return natural_names()


def natural_text(english: str) -> str:
    """A natural the web layer knows by its English name ('Six pairs and a half'): English pages add the
    Chinese name, Chinese pages show the Chinese name alone."""
    chinese = _natural_names().get(english, "")
    if current_language() == "en":
        return f"{english} {name_text(chinese)}".strip()
    return name_text(chinese) if chinese else english


def _natural_name(text: str) -> str:
    return name_text(text)


NATURAL_FORM = Form(N_("{player}'s {zh} ({en}, {points})"), {"zh": _natural_name})


def _natural(text: str) -> str:
    return NATURAL_FORM.render(text) or text


_N = {"natural": _natural, "other": _natural}
_WON = {"won": _rows_in, "won2": _rows_in}

# scoring.audit, scoring.table_points and scoring.bigtwo: the rules applied to a pair or a hand.
STEP_FORMS = [
    Form(N_("rows won: {a} {won}; {b} {won2}"), _WON),
    Form(N_("royalties paid whatever the row's result: {a} +{x}, {b} +{y}")),
    Form(N_("{a} won 2 or more rows: +{n}")),
    Form(N_("{a} scoop bonus +{n}")),
    Form(N_("{a} scoops {b} (no multiplier in these rules)")),
    Form(N_("{a} wins without losing a row against (counts as a scoop) {b} (no multiplier in these rules)")),
    Form(N_("{a} scoops {b}: row points ×{n}")),
    Form(N_("{a} scoops {b}: base row points (royalties not multiplied) ×{n}")),
    Form(N_("{a} wins without losing a row against (counts as a scoop) {b}: row points ×{n}")),
    Form(N_("{a} wins without losing a row against (counts as a scoop) {b}: base row points (royalties not "
            "multiplied) ×{n}")),
    Form(N_("both hands are fouled: nothing changes hands")),
    Form(N_("{a}'s hand is fouled ({reason}): {b} wins every row, collecting {n}"), {"reason": foul_reason}),
    Form(N_("{a}'s hand is fouled")),
    Form(N_("both have naturals: the banker pays {natural}"), _N),
    Form(N_("{natural} and {other} are equal: no payment"), _N),
    Form(N_("{natural} and {other} tie"), _N),
    Form(N_("{natural} beats {other}: {b} pays {n}"), _N),
    Form(N_("{natural} wins {n} from {b}"), _N),
    Form(N_("both surrendered: nothing changes hands")),
    Form(N_("{a} surrendered and {b}'s hand is fouled: nothing changes hands")),
    Form(N_("{a} surrendered: pays {b} {n}")),
    Form(N_("{a} won all three rows against everyone: a fourth point")),
    Form(N_("{a} won all three rows: a fourth point")),
    Form(N_("{a} has the most points this round (overall winner, shared by {k} players level on the most): +{n}")),
    Form(N_("{a} has the most points this round (overall winner): +{n}")),
    Form(N_("{a} scooped everyone: total ×{m} = {t}, split evenly among {k}")),
    Form(N_("{a} scooped everyone: ×{m}")),
    Form(N_("{a} beat everyone with a natural: ×{m}")),
    Form(N_("{term}: same category and top card, the banker wins"), {"term": name_text}),
    Form(N_("equal ranks, decided by suits")),
    # Big Two (scoring.bigtwo.settle)
    Form(N_("{a} did not block {b}: pays everyone's losses, {total} (own {own}); the others lose nothing")),
    Form(N_("places: {places}")),
    Form(N_("{a} won the hand: +{n}")),
    Form(N_("no cards left: 0")),
    # webapp.settlement_view's lines per player
    Form(N_("{a}: fouled — {reason}"), {"reason": foul_reason}),
    Form(N_("{a}: surrendered")),
    Form(N_("{a}: {penalty}"), {"penalty": lambda text: penalty_text(text) if _PENALTY.match(text)
                                 else sentence(text)}),
]
_PENALTY = re.compile(r"[2-9TJQKA][SHDC] -?\d")

# Why a Big Two loser pays more (scoring.bigtwo.penalty), inside "×2 (…)".
MULTIPLIER_FORMS = [
    Form(N_("{n} cards left, {m} or more")),
    Form(N_("{n} cards left is even")),
    Form(N_("holds a 2 ({cards})")),
    Form(N_("holds {cards}")),
    Form(N_("{a}'s {zh} ({en}) is paid ×{f}, in place of every other multiplier"), {"zh": name_text}),
]
MONSTERS = {"four-of-a-kind": N_("four-of-a-kind"), "straight-flush": N_("straight-flush")}
_MONSTER_FORM = re.compile(r"holds a ((?:four-of-a-kind|straight-flush)(?: and a (?:four-of-a-kind|straight-flush))*)")
_TIMES = re.compile(r"×(?P<f>\d+) \((?P<why>.+?)\)(?= ×| =)")


def _multiplier(why: str) -> str:
    monsters = _MONSTER_FORM.fullmatch(why)
    if monsters:
        names = [translate(MONSTERS[name]) for name in monsters.group(1).split(" and a ")]
        return translate(N_("holds {monsters}"), monsters=translate(N_("list_separator")).join(names))
    return first_match(MULTIPLIER_FORMS, why) or why


def penalty_text(text: str) -> str:
    """'2C 1 + KD 1 = 2; ×2 (8 cards left, 8 or more) = 4' with the reasons in the reader's language."""
    return _TIMES.sub(lambda m: f"×{m['f']}（{_multiplier(m['why'])}）", text)


def sentence(text: str) -> str:
    """One of scoring's sentences in the reader's language (English pages: unchanged)."""
    if current_language() == "en" or not text:
        return text
    rendered = first_match(STEP_FORMS, text)
    if rendered is not None:
        return rendered
    if _TIMES.search(text + " =") or re.match(r"[2-9TJQKA][SHDC] \d", text):
        return penalty_text(text)
    return text


def explain(note: dict[str, Any]) -> str:
    """A settlement note ({"en": sentence, "zh": local term or name}) as one line in the reader's language."""
    english, term = str(note.get("en") or ""), str(note.get("zh") or "")
    if note.get("kind") == "natural":
        if current_language() == "en":
            return f"{english} {name_text(term)}"
        return translate(N_("{player}: {natural} ({points} points)"), player=note.get("player", ""),
                         natural=name_text(term), points=note.get("points", ""))
    if current_language() == "en":
        return f"{english} ({name_text(term)})" if term and english else english or name_text(term)
    text = set_labels(sentence(english))
    return f"{name_text(term)}：{text}" if term and text else text or name_text(term)


def vs(sides: list[str]) -> str:
    return set_labels(translate(N_("vs_separator")).join(sides))


# --- presets ----------------------------------------------------------------------------------------------------

# A run of the seeds' Japanese (kana, or kanji written the Japanese way) inside scoring's English text.
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff0-9]*(?:[\u3040-\u30ff]|[竜対点条])[\u3040-\u30ff\u3400-\u9fff0-9]*")


def chinese_terms(english: str) -> str:
    """Scoring's English text with the seeds' Japanese terms ("(擺烏竜)", "(降りる)") given their Chinese names."""
    return _JAPANESE.sub(lambda found: translate_or(found.group(0), found.group(0)), english)


def preset_description(name: str, english: str) -> str:
    """A preset's description: scoring's own words on English pages (its Japanese terms in Chinese), the
    catalog's elsewhere."""
    if current_language() == "en":
        return chinese_terms(english)
    msgid = f"preset_{name}_description"  # a run-time id, listed for extraction
    return translate_or(msgid, english)
