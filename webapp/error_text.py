"""Error messages in the reader's language: the web layer and `scoring` write one English line (the API returns
it as is); a page shows it through `error_text`, which matches it against the English forms below (each a
gettext message id, as in webapp.scoring_text) and translates it; a card reader's warning of no form listed is said
as the review restates it. A message of neither (none of scoring's option checks: a test tries them all) is shown in
English after a translated lead-in, so the reader still knows what it is."""
from __future__ import annotations

import re

from webapp.i18n import N_, current_language, translate, translate_or
from webapp.scoring_text import foul_reason, row_word
from webapp.sentence_forms import Form, set_labels
from webapp.table_reading import SIDES

_ROW = {"row": row_word}


def _names(text: str) -> str:
    return text.replace(", ", translate("list_separator"))


def _option(name: str) -> str:
    from webapp.option_labels import option_label

    return f"“{option_label(name)}”"


def _amount_what(text: str) -> str:
    """'The stake' / 'The per-pair stake for Ann-Bob' as the page names it."""
    found = re.fullmatch(r"[Tt]he per-pair stake for '?(?P<pair>.+?)'?", text)
    if found:
        return translate(N_("the per-pair stake for {pair}"), pair=found["pair"])
    return translate("stake") if text.lower() in ("the stake", "the stake per point") else text


_AMOUNT = {"what": _amount_what}


def _side(word: str) -> str:
    """A seat of the table photo (bottom, left, top, right) as the seats page names it."""
    return translate_or(word.capitalize(), word)


_SEAT = {"side": _side}


def _seat(number: str) -> str:
    """A seat of the table photo as vision numbers it (0 bottom, 1 left, 2 top, 3 right): "2" -> 上方座位."""
    if not number.isdigit() or int(number) >= len(SIDES):
        return number
    return translate(N_("seat_at_side"), side=_side(SIDES[int(number)]))


def _places(text: str) -> str:
    """Where a table photo read one code ("seat 0 and seat 2 and no hand"), each place named as _seat does."""
    places = []
    for place in text.split(" and "):
        found = re.fullmatch(r"seat (\d+)", place)
        places.append(_seat(found[1]) if found else translate(N_("seat_no_hand")) if place == "no hand" else place)
    return translate("list_separator").join(places)


def _percent(confidence: str) -> str:
    """A reader's confidence ("0.80") as the review shows it ("80%")."""
    try:
        return f"{round(float(confidence) * 100)}%"
    except ValueError:
        return confidence


_DEDUCED = {"holder": _seat, "confidence": _percent}


def _skipped(text: str) -> str:
    """The hands a table photo did not fill, each line in the reader's language."""
    lines: list[str] = []
    for piece in text.split("; "):   # "…, so it was not used; give that seat a player to use it" is one line
        if lines and piece.startswith(("give that seat", "add it to its hand by hand")):
            lines[-1] += "; " + piece
        else:
            lines.append(piece)
    return translate("list_separator").join(error_text(line) for line in lines)


def _missing(text: str) -> str:
    """'Ann: back row: 2 cards missing; Bob: no cards yet' with each line in the reader's language."""
    pieces: list[str] = []
    for piece in text.split("; "):   # a foul's line holds "; rearrange it" itself
        if pieces and piece.startswith("rearrange it"):
            pieces[-1] += "; " + piece
        else:
            pieces.append(piece)
    lines = []
    for line in pieces:
        player, sep, rest = line.partition(": ")
        known = sep and error_text(rest) != _untranslated(rest)
        lines.append(f"{player}：{error_text(rest)}" if known else error_text(line))
    return "；".join(lines)
