"""python -m vision.synth --out DIR [--seed 0 --tiles N --crops M --scenes K --photos P --photo-crops C --photo-tiles D
--photo-kinds KIND=W,... --photo-lowres R --tile-blur B --four-colour C --text-crops T --font-crops F --parts ...] | --samples DIR"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from vision.synth.decks import (DECKS_BY_NAME, DEFAULT_VAL, NUMBER_CARD_DECKS, PHOTO_DECKS, RESTYLED_DECKS,
                                available_decks, installed_decks)
ALL_PARTS = ("detect", "crops", "scenes", "photos", "photocrops", "phototiles", "textcrops", "fontcrops", "tables")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth", description="Synthetic card-index dataset generator")
    parser.add_argument("--out", type=Path, help="dataset folder to write (e.g. /work/data/synth-v1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tiles", type=int, default=6600, help="detector tiles, train + val")
    parser.add_argument("--crops", type=int, default=66000, help="classifier crops, train + val")
    parser.add_argument("--scenes", type=int, default=60, help="full-size validation scenes")
    parser.add_argument("--photos", type=int, default=300,
                        help="part photos: full-size validation photos of every kind (not in the default parts)")
    parser.add_argument("--tables", type=int, default=60,
                        help="part tables: whole-table photos of 2-4 hands, each in its seat (not in the default parts)")
    parser.add_argument("--photo-crops", type=int, default=60000,
                        help="part photocrops: classifier crops cut from photos of every kind, train + val "
                             "(not in the default parts)")
    parser.add_argument("--photo-tiles", type=int, default=9600,
                        help="part phototiles: detector tiles cut from photos of every kind, train + val "
                             "(not in the default parts)")
    parser.add_argument("--photo-kinds", default="",
                        help="kinds of the photo parts' photos with weights, e.g. hand=3,scattered=1 "
                             "(default: every kind, as in part photos)")
    parser.add_argument("--photo-lowres", type=float, default=0.0,
                        help="part photocrops: chance that a photo is shrunk (median index 12-28 px) and blurred before "
                             "cropping (0 = never, as before; e.g. 0.5)")
    parser.add_argument("--tile-blur", type=float, default=0.0,
                        help="part phototiles: chance that a look is blurred, out of focus or moved, before its tiles "
                             "are cut (0 = never, as before; e.g. 0.35)")
    parser.add_argument("--four-colour", type=float, default=0.0,
                        help="chance that an item's deck is printed in four colours, diamonds blue and clubs green "
                             "(0 = never, as before; 1 = a four-colour evaluation set)")
    parser.add_argument("--val-fraction", type=float, default=0.1)
    parser.add_argument("--val-decks", default=",".join(DEFAULT_VAL))
    parser.add_argument("--decks", default="", help="comma-separated decks to use (default: all kept decks installed)")
    parser.add_argument("--unknown-letters", action="store_true",
                        help="let --val-decks name number-card decks (German B/D/K courts, tarot): the reader's "
                             "unknown-deck evaluation set (vision evaluate --sets unknown-deck)")
    parser.add_argument("--restyled", action="store_true",
                        help="also train on the restyled decks (train decks with indices redrawn in other fonts; "
                             "built into the cache on first use: vision.synth.restyled_decks)")
    parser.add_argument("--cache", type=Path, default=Path("/work/data/deck-cache"), help="rendered card faces")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--parts", default="detect,crops,scenes",
                        help=f"which parts to (re)generate ({', '.join(ALL_PARTS)}); others stay as they are on disk")
    parser.add_argument("--text-crops", type=int, default=12000,
                        help="part textcrops: `none` crops of printed/handwritten text, train + val")
    parser.add_argument("--font-crops", type=int, default=20000,
                        help="part fontcrops: card-index crops drawn in TrueType fonts, train + val (fontcrops/<split>/<code>/)")
    parser.add_argument("--text-sheets", type=float, default=0.0,
                        help="chance per detector/crop/val scene of a paper sheet with text beside the cards "
                             "(0 = none, as in synth-v1/v2; e.g. 0.25)")
    parser.add_argument("--samples", type=Path, help="render demo/test photos into this folder instead")
    args = parser.parse_args(argv)

    if args.samples:
        from vision.synth.samples import write_samples

        write_samples(args.samples, args.cache, args.seed)
        return 0
    if args.out is None:
        parser.error("--out is required (or --samples)")
    parts = tuple(p for p in args.parts.split(",") if p)
    unknown_parts = sorted(set(parts) - set(ALL_PARTS))
    if unknown_parts:
        parser.error(f"unknown parts: {', '.join(unknown_parts)}")
    if not 0 <= args.text_sheets <= 1:
        parser.error("--text-sheets is a probability (0..1)")
    if not 0 <= args.photo_lowres <= 1:
        parser.error("--photo-lowres is a probability (0..1)")
    if not 0 <= args.tile_blur <= 1:
        parser.error("--tile-blur is a probability (0..1)")
    if not 0 <= args.four_colour <= 1:
        parser.error("--four-colour is a probability (0..1)")
    photo_kinds = parse_photo_kinds(parser, args.photo_kinds)
    command = "python -m vision.synth " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    deck_parts = tuple(p for p in parts if p not in ("textcrops", "fontcrops"))
    if deck_parts:
        status = _generate_deck_parts(parser, args, deck_parts, command, photo_kinds)
        if status:
            return status
    for part in ("textcrops", "fontcrops"):
        if part in parts:
            _generate_no_deck_part(args, part, command)
    return 0


def parse_photo_kinds(parser: argparse.ArgumentParser, text: str) -> tuple[tuple[str, float], ...]:
    """--photo-kinds "hand=3,scattered=1" -> (("hand", 3.0), ("scattered", 1.0)); parser.error on a bad entry."""
    from vision.synth.parts.photos import PHOTO_KINDS

    known = [kind for kind, _ in PHOTO_KINDS]
    pairs = []
    for entry in (e for e in text.split(",") if e):
        kind, _, weight = entry.partition("=")
        try:
            value = float(weight)
        except ValueError:
            value = -1.0
        if kind not in known or not value > 0:
            parser.error(f"--photo-kinds: {entry!r} is not KIND=WEIGHT with KIND one of {', '.join(known)} "
                         "and WEIGHT > 0")
        pairs.append((kind, value))
    return tuple(pairs)


def _generate_no_deck_part(args: argparse.Namespace, part: str, command: str) -> None:
    """Part textcrops or fontcrops: they need no decks and record themselves in the manifest."""
    if part == "textcrops":
        from vision.synth.parts.textcrops import generate_text_crops as generate

        key, count, files = "text_crops", args.text_crops, "crops/<split>/none/text_*.png"
    else:
        from vision.synth.parts.fontcrops import generate_font_crops as generate

        key, count, files = "font_crops", args.font_crops, "fontcrops/<split>/<code>/font_*.png"
    start = time.time()
    manifest = generate(args.out, args.seed, count, args.val_fraction, args.workers, command)
    counts = manifest[key]["counts"]
    print(f"{key.replace('_', ' ')} done in {time.time() - start:.0f} s: train {counts['train']} val {counts['val']} "
          f"({files})")


def train_and_val_decks(parser: argparse.ArgumentParser, decks: str, val_decks: str,
                        cache: Path | None = None, restyled: bool = False, unknown_letters: bool = False
                        ) -> tuple[list[str], list[str]]:
    """--decks (comma list, "" = every installed or cached deck) and --val-decks -> (train decks, val decks);
    parser.error on an unknown or missing deck, or when either side is empty. Restyled decks (redrawn indices) are
    in the default list only with `restyled`, and always train decks; number-card decks only when named, and always
    train decks unless `unknown_letters` (an evaluation set of decks the reader is not meant to read)."""
    available = [d.name for d in (installed_decks() if cache is None else available_decks(cache))]
    if restyled:
        available += [d.name for d in RESTYLED_DECKS if d.name not in available and d.path.exists()]
    partial = {d.name for d in NUMBER_CARD_DECKS}
    available += [name for name in sorted(partial) if name not in available and DECKS_BY_NAME[name].path.exists()]
    photo = {d.name for d in PHOTO_DECKS}
    redrawn = {d.name for d in RESTYLED_DECKS}
    named_val = [d for d in val_decks.split(",") if d]
    # photo decks (others' photos) are validation decks only: in the default deck list only when --val-decks names them
    wanted = [d for d in decks.split(",") if d] or [d for d in available if (d not in photo or d in named_val)
                                                     and (d not in redrawn or restyled) and d not in partial]
    if redrawn & set(named_val):
        parser.error("restyled decks are for training only (their index fonts are train fonts)")
    if partial & set(named_val) and not unknown_letters:
        parser.error("number-card decks are for training only (their courts or aces are not standard indices)")
    unknown = [d for d in wanted if d not in DECKS_BY_NAME or d not in available]
    if unknown:
        parser.error(f"unknown or missing decks: {', '.join(unknown)}")
    trained_photo = [d for d in wanted if d in photo and d not in named_val]
    if trained_photo:
        parser.error(f"{', '.join(trained_photo)}: decks cut out of others' photos are for validation only "
                     "(name them in --val-decks)")
    val = [d for d in named_val if d in wanted]
    train = [d for d in wanted if d not in val]
    if not train or not val:
        parser.error("need at least one train deck and one val deck")
    return train, val


def _generate_deck_parts(parser: argparse.ArgumentParser, args: argparse.Namespace, parts: tuple[str, ...],
                         command: str, photo_kinds: tuple[tuple[str, float], ...]) -> int:
    if not available_decks(args.cache):
        print("no card decks installed (apt: gnome-cards-data, kdegames-card-data-kf5) or cached", file=sys.stderr)
        return 2
    train, val = train_and_val_decks(parser, args.decks, args.val_decks, args.cache, args.restyled,
                                     args.unknown_letters)

    from vision.synth.dataset import generate

    start = time.time()
    manifest = generate(args.out, args.cache, args.seed, args.tiles, args.crops, args.scenes, args.val_fraction,
                        train, val, args.workers, command, parts=parts, text_sheets=args.text_sheets,
                        photos=args.photos, photo_crops=args.photo_crops, photo_tiles=args.photo_tiles,
                        photo_kinds=photo_kinds, photo_lowres=args.photo_lowres, tile_blur=args.tile_blur,
                        four_colour=args.four_colour, tables=args.tables)
    print(f"done in {time.time() - start:.0f} s: {manifest['counts']['detect']} tiles, "
          f"crops train {manifest['counts']['crops']['train']['total']} val {manifest['counts']['crops']['val']['total']}, "
          f"{manifest['counts']['scenes']['val']} scenes, {manifest['counts']['photos']['val']} photos, "
          f"photo crops train {manifest['counts']['photocrops']['train']['total']} "
          f"val {manifest['counts']['photocrops']['val']['total']}, "
          f"photo tiles {manifest['counts']['phototiles']}, {manifest['counts']['tables']['val']} tables")
    return 0


def _with_opencv_default_limit() -> None:
    """Run again under OpenCV's own decode limit when this process has the reader's lower one.

    `import vision` caps OpenCV's decodes at the reader's 50 MP before cv2 loads (a backstop against hostile
    photos), but rendering a deck's SVG elements decodes larger trusted images, and cv2 reads the cap only once."""
    import os

    from vision.decode import MAX_PIXELS

    if os.environ.get("OPENCV_IO_MAX_IMAGE_PIXELS") == str(MAX_PIXELS):
        env = dict(os.environ, OPENCV_IO_MAX_IMAGE_PIXELS=str(2**30))
        os.execve(sys.executable, [sys.executable, "-m", "vision.synth", *sys.argv[1:]], env)


if __name__ == "__main__":
    _with_opencv_default_limit()
    raise SystemExit(main())
