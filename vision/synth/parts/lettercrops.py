"""Index crops for the index-glyph check (vision.glyphs): corners typeset in the system's fonts by the fontcrops
part's drawing (vision.synth.parts.fontcrops.index_image), either with a French rank (2-10, J, Q, K, A: "known") or
with a rank a French-suited deck never prints ("unknown": the court letters of German, Dutch, Spanish, Italian and
tarot decks, other letters and numbers). Both sides come from the same drawing, suits, inks, card corners and photo
effects, so the check can only learn the rank's glyph, not how a crop was made.

`python -m vision.synth.parts.lettercrops --out FILE.npz --count N [--split train|val] [--seed S]` writes
N crops (half known, half unknown) as `crops` (N, 48, 48, 3) BGR uint8 and `known` (N,) bool, `ranks` (N,) str."""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.crops import CARD_CODES, SUITS, index_crop
from vision.synth import scene
from vision.synth.parts.draws import jitter
from vision.synth.parts.fontcrops import index_image

# Ranks no French-suited deck prints: German B (Bube), D (Dame), U (Unter; not O: a Q in many faces), Dutch B, V (vrouw), H (heer),
# Spanish S (sota), C (caballo), R (rey), Italian / tarot R, D, C, V, F (fante), P, and a few more letters and
# numbers (1, 11-14: Spanish and tarot numbering, tarot trumps). K stays out: a king's letter in most languages.
UNKNOWN_RANKS = ("B", "D", "U", "V", "H", "S", "C", "R", "F", "P", "E", "G", "L", "M", "N", "T", "W", "X", "Y",
                 "Z", "I", "1", "11", "12", "13", "14")
SEED_STREAMS = {"train": 0, "val": 1}


def letter_crop(rng: np.random.Generator, split: str, rank_text: str | None, suit: str) -> np.ndarray:
    """One 48 x 48 crop of a corner with `rank_text` (None: a French rank drawn from CARD_CODES' ranks) over `suit`,
    drawn as the fontcrops part draws it (fonts of `split`), with its photo effects, JPEG and box jitter."""
    code = (CARD_CODES[int(rng.integers(len(CARD_CODES)))][0] if rank_text is None else "2") + suit
    img, box, index_px = index_image(rng, code, split, rank_text)
    strength = float(np.clip(index_px / 25.0, 0.5, 1.0))
    img = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, img, strength), (30, 96))
    return index_crop(img, jitter(rng, box))


def letter_crops(count: int, split: str, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`count` crops, known and unknown in turn: (crops, known, ranks)."""
    rng = np.random.default_rng([seed, SEED_STREAMS[split]])
    crops, known, ranks = [], [], []
    for item in range(count):
        suit = SUITS[int(rng.integers(len(SUITS)))]
        rank_text = None if item % 2 == 0 else UNKNOWN_RANKS[int(rng.integers(len(UNKNOWN_RANKS)))]
        crops.append(letter_crop(rng, split, rank_text, suit))
        known.append(rank_text is None)
        ranks.append(rank_text or "")
    return np.stack(crops), np.array(known), np.array(ranks)


def crops_parser(module: str, doc: str | None, count: int, *, split: bool = True,
                 cache: bool = False) -> argparse.ArgumentParser:
    """The command line the glyph-check crop generators share: --out FILE.npz, --count, --seed (and --split, --cache)."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=doc)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=count)
    if split:
        parser.add_argument("--split", choices=tuple(SEED_STREAMS), default="train")
    parser.add_argument("--seed", type=int, default=0)
    if cache:
        parser.add_argument("--cache", type=Path, default=Path("/work/data/deck-cache"))
    return parser


def save_crops(out: Path, crops: np.ndarray, known: np.ndarray, ranks: np.ndarray) -> int:
    """Writes a generator's crops as the trainer reads them (`crops`, `known`, `ranks`) and says so; exit status 0."""
    np.savez_compressed(out, crops=crops, known=known, ranks=ranks)
    print(f"{len(crops)} crops ({int(known.sum())} known) -> {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = crops_parser("vision.synth.parts.lettercrops", __doc__, 20000).parse_args(argv)
    return save_crops(args.out, *letter_crops(args.count, args.split, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
