"""Card decks: which SVG decks are used, rendering their faces to PNG once, and loading them.

Aisleriot themes (gnome-cards-data) name card elements "club_1" .. "spade_king"; KDE card decks
(kdegames-card-data-kf5) name them "1_club" .. "king_spade". Each face is rendered alone with
`rsvg-convert --export-id`, trimmed to its alpha bounding box and cached as an RGBA PNG.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES
from vision.evaluation.datasets import DEFAULT_DEV_PHOTOS

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
CARD_HEIGHT = 720  # rendered face height in pixels: indices ~90-110 px tall, enough for any crop size

_RANK_WORDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


@dataclass(frozen=True)
class Deck:
    name: str
    source: str  # "aisleriot", "kde" or "photo" (cut out of real photos: vision.synth.photo_decks)
    file: str  # path relative to the source directory
    package: str
    license: str
    corners: int = 2  # corners printed with an index: 2 (top-left, bottom-right) or 4
    # the cards whose corner index is a standard one (A K Q J 10..2 over a French suit); () = all 52. A deck whose
    # courts or aces carry other letters (B D K, V D R, 1) teaches the classifier only these (session 50)
    codes: tuple[str, ...] = ()

    def teaches(self, code: str) -> bool:
        """Whether this card's index is one the classifier may learn as `code`."""
        return not self.codes or code in self.codes

    @property
    def path(self) -> Path:
        if self.source == "restyled":  # built from its base deck's faces (vision.synth.restyled_decks)
            return DECKS_BY_NAME[self.file].path
        return {"aisleriot": AISLERIOT_DIR, "kde": KDE_DIR, "photo": DEFAULT_DEV_PHOTOS}[self.source] / self.file

    def element_id(self, code: str) -> str:
        rank = _RANK_WORDS.get(code[0], code[0])
        suit = _SUIT_WORDS[code[1]]
        return f"{suit}_{rank}" if self.source == "aisleriot" else f"{rank}_{suit}"


