"""Write the synthetic dataset (layout described in docs/synth.md@538d56c and the dataset contract): the deck
parts detect, crops, scenes and photos, each in its own module under vision/synth/parts/ (the text crops part,
which needs no decks, is parts.textcrops.generate_text_crops)."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vision.synth.decks import DECKS_BY_NAME, render_all
from vision.synth.parts import crops as crops_part, detect as detect_part, photocrops as photocrops_part, photos as photos_part
from vision.synth.parts import phototiles as phototiles_part
from vision.synth.parts import scenes as scenes_part
from vision.synth import table_scenes as tables_part
from vision.synth.parts.manifest import deck_parts_manifest, write_keeping_text_crops
from vision.synth.parts.pool import make_pool
from vision.synth.parts.worker import Config


def _timed(timings: dict, key: str, fn: Callable, *args: Any) -> Any:
    """fn(*args), with its wall time recorded in timings[key] for the manifest."""
    start = time.time()
    result = fn(*args)
    timings[key] = round(time.time() - start, 1)
    return result


def generate(out: Path, cache: Path, seed: int, tiles: int, crops: int, scenes: int, val_fraction: float,
             train_decks: list[str], val_decks: list[str], workers: int, command: str,
             parts: tuple[str, ...] = ("detect", "crops", "scenes"), text_sheets: float = 0.0,
             photos: int = 0, photo_crops: int = 0, photo_tiles: int = 0,
             photo_kinds: tuple[tuple[str, float], ...] = (), photo_lowres: float = 0.0,
             tile_blur: float = 0.0, four_colour: float = 0.0, tables: int = 0) -> dict:
    """Write the dataset; `parts` limits the run to some of detect / crops / scenes / photos / photocrops / phototiles (the others are
    left as they are on disk and only counted). text_sheets: chance per scene of a paper sheet with
    text on the table (0 draws nothing and leaves the random streams as before). photo_kinds: (kind, weight) pairs
    the photo parts draw their photos' kinds from instead of photos.PHOTO_KINDS. photo_lowres: chance that part
    photocrops shrinks and blurs a photo first (photocrops.low_resolution). tile_blur: chance that part phototiles
    blurs a look before cutting its tiles (degrade.unsteady_blur). four_colour: chance that an item's deck is printed
    in four colours (vision.synth.four_colour). tables: whole-table photos of part tables (vision.synth.table_scenes)."""
    render_all(cache, [DECKS_BY_NAME[d] for d in train_decks + val_decks], workers=workers)
    for part in (detect_part, crops_part, scenes_part, photos_part, photocrops_part, phototiles_part):
        part.make_folders(out)
    if "tables" in parts:
        tables_part.make_folders(out)
    config = Config(str(out), str(cache), seed, tuple(train_decks), tuple(val_decks), text_sheets,
                    tuple(photo_kinds), photo_lowres, tile_blur, four_colour=four_colour)
    fractions = (("train", 1 - val_fraction), ("val", val_fraction))
    timings: dict[str, float] = {}
    counts: dict = {"detect": {}, "crops": {}, "scenes": {}, "photos": {}, "photocrops": {}, "phototiles": {}, "tables": {}}
    with make_pool(workers, config) as pool:
        for split, frac in fractions:
            counts["detect"][split] = (_timed(timings, f"detect_{split}_s", detect_part.write, pool, split, tiles * frac)
                                       if "detect" in parts else detect_part.on_disk(out, split))
        for split, frac in fractions:
            counts["crops"][split] = (_timed(timings, f"crops_{split}_s", crops_part.write, pool, split, crops * frac)
                                      if "crops" in parts else crops_part.on_disk(out, split))
        counts["scenes"]["val"] = (_timed(timings, "scenes_val_s", scenes_part.write, pool, scenes)
                                   if "scenes" in parts else scenes_part.on_disk(out))
        counts["photos"]["val"] = (_timed(timings, "photos_val_s", photos_part.write, pool, photos)
                                   if "photos" in parts else photos_part.on_disk(out))
        for split, frac in fractions:
            counts["photocrops"][split] = (_timed(timings, f"photocrops_{split}_s", photocrops_part.write, pool, split,
                                                  photo_crops * frac)
                                           if "photocrops" in parts else photocrops_part.on_disk(out, split))
        for split, frac in fractions:
            counts["phototiles"][split] = (_timed(timings, f"phototiles_{split}_s", phototiles_part.write, pool, split,
                                                  photo_tiles * frac)
                                           if "phototiles" in parts else phototiles_part.on_disk(out, split))
        counts["tables"]["val"] = (_timed(timings, "tables_val_s", tables_part.write, pool, tables)
                                   if "tables" in parts else tables_part.on_disk(out))
    detect_part.write_data_yaml(out)
    phototiles_part.write_data_yaml(out)
    manifest = deck_parts_manifest(seed, command, train_decks, val_decks, counts, timings, workers, parts, text_sheets,
                                    photo_kinds, photo_lowres, tile_blur, four_colour)
    write_keeping_text_crops(out, manifest)
    return manifest
