"""Warning texts of the reader that other code recognises (the web app restates them translated); kept apart from
vision.reader so that recognising them does not load ONNX Runtime."""
from __future__ import annotations

BLURRED_WARNING = "photo looks blurred"
UNSURE_MARKS_WARNING = "left out unsure marks"
NO_CARDS_WARNING = "no card found"
SEEN_TWICE_WARNING = "card seen twice"
SECOND_LOOK_WARNING = "second look doubts"
UNKNOWN_DECK_WARNING = "these cards' corners use letters this reader does not know"