_GNOME = "gnome-cards-data"
_KDE = "kdegames-card-data-kf5"
# Kept: decks whose top-left and bottom-right corners carry a standard index (A K Q J 10..2 over a
# suit glyph) and no other corner does, or (since session 24, `corners=4`) all four corners do. Checked by
# eye on contact sheets (docs/synth.md@538d56c lists the rejected ones and why). synth-v1 used the first eleven; bellot, ornamental, kde_nicu_white and
# kde_penguins were added for synth-v2 once the index finder handled frames and large indices.
# Licences from /usr/share/doc/<package>/copyright (gnome-cards-data: "Files: *" GPL-3+; bellot's
# SVG header says LGPL; kdegames: "Files: *" GPL-2+ unless a deck has its own stanza).
DECKS: list[Deck] = [
    Deck("anglo", "aisleriot", "anglo.svgz", _GNOME, "GPL-3+"),
    Deck("anglo_poker", "aisleriot", "anglo_poker.svgz", _GNOME, "GPL-3+"),
    Deck("bellot", "aisleriot", "bellot.svgz", _GNOME, "LGPL-3+ (SVG-cards 2.0, David Bellot; GPL-3+ package)"),
    Deck("gnomangelo", "aisleriot", "gnomangelo.svgz", _GNOME, "GPL-3+"),
    Deck("ornamental", "aisleriot", "ornamental.svgz", _GNOME, "GPL-3+"),
    Deck("paris", "aisleriot", "paris.svgz", _GNOME, "GPL-3+"),
    Deck("neoclassical", "aisleriot", "neoclassical.svgz", _GNOME, "GPL-3+"),
    Deck("plastic", "aisleriot", "plastic.svgz", _GNOME, "GPL-3+"),
    Deck("simplistic", "aisleriot", "simplistic.svgz", _GNOME, "GPL-3+"),
    Deck("tigullio", "aisleriot", "tigullio.svgz", _GNOME, "GPL-3+"),
    Deck("kde_standard", "kde", "svg-standard/standard.svgz", _KDE, "GPL-2+"),
    Deck("kde_tigullio_international", "kde", "svg-tigullio-international/tigullio-international.svgz", _KDE,
         "LGPL-2+"),
    Deck("kde_gm_paris", "kde", "svg-gm-paris/paris.svgz", _KDE, "GPL-2+"),
    Deck("kde_nicu_white", "kde", "svg-nicu-white/white.svgz", _KDE, "GPL-2+"),
    Deck("kde_penguins", "kde", "svg-penguins/penguins.svgz", _KDE, "GPL-3+"),
    # session 24: a deck printed with four indices (common in real decks) and one whose courts bear a big letter
    Deck("dondorf", "aisleriot", "dondorf.svgz", _GNOME, "GPL-3+", corners=4),
    Deck("kde_jolly_royal", "kde", "svg-jolly-royal/jolly-royal.svgz", _KDE, "GPL-2+"),
    # session 50: rejected earlier by mistake (atlasnye taken for its Russian twin, anglo_modern for its four-colour
    # twin; orell never looked at); all 52 corners checked on contact sheets: standard two-colour indices
    Deck("atlasnye", "aisleriot", "atlasnye.svgz", _GNOME, "GPL-3+"),
    Deck("anglo_modern", "aisleriot", "anglo_modern.svgz", _GNOME, "GPL-3+"),
    Deck("orell", "aisleriot", "orell.svgz", _GNOME, "GPL-3+"),
]
_NUMBERS = tuple(rank + suit for rank in "23456789T" for suit in "SHDC")
_ACES, _KINGS = tuple("A" + suit for suit in "SHDC"), tuple("K" + suit for suit in "SHDC")
# Session 50: decks with other letters on their courts (German B D K, French V D R, Russian В Д К) or aces (1, Т)
# whose number cards print standard indices in engraved faces the train decks lack; for the classifier's crops only
# (never a val deck, never in the default list; each card they cannot teach is left out of the crops). guyenne-classic
# is not here: its number cards are paris's own drawings (docs/synth.md@538d56c, "Decks").
NUMBER_CARD_DECKS: list[Deck] = [
    Deck("berlin", "aisleriot", "berlin.svgz", _GNOME, "GPL-3+", codes=_NUMBERS + _ACES + _KINGS),
    Deck("lattmann", "aisleriot", "lattmann.svgz", _GNOME, "GPL-3+", codes=_NUMBERS + _ACES + _KINGS),
    Deck("rheinland", "aisleriot", "rheinland.svgz", _GNOME, "GPL-3+", codes=_NUMBERS + _ACES + _KINGS),
    Deck("tarocco", "aisleriot", "tarocco.svgz", _GNOME, "GPL-3+", codes=_NUMBERS + _ACES),
    Deck("ancient_french", "aisleriot", "ancient_french.svgz", _GNOME, "GPL-3+ (SVG header: David Bellot 2005, "
         "Tony 52 2018, Vincent Bermel 2022)", codes=_NUMBERS),
    Deck("slavic_costumes", "aisleriot", "slavic_costumes.svgz", _GNOME, "GPL-3+", codes=_NUMBERS),
]
# Decks cut out of others' real photos of single cards (vision.synth.photo_decks): for validation only, never in
# DECKS (so never trained on), and the photos stay outside the project. The webcam singles are a whole deck (52
# cards, 20 photos each); the phone singles lack a jack of hearts (JH.jpg shows the jack of spades), which
# photo_decks.BORROWED_FACES takes from the webcam deck.
_DEV, _OTHERS = "dev photos (../shared/dev-photos)", "others' photos: measurement only, not redistributed"
PHOTO_DECKS: list[Deck] = [Deck("real_webcam", "photo", "webcam-singles", _DEV, _OTHERS),
                           Deck("real_phone", "photo", "phone-singles", _DEV, _OTHERS)]
# The generator's val decks unless told otherwise: index fonts no train deck prints.
DEFAULT_VAL = ["paris", "kde_gm_paris", "neoclassical"]
# Decks whose indices are redrawn in other fonts (vision.synth.restyled_decks), on the two-corner train decks in turn;
# for training only, and only when asked for (`vision.synth --restyled`).
RESTYLED_COUNT = 16
_RESTYLE_BASES = [deck for deck in DECKS if deck.corners == 2 and deck.name not in DEFAULT_VAL]


def _restyled(number: int) -> Deck:
    base = _RESTYLE_BASES[number % len(_RESTYLE_BASES)]
    return Deck(f"restyled_{number:02d}", "restyled", base.name, base.package,
                f"{base.license}; index glyphs: the font's licence (vision/synth/fonts.py FONT_DIRS)")


RESTYLED_DECKS: list[Deck] = [_restyled(number) for number in range(RESTYLED_COUNT)]
DECKS_BY_NAME = {deck.name: deck for deck in DECKS + PHOTO_DECKS + RESTYLED_DECKS + NUMBER_CARD_DECKS}


class DeckError(RuntimeError):
    """A deck could not be rendered or its card faces could not be analysed."""


def installed_decks() -> list[Deck]:
    return [deck for deck in DECKS if deck.path.exists()]


def available_decks(cache_dir: Path) -> list[Deck]:
    """Decks whose SVG is installed or whose faces are already cached (a machine without the apt packages, e.g. a
    lent GPU machine, generates from a cache carried to it)."""
    return [deck for deck in DECKS + PHOTO_DECKS + RESTYLED_DECKS + NUMBER_CARD_DECKS
            if deck.path.exists() or (cache_dir / deck.name / "done.json").exists()]


