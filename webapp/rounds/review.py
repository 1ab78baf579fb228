"""The review before settling: per hand, what stops settling ('error') and what deserves a look
('warn'); what the round as a whole lacks; whether it is ready; the round in scoring's input shape."""
from __future__ import annotations

from collections import Counter
from typing import Any

from webapp import reader, rules
from webapp.models import Game, Round
from webapp.rounds.fouls import foul_of, fouls_refused
from webapp.rounds.reader_notes import (READER_WARNING_TEXT, doubted_codes, rechecked_by_review, restate,
                                        second_look_doubts, still_holds)
from webapp.rounds.sets import hand_label, is_criss_cross
from webapp.rounds.shape import CARDS_LEFT, bigtwo_rules, layout


def hand_warnings(rnd: Round) -> dict[str, list[dict[str, Any]]]:
    """Per hand (keyed by its label: the player, or "Ann (set 2)" under criss cross): what stops settling
    ('error') and what deserves a look ('warn')."""
    game = rnd.game
    sizes = layout(game)
    out: dict[str, list[dict[str, Any]]] = {hand_label(h): [] for h in rnd.hands}
    if game.is_bigtwo and bigtwo_rules(game)["scheme"] == "rank":
        return out  # points by place: only the finishing order counts (round_warnings)
    owners: dict[str, list[str]] = {}
    for hand in rnd.hands:
        if hand.state != "cards":
            continue
        for row in sizes:
            for code in getattr(hand, row):
                owners.setdefault(code, []).append(hand_label(hand))
    held = set(owners)
    for hand in rnd.hands:
        label = hand_label(hand)
        notes = out[label]
        if hand.state == "empty":
            key = ("no_instant_cards" if hand.instant_win else "no_cards_left") if game.is_bigtwo else "no_cards"
            notes.append(_note("error", key))
            continue
        if hand.state in ("surrender", "out"):
            continue
        codes = [c for row in sizes for c in getattr(hand, row)]
        if game.is_bigtwo:
            if not codes:
                notes.append(_note("error", "no_cards_left"))
            elif len(codes) > sizes[CARDS_LEFT]:
                notes.append(_note("error", "too_many", n=len(codes), limit=sizes[CARDS_LEFT]))
        else:
            for row, size in sizes.items():
                have = len(getattr(hand, row))
                if have < size:
                    notes.append(_note("error", "missing", row=row, n=size - have))
                elif have > size:
                    notes.append(_note("error", "extra", row=row, n=have - size))
        for code in sorted(c for c in set(codes) if not _valid(c)):
            notes.append(_note("error", "not_card", code=code))
        for code, count in sorted(Counter(codes).items()):
            if count > 1:
                notes.append(_note("error", "repeated", code=code, n=count))
        for code in sorted(set(codes)):
            others = sorted(set(p for p in owners.get(code, []) if p != label))
            if others:
                notes.append(_note("error", "shared", code=code, players=", ".join(others)))
        if hand.upload is not None:
            summary = reader.summarise(hand.upload.reading)
            # the hand as the reader gave it, to tell whether a person has changed it since
            read_rows = ({CARDS_LEFT: [card["code"] for card in summary["cards"]]} if game.is_bigtwo
                         else summary.get("rows") or None)
            for card in summary["cards"]:
                if not card["sure"] and card["code"] in codes:
                    notes.append(_note("warn", "low", code=card["code"], percent=round(card["confidence"] * 100)))
            for text in summary["warnings"]:
                for code, other, probability in second_look_doubts(text):
                    if code in codes:  # a card corrected since is no longer in doubt
                        key = "second_look_none" if other == "none" else "second_look"
                        notes.append(_note("warn", key, code=code, other=other, percent=round(probability * 100)))
                if rechecked_by_review(text):
                    continue  # counts, confidence and doubts are re-checked against the hand as it is now
                restated = restate(text)
                if restated is None:
                    notes.append({"level": "warn", "text": text})
                    continue
                # a reader warning that a correction since has made false is not shown any more
                params = still_holds(restated[0], restated[1], {row: getattr(hand, row) for row in sizes},
                                     read_rows, sizes, held)
                if params is not None:
                    notes.append(_note("warn", restated[0], **params))
        if hand.instant_win and not any(n["level"] == "error" for n in notes):
            refused = _instant_win_refused(game, hand.player, codes)
            if refused:
                notes.append(_note("error", "instant_refused", reason=refused))
    return out


def cards_to_look_at(summary: dict[str, Any] | None) -> set[str]:
    """The codes the hand page marks for a look: read with low confidence, or doubted by the second look."""
    if not summary:
        return set()
    return ({card["code"] for card in summary["cards"] if not card["sure"]}
            | set(doubted_codes(summary["warnings"])))


# The review notes that name one card the reader was unsure of (the round page marks that card's tile, as the hand page does)
_CARD_DOUBT_KEYS = ("low", "second_look", "second_look_none")


def doubted_in_notes(notes: list[dict[str, Any]]) -> set[str]:
    """The codes a hand's review notes (hand_warnings) ask to check: read unsurely or doubted by the second look."""
    return {note["params"]["code"] for note in notes if note.get("key") in _CARD_DOUBT_KEYS}


def _instant_win_refused(game: Game, player: str, codes: list[str]) -> str | None:
    """Scoring's message when the claimed cards make no instant win the rules pay; None when they do."""
    try:
        rules.check_instant_win(game.preset, game.options, player, codes)
    except rules.ScoringError as err:
        return str(err)
    return None


