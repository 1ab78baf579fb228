"""What a generator process knows: the run's settings, each item's random stream, and its decks.

Each item draws its randomness from its own generator seeded with (seed, part, split, item), so the
output does not depend on the number of workers or their timing. Items come in blocks that share one
deck, so a worker keeps only a few decks in memory.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.synth.bank import DeckFaces, load_deck_faces
from vision.synth.decks import DECKS_BY_NAME
from vision.synth.four_colour import four_colour_faces

BLOCK = 40  # items per deck block
FOUR_COLOUR_STREAM = 4  # an item's stream for the four-colour draw (its other draws stay as they were)
PARTS = {"detect": 1, "crops": 2, "scenes": 3, "textcrops": 4, "fontcrops": 5, "photos": 6, "photocrops": 7, "phototiles": 8,
         "tables": 9}
SPLITS = {"train": 0, "val": 1}


@dataclass(frozen=True)
class Config:
    out: str
    cache: str
    seed: int
    train_decks: tuple[str, ...]
    val_decks: tuple[str, ...]
    text_sheets: float = 0.0  # chance of a paper sheet with text beside the cards in a scene
    photo_kinds: tuple[tuple[str, float], ...] = ()  # (kind, weight) of the photo parts' photos; () = their default
    photo_lowres: float = 0.0  # chance that part photocrops shrinks and blurs a photo before cropping
    tile_blur: float = 0.0  # chance that part phototiles blurs a look (out of focus or moved) before cutting tiles
    photo_elevation: tuple[float, float] = ()  # (low, high) degrees: photos' tilt drawn evenly in it; () = default
    four_colour: float = 0.0  # chance that an item's deck is printed in four colours (vision.synth.four_colour)


_CONFIG: Config | None = None


def init(config: Config) -> None:
    """Pool initializer: items read the run's settings from here (they travel once per process)."""
    global _CONFIG
    _CONFIG = config
    cv2.setNumThreads(1)


def config() -> Config:
    assert _CONFIG is not None
    return _CONFIG


def text_sheet_rate() -> float:
    """--text-sheets of the current run; 0 when a scene is rendered outside a run."""
    return _CONFIG.text_sheets if _CONFIG is not None else 0.0


def photo_kind_weights() -> tuple[tuple[str, float], ...]:
    """--photo-kinds of the current run; () when not given or outside a run."""
    return _CONFIG.photo_kinds if _CONFIG is not None else ()


def photo_elevation_range() -> tuple[float, float] | tuple[()]:
    """The run's even camera tilt range for photos (e.g. steep views only); () when not given or outside a run."""
    return _CONFIG.photo_elevation if _CONFIG is not None else ()


@lru_cache(maxsize=3)
def deck(name: str) -> DeckFaces:
    return load_deck_faces(Path(config().cache), DECKS_BY_NAME[name])


@lru_cache(maxsize=3)
def four_colour_deck(name: str) -> DeckFaces:
    return four_colour_faces(deck(name))


def item_deck(part: str, split: str, item: int) -> DeckFaces:
    """The faces an item is drawn with: its block's deck (deck_for), printed in four colours with the run's
    --four-colour chance (drawn from its own stream, and not at all when 0: older seeds draw what they drew)."""
    name = deck_for(split, item)
    share = config().four_colour
    if share and item_rng(part, split, item, stream=FOUR_COLOUR_STREAM).random() < share:
        return four_colour_deck(name)
    return deck(name)


def item_rng(part: str, split: str, item: int, stream: int | None = None) -> np.random.Generator:
    """The item's random stream; a `stream` number gives a second, independent one (draws added to an item later
    come from it, so the item's other draws stay as they were)."""
    key = [config().seed, PARTS[part], SPLITS[split], item]
    return np.random.default_rng(key if stream is None else key + [stream])


def deck_for(split: str, item: int) -> str:
    """The deck of an item's block: every deck once per round of blocks, in a seeded order."""
    cfg = config()
    decks = cfg.train_decks if split == "train" else cfg.val_decks
    block = item // BLOCK
    order = np.random.default_rng([cfg.seed, 99, SPLITS[split], block // len(decks)]).permutation(len(decks))
    return decks[order[block % len(decks)]]