def _render_element(deck: Deck, element: str, zoom: float) -> np.ndarray:
    if shutil.which("rsvg-convert") is None:
        raise DeckError("rsvg-convert is not installed (apt package librsvg2-bin)")
    proc = subprocess.run(
        ["rsvg-convert", "--export-id", element, "--zoom", f"{zoom:.5f}", str(deck.path)],
        capture_output=True, timeout=120,
    )
    if proc.returncode != 0 or not proc.stdout:
        raise DeckError(f"rsvg-convert failed for {deck.name}/{element}: {proc.stderr.decode()[:200]}")
    image = cv2.imdecode(np.frombuffer(proc.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise DeckError(f"rsvg-convert gave no RGBA image for {deck.name}/{element}")
    return image


def _trim_alpha(image: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(image[:, :, 3] > 8)
    if len(xs) == 0:
        raise DeckError("rendered card is empty")
    return image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def render_deck(deck: Deck, cache_dir: Path) -> Path:
    """Render all 52 faces of a deck into cache_dir/<deck>/<code>.png (skipped when cached; a photo deck's are cut
    out of its photos)."""
    out = cache_dir / deck.name
    if (out / "done.json").exists():
        return out
    if deck.source == "photo":
        from vision.synth.photo_decks import build_photo_deck

        return build_photo_deck(deck, cache_dir)
    if deck.source == "restyled":
        from vision.synth.restyled_decks import build_restyled_deck

        return build_restyled_deck(deck, cache_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Calibrate the zoom on one card: element bounding boxes are in document units.
    probe = _trim_alpha(_render_element(deck, deck.element_id("AS"), 1.0))
    zoom = CARD_HEIGHT / probe.shape[0]
    for code in CARD_CODES:
        face = _trim_alpha(_render_element(deck, deck.element_id(code), zoom))
        if abs(face.shape[0] - CARD_HEIGHT) > 4:
            # Some elements carry their own transform: re-render at the zoom this card needs.
            face = _trim_alpha(_render_element(deck, deck.element_id(code), zoom * CARD_HEIGHT / face.shape[0]))
        width = int(round(face.shape[1] * CARD_HEIGHT / face.shape[0]))
        face = cv2.resize(face, (width, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out / f"{code}.png"), face)
    (out / "done.json").write_text(json.dumps({"deck": deck.name, "zoom": zoom}))
    return out


def render_back(deck: Deck, height: int = CARD_HEIGHT) -> np.ndarray:
    """The deck's card back (SVG element `back`, in aisleriot themes and KDE decks alike) as an RGBA image `height`
    px tall: a face-down card, which the reader must not name (tests/vision/test_reader.py)."""
    if deck.source not in ("aisleriot", "kde"):
        raise DeckError(f"{deck.name} has no SVG to render a back from")
    back = _trim_alpha(_render_element(deck, "back", 1.0))
    back = _trim_alpha(_render_element(deck, "back", height / back.shape[0]))
    width = int(round(back.shape[1] * height / back.shape[0]))
    return cv2.resize(back, (width, height), interpolation=cv2.INTER_AREA)


def load_face(cache_dir: Path, deck: Deck, code: str) -> np.ndarray:
    """The cached RGBA face, composited on its own opaque card colour inside the card outline."""
    path = cache_dir / deck.name / f"{code}.png"
    if not path.exists() and path.with_suffix(".webp").exists():
        path = path.with_suffix(".webp")  # a cache re-encoded smaller to travel
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise DeckError(f"missing cached face {path}; run the generator's render step")
    return image


def render_all(cache_dir: Path, decks: list[Deck] | None = None, workers: int = 2) -> None:
    decks = installed_decks() if decks is None else decks
    todo = [deck for deck in decks if not (cache_dir / deck.name / "done.json").exists()]
    for deck in [deck for deck in todo if deck.source == "photo"]:  # one at a time: one lends faces to another
        render_deck(deck, cache_dir)
    # restyled decks after the rest: each is drawn on a rendered base deck
    for group in ([deck for deck in todo if deck.source not in ("photo", "restyled")],
                  [deck for deck in todo if deck.source == "restyled"]):
        if workers > 1 and len(group) > 1:
            from multiprocessing import get_context

            with get_context("spawn").Pool(workers) as pool:
                pool.starmap(render_deck, [(deck, cache_dir) for deck in group])
        else:
            for deck in group:
                render_deck(deck, cache_dir)


if __name__ == "__main__":  # quick manual rendering: python -m vision.synth.decks CACHE_DIR
    import sys

    render_all(Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("DECK_CACHE", "/work/data/deck-cache")))
