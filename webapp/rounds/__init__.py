"""Rounds: creation, each player's hand (photo, webcam, manual, surrender, natural), corrections,
warnings, settlement and re-opening. Every change leaves a RoundEvent.

A Chinese-poker hand is three rows (front, middle, back: 3/5/5 cards). A Big Two hand is one list,
the cards left in hand (the `cards` "row", up to the rules' max_cards), or state "out" for the one
player who went out, or (`instant_win`) the 13 cards dealt of the one player claiming an instant win; the round may also carry the finishing order (points by place) and the player
who failed to block (頂大).

One module a concern; this package's names are the public ones, used as `rounds.X`:
errors (RoundError), shape (rows and sizes of a hand), loading (find, lock, checks, events),
creation, parsing (typed cards), hands (typed cards, surrender, natural, who went out, instant win,
finishing order), corrections, moves (move or swap cards, the legal fix), suggestions (unsure marks to add with one
tap), photos, fouls (scoring's foul reason, legal fix, naturals), review (warnings, what is missing, readiness,
scoring's input), settling, serialise (JSON), sets (criss cross: two hands per player, their labels).
The live round: live (the actor and If-Match of the request; the ETag), snapshots (the round after each change),
undo, changes (each change as a line)."""
from __future__ import annotations

from webapp.rounds.changes import changes_since, recent_changes
from webapp.rounds.corrections import correct_card, remove_card, swap_rows
from webapp.rounds.creation import new_round
from webapp.rounds.errors import RoundError
from webapp.rounds.hands import (set_instant_win, set_manual, set_natural, set_out, set_round_details,
                                 set_surrender)
from webapp.rounds.fouls import foul_of, natural_of
from webapp.rounds.live import (SOMEONE, StaleRound, current_etag, etag, game_etag, if_none_match, parse_if_match,
                                peek_etag, tag_version)
from webapp.rounds.loading import find_round, require_open
from webapp.rounds.moves import apply_fix, move_card, swap_cards
from webapp.rounds.parsing import normalise, parse_cards_left, parse_rows, parse_typed
from webapp.rounds.photos import add_photo
from webapp.rounds.review import (WARNING_TEXT, cards_to_look_at, doubted_in_notes, hand_warnings, missing_by_player, ready_to_settle,
                                  round_input, round_warnings, settle_blockers)
from webapp.rounds.serialise import hand_json, round_json, stale_json
from webapp.rounds.settling import NOT_READY, reopen, settle
from webapp.rounds.sets import find_hand, hand_label, hand_set_of, is_criss_cross, set_count, set_number
from webapp.rounds.suggestions import card_alternatives, unsure_suggestions
from webapp.rounds.shape import CARDS_LEFT, ROW_SIZES, ROWS, bigtwo_rules, layout
from webapp.rounds.undo import undo, undo_preview

__all__ = [
    "CARDS_LEFT", "NOT_READY", "ROWS", "ROW_SIZES", "RoundError", "SOMEONE", "StaleRound", "WARNING_TEXT",
    "add_photo", "apply_fix", "bigtwo_rules", "card_alternatives", "cards_to_look_at", "changes_since",
    "correct_card", "current_etag", "etag", "find_hand", "find_round", "foul_of", "game_etag", "hand_json", "hand_label", "hand_set_of", "hand_warnings",
    "if_none_match", "is_criss_cross", "layout", "missing_by_player", "move_card", "natural_of", "new_round", "normalise",
    "parse_cards_left", "parse_if_match", "parse_rows", "parse_typed", "peek_etag", "ready_to_settle", "recent_changes",
    "remove_card", "reopen", "require_open", "round_input", "round_json", "round_warnings", "set_count", "set_instant_win",
    "set_manual", "set_natural", "set_number", "set_out", "set_round_details", "set_surrender", "settle", "settle_blockers",
    "doubted_in_notes", "stale_json", "swap_cards", "swap_rows", "tag_version", "undo", "undo_preview", "unsure_suggestions",
]
