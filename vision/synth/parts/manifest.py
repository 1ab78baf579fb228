"""The dataset's manifest.json: what the deck parts wrote, from which decks, by which command."""
from __future__ import annotations

import json
from pathlib import Path

from vision.crops import CARD_CODES, CLASS_NAMES
from vision.synth.decks import DECKS_BY_NAME
from vision.synth.parts import crops, detect, photocrops, photos, phototiles, scenes

GENERATOR_VERSION = "2"
MANIFEST = "manifest.json"


def deck_parts_manifest(seed: int, command: str, train_decks: list[str], val_decks: list[str], counts: dict,
                        timings: dict, workers: int, parts: tuple[str, ...], text_sheets: float,
                        photo_kinds: tuple[tuple[str, float], ...] = (), photo_lowres: float = 0.0,
                        tile_blur: float = 0.0, four_colour: float = 0.0) -> dict:
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "command": command,
        "decks": {
            split: [{"name": d, "package": DECKS_BY_NAME[d].package, "license": DECKS_BY_NAME[d].license,
                     "file": str(DECKS_BY_NAME[d].path)} for d in names]
            for split, names in (("train", train_decks), ("val", val_decks))
        },
        "classes": CLASS_NAMES,
        "card_codes": CARD_CODES,
        "counts": counts,
        "timings": timings,
        "workers": workers,
        "parts_generated_by_this_command": list(parts),
        "notes": {"detect": detect.NOTES, "crops": crops.NOTES, "scenes": scenes.NOTES, "photos": photos.NOTES,
                  "photocrops": photocrops.NOTES,
                  "phototiles": phototiles.NOTES},
    }
    if text_sheets:
        manifest["notes"]["text_sheets"] = (f"about {text_sheets:.0%} of scenes have a paper sheet with text (fonts of "
                                            "the split) beside or under the cards; text is never labelled")
    manifest["text_sheets"] = text_sheets
    if photo_kinds:
        manifest["notes"]["photo_kinds"] = (f"the photo parts drew their photos' kinds from {dict(photo_kinds)} "
                                            f"instead of {dict(photos.PHOTO_KINDS)}")
        manifest["photo_kinds"] = dict(photo_kinds)
    if photo_lowres:
        manifest["notes"]["photo_lowres"] = (f"part photocrops shrank about {photo_lowres:.0%} of its photos so their "
                                             f"median index is {photocrops.LOWRES_INDEX_PX[0]:.0f}-"
                                             f"{photocrops.LOWRES_INDEX_PX[1]:.0f} px tall and blurred them (sigma up "
                                             f"to {photocrops.LOWRES_BLUR_SHARE:.0%} of that) before cropping")
        manifest["photo_lowres"] = photo_lowres
    if tile_blur:
        manifest["notes"]["tile_blur"] = (f"part phototiles blurred about {tile_blur:.0%} of its looks before "
                                          f"cutting tiles: {phototiles.BLUR_NOTES}")
        manifest["tile_blur"] = tile_blur
    if four_colour:
        manifest["notes"]["four_colour"] = (f"about {four_colour:.0%} of the items were drawn with their deck printed "
                                            "in four colours: diamonds blue, clubs green (vision.synth.four_colour)")
        manifest["four_colour"] = four_colour
    return manifest


OWN_ENTRIES = ("text_crops", "font_crops")  # written by the parts that need no decks


def write_keeping_text_crops(out: Path, manifest: dict) -> None:
    """Write the manifest, keeping the records of an earlier --parts textcrops / fontcrops run."""
    previous = out / MANIFEST
    if previous.exists():
        try:
            old = json.loads(previous.read_text())
        except ValueError:
            old = {}
        for key in OWN_ENTRIES:
            if old.get(key):
                manifest[key] = old[key]
    previous.write_text(json.dumps(manifest, indent=1))


def record_entry(out: Path, key: str, entry: dict, seed: int, command: str) -> dict:
    """Set manifest[key] = entry in out/manifest.json (other entries are kept; a new manifest gets the
    run's seed, command and classes); returns the whole manifest."""
    path = out / MANIFEST
    manifest = json.loads(path.read_text()) if path.exists() else {
        "generator_version": GENERATOR_VERSION, "seed": seed, "command": command, "classes": CLASS_NAMES}
    manifest[key] = entry
    path.write_text(json.dumps(manifest, indent=1))
    return manifest
