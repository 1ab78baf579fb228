"""The round's change lines (webapp.rounds.changes.describe writes them in English: "Bob moved 7♠ from Ann's
middle to back") and the history's labels of each kind of change, in the reader's language."""
from __future__ import annotations

import re

from webapp.i18n import N_, current_language, translate
from webapp.scoring_text import row_word
from webapp.sentence_forms import Form, as_is, set_labels

EVENT_KINDS = {
    "create": N_("event_create"), "read": N_("event_read"), "manual": N_("event_manual"),
    "correct": N_("event_correct"), "remove": N_("event_remove"), "move": N_("event_move"),
    "swap_cards": N_("event_swap_cards"), "swap": N_("event_swap"), "fix": N_("event_fix"),
    "surrender": N_("event_surrender"), "unsurrender": N_("event_unsurrender"), "natural": N_("event_natural"),
    "out": N_("event_out"), "not_out": N_("event_not_out"), "instant_win": N_("event_instant_win"),
    "no_instant_win": N_("event_no_instant_win"), "details": N_("event_details"), "settle": N_("event_settle"),
    "reopen": N_("event_reopen"), "undo": N_("event_undo"), "table": N_("event_table"),
    "table_read": N_("event_table_read"), "read_failed": N_("event_read_failed"),
}


def event_kind(kind: str) -> str:
    """A round event's kind (the history's short label) in the reader's language."""
    msgid = EVENT_KINDS.get(kind)
    return translate(msgid) if msgid else kind


def _whose(text: str) -> str:
    """'their' (the actor's own hand) or "Ann's" (criss cross: "Ann's set 2"), as the Chinese sentence says it."""
    found = _WHOSE_VALUE.fullmatch(text)
    base, number = (found["base"], found["n"]) if found else (text, None)
    said = translate("whose_own") if base == "their" else translate(N_("whose_player"), name=base[:-2])
    return said + translate(N_("whose_set"), n=number) if number else said


def _actor(name: str) -> str:
    return translate("someone") if name == "Someone" else name


def _error_line(text: str) -> str:
    from webapp.error_text import error_text

    return error_text(text)


_CHANGE = {"a": _actor, "whose": _whose, "row": row_word, "to": row_word, "error": _error_line}
CHANGE_FORMS = [Form(msgid, _CHANGE) for msgid in (
    N_("{a} started the round"),
    N_("{a} read {whose} cards from a photo"),
    N_("{a} read {whose} cards from a webcam shot"),
    N_("{a} read {n} hand from a table photo"),
    N_("{a} read {n} hands from a table photo"),
    N_("{a}'s photo of {whose} cards could not be read: {error}"),
    N_("{a}'s table photo was read: say who sits where"),
    N_("{a} typed {whose} cards"),
    N_("{a} added {c} to {whose} {row}"),
    N_("{a} changed {c} to {d} in {whose} {row}"),
    N_("{a} removed {c} from {whose} {row}"),
    N_("{a} moved {c} within {whose} {row}"),
    N_("{a} moved {c} from {whose} {row} to {to}"),
    N_("{a} swapped {c} and {d} in {whose} hand"),
    N_("{a} swapped {whose} {row} and {to} rows"),
    N_("{a} rearranged {whose} fouled hand ({n} card(s) moved)"),
    N_("{a} marked {p} as surrendered"),
    N_("{a} marked {p} as playing (no surrender)"),
    N_("{a} declared {whose} natural"),
    N_("{a} withdrew {whose} natural"),
    N_("{a} marked {p} as the one who went out"),
    N_("{a} marked {p} as not out"),
    N_("{a} claimed {whose} instant win"),
    N_("{a} withdrew {whose} instant win"),
    N_("{a} set the finishing order and 頂大"),
    N_("{a} settled the round (settlement {n})"),
    N_("{a} settled the round"),
    N_("{a} re-opened the round"),
    N_("{a} undid a change"),
)]
_UNDID = Form(N_("{a} undid: {change}"), {"a": _actor})
_WHOSE_VALUE = re.compile(r"(?P<base>their|.+?'s)(?: set (?P<n>\d+))?")


def change_text(text: str) -> str:
    """A change line ("Bob moved 7♠ from Ann's middle to back") in the reader's language; a line of a form this
    table does not know stays in English."""
    if current_language() == "en":
        return text
    return _change(text)


def _change(text: str) -> str:
    undid = _UNDID.pattern.fullmatch(text)
    if undid:
        return translate(_UNDID.msgid, a=_actor(undid["a"]), change=_change(undid["change"]))
    for form in CHANGE_FORMS:
        found = form.pattern.fullmatch(text)
        if found is None:
            continue
        values = found.groupdict()
        if "whose" in values and not _WHOSE_VALUE.fullmatch(values["whose"]):
            continue
        if any(values.get(key) not in ("front", "middle", "back", "cards") for key in ("row", "to") if key in values):
            continue
        return set_labels(translate(form.msgid, **{k: form.converters.get(k, as_is)(v) for k, v in values.items()}))
    return text