ERROR_FORMS = [Form(msgid, converters) for msgid, converters in (
    # webapp.games (the new-game form)
    (N_("A game needs 2 to 4 players."), None),
    (N_("Each player needs a different name."), None),
    (N_("Player names must be at most {n} characters, without '/'."), None),
    (N_("The game's name must be at most 100 characters."), None),
    (N_("Per-pair stake '{pair}' should look like Ann-Bob=2."), None),
    (N_("Per-pair stake '{pair}' must name two different players of this game."), None),
    (N_("The PIN must be 4 to 12 digits."), None),
    (N_("The banker '{name}' is not one of the players."), None),
    (N_("Unknown option {names} for these rules; the valid ones are: {valid}."), None),
    (N_("Unknown options {names} for these rules; the valid ones are: {valid}."), None),
    # scoring's numbers (webapp.rules.amount_problem) and option checks
    (N_("{what} '{value}' is not a number: write it like 2, 0.5 or \"1/3\"."), _AMOUNT),
    (N_("{what} must be greater than 0, not '{value}'."), _AMOUNT),
    (N_("{what} must be a number below 1,000,000,000,000 with at most 6 decimals (a fraction's denominator at most "
        "1,000,000), not '{value}'."), _AMOUNT),
    (N_("option {option} must be a whole number of at least {low} (at most 1,000,000); got {value}"),
     {"option": _option}),
    (N_("option {option} must be one of {choices}; got {value}"), {"option": _option}),
    # ... after webapp.option_labels.in_words named the option as the form does (“Scoop multiplier”)
    (N_("“{label}” must be a whole number of at least {low} (at most 1,000,000); got {value}"), None),
    (N_("“{label}” must be one of {choices}; got {value}"), None),
    # scoring's other option checks, mostly of the options typed as JSON (Big Two tables, royalties, naturals)
    (N_("“{label}” must be true or false; got {value}"), None),
    (N_("“{label}” must be a whole number from {low} to {high}; got {value}"), None),
    (N_("“{label}”.{key} must be a whole number of at least {low} (at most 1,000,000); got {value}"), None),
    (N_("“{label}” must be greater than 0, not {value}"), None),
    (N_("“{label}” {value} is not a number: write it like 2, 0.5 or \"1/3\""), None),
    (N_("“{label}” must be a table name or an object like {example}; got {value}"), None),
    (N_("“{label}” must be an object like {example}; got {value}"), None),
    (N_("“{label}” must be an object of natural -> points (null turns one off)"), None),
    (N_("“{label}”.{row} must be an object of hand -> points"), None),
    (N_("“{label}”.{row}: unknown hand {hand}; valid: {valid}"), None),
    (N_("“{label}”: unknown row {row}; rows are {rows}"), None),
    (N_("“{label}”: preset {preset} has no natural {name}; naturals: {names}"), None),
    (N_("“{label}”: preset {preset} has no table {name}; tables: {names}"), None),
    (N_("“{label}” must be null (suits never break ties) or the four suits best first, like \"SHDC\"; got "
        "{value}"), None),
    (N_("“{label}” must be null (players − 1 down to 0) or a list of points, first place first, one per player, "
        "like [3, 2, 1, 0]; got {value}"), None),
    (N_("“{label}” must give every rank; missing {missing}"), None),
    (N_("“{label}”: {key} is not a rank (or is given twice); ranks: {ranks}"), None),
    (N_("“{label}”: {key} is not a card count from 1 to {n}"), None),
    (N_("“{label}”: unknown instant win {hand}; known: {known}"), None),
    (N_("“{label}” must be a list of {hands}; got {value}"), None),
    # cards (webapp.rounds.parsing, scoring's card parser)
    (N_("{player}: '{code}' is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit (S H D C or ♠ ♥ ♦ ♣), "
        "e.g. 'AS', '10♥'"), None),
    (N_("'{code}' is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit (S H D C or ♠ ♥ ♦ ♣), e.g. "
        "'AS', '10♥'"), None),
    (N_("'{code}' is not a card: '{code2}' is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit (S H D C "
        "or ♠ ♥ ♦ ♣), e.g. 'AS', '10♥'"), None),
    (N_("{player}: {code} appears twice"), None),
    (N_("Expected 13 cards (front 3 / middle 5 / back 5), got {n}."), None),
    (N_("Write three rows separated by '/': front / middle / back."), None),
    (N_("The {row} row needs {size} cards, got {n}."), _ROW),
    (N_("The {row} row has no card number {n}."), _ROW),
    (N_("Unknown row '{row}'; use {rows}."), None),
    (N_("{player}: {n} cards left, but a hand holds at most {limit} (option max_cards)."), None),
    (N_("{player}: no cards typed. A player who went out holds none: mark them as the winner."), None),
    # the round (webapp.rounds)
    (N_("Choose two different rows to swap (front, middle, back)."), None),
    (N_("Choose two different cards to swap."), None),
    (N_("This game has ended: no more rounds (a rematch starts a new game)."), None),
    (N_("Could not create the round (too many at once); try again."), None),
    (N_("This round is settled; re-open it before changing anything."), None),
    (N_("This round changed since your page was loaded; nothing was changed. Look at the changes and try again."),
     None),
    (N_("'{name}' is not a player in this game."), None),
    (N_("{names} cannot take two places in the finishing order."), {"names": _names}),
    (N_("{player} went out (the winner holds no cards); un-mark {player2} as the winner before entering cards left."),
     None),
    (N_("{hand}'s hand is not fouled as it is now: nothing to fix."), None),
    (N_("No legal arrangement of {hand}'s cards was found; move the cards by hand."), None),
    (N_("Nothing to undo in this round."), None),
    (N_("This change was made before undo existed; correct it by hand."), None),
    (N_("Every hand needs 13 valid cards (or a surrender) before settling. Still missing: {missing}."),
     {"missing": _missing}),
    (N_("Mark who went out and give every other player's cards left (valid, no card twice) before settling. Still "
        "missing: {missing}."), {"missing": _missing}),
    (N_("Reload the round before settling: this form did not say which version of the round it showed."), None),
    # what a hand still lacks (webapp.rounds.review's short lines)
    (N_("no cards yet"), None),
    (N_("{row} row: {n} card missing"), _ROW),
    (N_("{row} row: {n} cards missing"), _ROW),
    (N_("{row} row: {n} card too many"), _ROW),
    (N_("{row} row: {n} cards too many"), _ROW),
    (N_("'{code}' is not a card"), None),
    (N_("{code} is in the hand {n} times"), None),
    (N_("{code} is also in the hands of {players}"), {"players": _names}),
    (N_("{code} is also in {player}'s hand"), None),
    (N_("no cards left yet"), None),
    (N_("the 13 cards dealt (claims an instant win)"), None),
    (N_("fouled: {reason}; rearrange it (the legal fix is one tap)"), {"reason": foul_reason}),
    # pages (webapp.access, webapp.views)
    (N_("No such game. Check the link you were given."), None),
    (N_("This game has no round {n}."), None),
    (N_("No such player in this game."), None),
    (N_("No such photo in this game."), None),
    (N_("Wrong PIN."), None),
    (N_("Too many wrong PINs from this device or network; try again in {n} s."), None),
    (N_("Big Two hands are played, not set: there is no other way to set them."), None),
    (N_("How else a hand could have been set is shown once the round is settled."), None),
    (N_("The settle-up's rounds are not given as 'all' or 'first-last'."), None),
    (N_("'{name}' is not a player in this game; choose one of {names}."), {"names": _names}),
    (N_("Tick the box to confirm: deleting a game removes its rounds and photos for good."), None),
    (N_("Deleted “{title}” with its rounds and photos."), None),
    (N_("The upload is too large; the limit is {size}."), None),
    (N_("Filled from the table photo: {filled}. Check each hand below."), None),
    (N_("Too many requests from this address; try again in {n} s."), None),
    # table photos (webapp.rounds.table_photos, webapp.views.table) and criss cross's sets
    (N_("The table photo is being read; the hands appear here when it is done (or the seats are asked)."), None),
    (N_("A table photo fills one hand a seat; in criss cross each player has two sets: photograph each set on its "
        "own."), None),
    (N_("The card reader is unavailable ({reason}); photograph each hand on its own or type the cards."), None),
    (N_("This round has no table photo {n}."), None),
    (N_("No hand found on this table photo: make sure the whole table and every hand's cards are in the picture."),
     None),
    (N_("No hand found on this table photo: {warnings}"), {"warnings": _skipped}),
    (N_("No hand was filled: {lines}."), {"lines": _skipped}),
    (N_("the hand at the {side} seat ({n} cards): {player} surrendered, so it was not used"), _SEAT),
    (N_("The hand at the {side} seat ({n} cards): {player} surrendered, so it was not used."), _SEAT),
    (N_("the hand at the {side} seat ({n} cards): {player} went out (holds no cards), so it was not used"), _SEAT),
    (N_("The hand at the {side} seat ({n} cards): {player} went out (holds no cards), so it was not used."), _SEAT),
    (N_("the hand at the {side} seat ({n} cards): no player sits there, so it was not used; give that seat a "
        "player to use it"), _SEAT),
    (N_("The hand at the {side} seat ({n} cards): no player sits there, so it was not used; give that seat a "
        "player to use it."), _SEAT),
    (N_("No hand was found at {player}'s seat ({side}); {player2}'s hand is unchanged."), _SEAT),
    (N_("'set' must be 1 or 2, not {value}."), None),
    (N_("This game deals one hand per player: there is no set {n} (only criss cross deals two)."), None),
    (N_("Criss cross deals each player sets 1 and 2: there is no set {n}."), None),
    # a whole-table photo's warnings of a hand or of the photo (vision.table, vision.table_closer), seats named as
    # the seats page names them (the reader's own warnings, unsure marks included: `_reader_warning`)
    (N_("{code}: read too in seat {seat}, taken there for another card: check it"), {"seat": _seat}),
    (N_("{new} deduced: read as {old} ({confidence}), a card seat {holder} holds too; its likeliest other code, no "
        "card read {new2}: check it"), _DEDUCED),
    (N_("{new} deduced: read as {old} ({confidence}), a card seat {holder} holds too; no card read {new2}: check it"),
     _DEDUCED),
    (N_("card seen twice: {code} in {places}: one of them is another card"), {"places": _places}),
    (N_("card in no hand: {code} at {box} lies apart from every hand; add it to its hand by hand"), None),
    (N_("{code} left out: seat {taker}'s hand read closer names it surely, here it was unsure"), {"taker": _seat}),
    (N_("{code} also read, unsurely, in seat {seat}'s hand: check it"), {"seat": _seat}),
    (N_("expected {n} cards, found {found}"), None),
    (N_("low confidence: {code} ({confidence})"), {"confidence": _percent}),
    # photo reading jobs (webapp.jobs), the advisor and hindsight (scoring)
    (N_("The round was settled before this photo was read; re-open the round and send the photo again."), None),
    (N_("The photo's file is missing from the photo store."), None),
    (N_("hand: these 13 cards have no arrangement in order under these rules"), None),
    (N_("the two sets share a card: criss cross deals them from one deck"), None),
    (N_("rules {rules}: the engine gives no hindsight for this hand"), None),
    # werkzeug's own descriptions of the common HTTP errors
    (N_("The requested URL was not found on the server. If you entered the URL manually please check your spelling "
        "and try again."), None),
    (N_("The method is not allowed for the requested URL."), None),
    (N_("The browser (or proxy) sent a request that this server could not understand."), None),
    (N_("The server encountered an internal error and was unable to complete your request. Either the server is "
        "overloaded or there is an error in the application."), None),
)]


def error_text(message: object) -> str:
    """One error line in the reader's language."""
    text = str(message or "")
    if current_language() == "en" or not text:
        return text
    for form in ERROR_FORMS:
        rendered = form.render(text)
        if rendered is not None:
            return rendered
    restated = _reader_warning(text)
    if restated is not None:
        return restated
    return set_labels(translate_or(text, _untranslated(text)))


def _reader_warning(text: str) -> str | None:
    """A warning of the card reader's own that the review restates (webapp.rounds.reader_notes), said as the review
    says it: a table photo lists the photo's warnings (a blurred photo, a card seen twice) as lines, not notes."""
    from webapp.i18n import warning_text
    from webapp.rounds.reader_notes import restate

    found = restate(text)
    return None if found is None else warning_text({"text": text, "key": found[0], "params": found[1]})


def _untranslated(text: str) -> str:
    return translate(N_("error_untranslated"), message=text)
