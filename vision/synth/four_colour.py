"""Four-colour decks: a deck's faces with diamonds printed blue and clubs green, as poker rooms' four-colour decks print
them (hearts stay red, spades black).

Every installed deck is two-colour, and a classifier trained only on them reads a blue diamond as a spade: on the
synthetic photos of every kind with the val decks' diamonds and clubs recoloured at their indices, card precision
fell from 0.999 to 0.837 and 0.18 of the 3/5/5 layouts were read wrong without any warning (models/HISTORY.md@538d56c,
session 36). The faces are recoloured as ink over each face's own paper (white on rendered decks, grey on decks cut
from photos), so anti-aliased edges blend into the paper as printed ink would: a diamond face's red pixels become the
deck's blue by how strongly red they are, a club face's neutral pixels darker than the paper its green by how much
darker, both in the paper's light. Court art on those faces changes with them, as it does on several real
four-colour decks; the card's printed outline stays. Index outlines do not move.
"""
from __future__ import annotations

import dataclasses
import zlib

import numpy as np

from vision.synth.bank import DeckFaces

RED_MARGIN = 40  # a pixel is red ink when its red channel exceeds both others by this much (0-255)
NEUTRAL_SPREAD = 48  # ... black ink (or its anti-aliased edge on paper) when its channels differ by less than this
PAPER_SHARE = 0.78  # ... and it is darker than this share of the paper (lighter neutral pixels are the paper)
BORDER_SHARE = 0.025  # of the face's width: the card's printed outline there stays as it is (no deck colours it)
# Greens and blues drawn per deck (BGR), around what four-colour decks print: clubs 0-140-0 to 30-160-60, diamonds
# 200-40-0 to 230-90-40.
GREEN_RANGE = ((0, 120, 0), (70, 170, 60))
BLUE_RANGE = ((180, 20, 0), (240, 100, 50))


def deck_inks(deck_name: str) -> tuple[np.ndarray, np.ndarray]:
    """The deck's green and blue (BGR, float), fixed by its name so every worker draws the same."""
    rng = np.random.default_rng(zlib.crc32(deck_name.encode()))
    green = rng.uniform(GREEN_RANGE[0], GREEN_RANGE[1])
    blue = rng.uniform(BLUE_RANGE[0], BLUE_RANGE[1])
    return green, blue


def _inside_border(shape: tuple[int, ...]) -> np.ndarray:
    """True away from the face's edge (BORDER_SHARE of its width)."""
    inside = np.zeros(shape[:2], bool)
    margin = max(1, round(BORDER_SHARE * shape[1]))
    inside[margin:-margin, margin:-margin] = True
    return inside


def face_paper(bgra: np.ndarray) -> np.ndarray:
    """The face's paper colour (BGR, float): the median of its lighter pixels (white on rendered decks, a grey of the
    light on decks cut from photos)."""
    colour = bgra[:, :, :3].reshape(-1, 3).astype(np.float32)
    value = colour.max(axis=1)
    on_card = bgra[:, :, 3].reshape(-1) > 0
    lighter = on_card & (value >= np.percentile(value[on_card], 60))
    return np.median(colour[lighter], axis=0)


def blue_diamonds(bgra: np.ndarray, blue: np.ndarray) -> np.ndarray:
    """Red ink turned `blue`: a red pixel is paper under an ink share read from how far its red stands above the
    other channels (1 at the face's most saturated red), shaded by its red channel against the paper's (red ink
    reflects red, so that channel carries the light the paper gets)."""
    out = bgra.copy()
    colour = bgra[:, :, :3].astype(np.float32)
    b, g, r = colour[:, :, 0], colour[:, :, 1], colour[:, :, 2]
    saturation = r - np.maximum(g, b)
    red = (saturation > RED_MARGIN) & _inside_border(saturation.shape)
    if not red.any():
        return out
    paper = face_paper(bgra)
    share = np.clip(saturation / float(saturation[red].max()), 0.0, 1.0)[:, :, None]
    light = (r / max(float(paper[2]), 1.0))[:, :, None]
    blended = light * (paper * (1.0 - share) + blue * (paper.max() / 255.0) * share)
    out[:, :, :3] = np.where(red[:, :, None], np.clip(blended, 0, 255), colour).astype(np.uint8)
    return out


def green_clubs(bgra: np.ndarray, green: np.ndarray) -> np.ndarray:
    """Black ink turned `green`: a neutral pixel darker than the paper is paper under an ink share of how much
    darker (the green seen in the paper's light)."""
    out = bgra.copy()
    colour = bgra[:, :, :3].astype(np.float32)
    value = colour.max(axis=2)
    paper = face_paper(bgra)
    paper_value = max(float(paper.max()), 1.0)
    ink = (((value - colour.min(axis=2)) < NEUTRAL_SPREAD) & (value < PAPER_SHARE * paper_value)
           & _inside_border(value.shape))
    if not ink.any():
        return out
    share = np.clip(1.0 - value / paper_value, 0.0, 1.0)[:, :, None]
    blended = paper * (1.0 - share) + green * (paper_value / 255.0) * share
    out[:, :, :3] = np.where(ink[:, :, None], np.clip(blended, 0, 255), colour).astype(np.uint8)
    return out


def four_colour_faces(faces: DeckFaces) -> DeckFaces:
    """The deck's faces with diamonds blue and clubs green (a new DeckFaces; the given one is not changed)."""
    green, blue = deck_inks(faces.deck.name)
    result = DeckFaces(faces.deck, four_colour=True)
    for code, face in faces.faces.items():
        if code.endswith("D"):
            pyramid = [blue_diamonds(level, blue) for level in face.pyramid]
        elif code.endswith("C"):
            pyramid = [green_clubs(level, green) for level in face.pyramid]
        else:
            pyramid = face.pyramid
        result.faces[code] = dataclasses.replace(face, pyramid=pyramid)
    return result
