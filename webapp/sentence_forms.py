"""English sentence forms as gettext message ids: a template ("{a}'s hand is fouled ({reason}): {b} wins every
row, collecting {n}") is the message id, and a pattern made from it reads the values back out of a sentence written
in English, so that the sentence can be said in the reader's language (webapp.scoring_text, webapp.change_text,
webapp.error_text)."""
from __future__ import annotations

import re
from typing import Callable

from webapp.i18n import N_, current_language, translate

Converter = Callable[[str], str]


class Form:
    """One English sentence form: its message id and the pattern that reads its values."""

    def __init__(self, msgid: str, converters: dict[str, Converter] | None = None) -> None:
        self.msgid = msgid
        self.converters = converters or {}
        parts = re.split(r"\{(\w+)\}", msgid)
        pattern = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts))
        self.pattern = re.compile(pattern, re.DOTALL)

    def render(self, text: str) -> str | None:
        found = self.pattern.fullmatch(text)
        if found is None:
            return None
        values = {name: self.converters.get(name, as_is)(value) for name, value in found.groupdict().items()}
        return set_labels(translate(self.msgid, **values))


_SET_LABEL = re.compile(r" \(set (?P<n>\d+)\)")


def set_labels(text: str) -> str:
    """Criss cross names a player's set "Ann (set 2)" (scoring.criss_cross.seat_name): "Ann（第 2 副）"."""
    if current_language() == "en" or "(set " not in text:
        return text
    return _SET_LABEL.sub(lambda found: translate(N_("set_label"), n=found["n"]), text)


def as_is(value: str) -> str:
    return value


def first_match(forms: list[Form], text: str) -> str | None:
    for form in forms:
        rendered = form.render(text)
        if rendered is not None:
            return rendered
    return None