def round_warnings(rnd: Round) -> list[dict[str, Any]]:
    """What the round as a whole lacks before settling: Big Two's winner or finishing order."""
    game = rnd.game
    if not game.is_bigtwo:
        return []
    if bigtwo_rules(game)["scheme"] == "rank":
        order = rnd.finish_order or []
        return [] if sorted(order) == sorted(h.player for h in rnd.hands) else [_note("error", "no_order")]
    return [] if any(h.state == "out" or h.instant_win for h in rnd.hands) else [_note("error", "no_winner")]


# English wording of the review warnings; webapp.i18n has the Chinese ones under the same keys.
WARNING_TEXT = {
    "no_cards": "No cards yet.",
    "missing": "{Row} row: {n} card(s) missing.",
    "extra": "{Row} row: {n} card(s) too many.",
    "not_card": "'{code}' is not a card; tap it to correct it.",
    "repeated": "{code} appears {n} times in this hand.",
    "shared": "{code} was also read for {players}.",
    "low": "{code}: the reader is not sure of it ({percent}%); check this card.",
    "second_look": "{code}: a second look at it reads {other} ({percent}%). Check this card.",
    "second_look_none": "{code}: a second look at it sees no card there ({percent}%). Check this card.",
    "no_cards_left": "No cards left yet: take a photo or type them, or mark this player as the one who went out.",
    "too_many": "{n} cards left, but a hand holds at most {limit}.",
    "no_winner": "Mark the player who went out (the winner), or the one who claims an instant win.",
    "no_instant_cards": "Claims an instant win: take a photo of the 13 cards dealt or type them.",
    "instant_refused": "{reason}",
    "no_order": "Give the finishing order: every player once, first place first.",
    **READER_WARNING_TEXT,
}


def _note(level: str, key: str, **params: Any) -> dict[str, Any]:
    """A warning with its English text (for the API) and its key and values (for translation)."""
    text = WARNING_TEXT[key].format(Row=str(params.get("row", "")).capitalize(), **params)
    return {"level": level, "text": text, "key": key, "params": params}


def _valid(code: str) -> bool:
    try:
        return rules.normalise_card(code) == code
    except (rules.ScoringError, ValueError):
        return False


def ready_to_settle(rnd: Round, warnings: dict[str, list[dict[str, Any]]] | None = None) -> bool:
    return not settle_blockers(rnd, warnings)


def missing_by_player(rnd: Round, warnings: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, list[str]]:
    """Per hand (keyed by its label), one short line per thing the hand lacks before settling ("back row: 2 cards
    missing"); under rules that refuse fouled hands (fujian's 相公), the foul too. Empty lists when it is ready."""
    warnings = hand_warnings(rnd) if warnings is None else warnings
    refused = fouls_refused(rnd.game)
    out: dict[str, list[str]] = {}
    for hand in rnd.hands:
        label = hand_label(hand)
        lines = [_short(note) for note in warnings.get(label, []) if note["level"] == "error"]
        if refused and not lines:
            foul = foul_of(rnd.game, hand)
            if foul is not None:
                lines.append(f"fouled: {foul['reason']}; rearrange it (the legal fix is one tap)")
        out[label] = lines
    return out


def settle_blockers(rnd: Round, warnings: dict[str, list[dict[str, Any]]] | None = None) -> list[str]:
    """What stops settling, one line per player ("Ann: back row: 2 cards missing") and for the round."""
    lines = [f"{player}: {'; '.join(missing)}" for player, missing in missing_by_player(rnd, warnings).items()
             if missing]
    return lines + [_short(note) for note in round_warnings(rnd) if note["level"] == "error"]


_SHORT = {"no_cards": "no cards yet", "missing": "{row} row: {n} card{s} missing",
          "extra": "{row} row: {n} card{s} too many", "not_card": "'{code}' is not a card",
          "repeated": "{code} is in the hand {n} times", "shared": "{code} is also in {players}'s hand",
          "no_cards_left": "no cards left yet", "no_instant_cards": "the 13 cards dealt (claims an instant win)"}


def _short(note: dict[str, Any]) -> str:
    """A review error as a short line for a list of what is missing."""
    params = note.get("params") or {}
    if note.get("key") == "shared" and ", " in str(params.get("players")):
        return f"{params['code']} is also in the hands of {params['players']}"
    if note.get("key") in _SHORT:
        return _SHORT[note["key"]].format(**params, s="" if params.get("n") == 1 else "s")
    return note["text"].rstrip(".")


def round_input(game: Game, rnd: Round) -> dict[str, Any]:
    """The round in scoring's input shape."""
    if game.is_bigtwo:
        hands = [{"player": h.player, "state": h.state, "cards": h.cards, "instant_win": h.instant_win}
                 for h in rnd.hands]
        return rules.bigtwo_round_json(game.preset, game.options, hands, rnd.finish_order, rnd.failed_to_block,
                                       game.stake, game.pair_stakes)
    hands = [{"player": h.player, "state": h.state, "front": h.front, "middle": h.middle, "back": h.back,
              "natural": h.declared_natural, "set": h.hand_set} for h in rnd.hands]
    return rules.round_json(game.preset, game.options, hands, rnd.banker, game.stake, game.pair_stakes,
                            sets=is_criss_cross(game))
