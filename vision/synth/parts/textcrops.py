"""Part "textcrops": `none` crops of printed / handwritten text on paper sheets, so that "A" in a word
or "10" in a date is not read as a card index. Runs on its own (no decks), into crops/<split>/none/."""
from __future__ import annotations

import math
import time
from pathlib import Path

import cv2
import numpy as np

from vision.crops import NONE_CLASS, index_crop
from vision.synth import fonts, paper, scene, textures
from vision.synth.parts.draws import log_uniform
from vision.synth.parts.manifest import record_entry
from vision.synth.parts.pool import make_pool, run_items
from vision.synth.parts.text_boxes import glyph_weight, sheet_warp, text_box, text_jitter
from vision.synth.parts.worker import SPLITS, Config, config, item_rng

TEXT_PER_SHEET = 16
TEXT_CAP_PX = (9.0, 55.0)  # cap height of the body text on the sheet, before the sheet is warped
TEXT_PREFIX = "text_"
NOTES = (f"48x48 `none` crops named {TEXT_PREFIX}<sheet>_<n>.png: index_crop around one character, two "
         "characters, a character and what lies below it, a letter with a small non-suit mark, or an "
         f"index-sized window on a text line; body text cap height {TEXT_CAP_PX[0]:.0f}-{TEXT_CAP_PX[1]:.0f} px "
         "on the sheet, sheet scaled 0.8-1.2 with rotation and perspective, boxes of 12 px or more; "
         "paper kinds: book page, notes on ruled paper, score sheet, form, calendar, receipt, big letters "
         "with marks; photo effects and JPEG as for the card crops; fonts split by family")


def text_crops_item(args: tuple[str, int, int]) -> int:
    """One paper sheet -> `count` `none` crops around printed / handwritten characters."""
    split, item, count = args
    rng = item_rng("textcrops", split, item)
    cap = log_uniform(rng, *TEXT_CAP_PX)
    ch = int(np.clip(cap * rng.uniform(8, 16), 160, 560))
    cw = int(np.clip(cap * rng.uniform(8, 16), 160, 560))
    fill = rng.random() < 0.7
    grow = rng.uniform(1.2, 1.5) if fill else rng.uniform(0.5, 0.9)
    sh, sw = max(64, int(ch * grow)), max(64, int(cw * grow))
    sheet = paper.document(rng, fonts.fonts_for(split), sh, sw, cap)
    warp = sheet_warp(rng, (sh, sw), (ch, cw), fill)
    table = textures.table(rng, ch, cw)
    warped = cv2.warpPerspective(sheet.image, warp, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpPerspective(np.ones((sh, sw), np.float32), warp, (cw, ch), flags=cv2.INTER_LINEAR)
    shadow = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1, 4))
    img = table * (1 - 0.35 * shadow)[:, :, None]
    img = img * (1 - mask[:, :, None]) + warped.astype(np.float32) * mask[:, :, None]
    scale = float(np.sqrt(abs(np.linalg.det(warp[:2, :2]))))
    strength = float(np.clip(cap * scale * 2 / 25.0, 0.5, 1.0))
    image = scene.jpeg_roundtrip(rng, scene.photo_effects(rng, np.clip(img, 0, 255).astype(np.uint8), strength), (30, 96))
    glyphs = [g for g in sheet.glyphs if 0 <= g.quad[:, 0].min() and g.quad[:, 0].max() <= sw
              and 0 <= g.quad[:, 1].min() and g.quad[:, 1].max() <= sh]
    out = Path(config().out) / "crops" / split / NONE_CLASS
    written = tries = 0
    if glyphs:
        weights = np.array([glyph_weight(g.ch) for g in glyphs])
        weights /= weights.sum()
    while written < count:
        tries += 1
        if glyphs and tries < 40 * count:
            quad = cv2.perspectiveTransform(text_box(rng, sheet, glyphs, weights)[None], warp)[0]
            (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
            size = max(x1 - x0, y1 - y0)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            # Boxes of 12 px and more (the smallest index size), on the paper, with the crop window
            # mostly inside the picture (little replicated border).
            half = 0.7 * size * 0.8
            if (size < 12 or size > 0.8 * min(ch, cw) or not (half <= cx < cw - half and half <= cy < ch - half)
                    or mask[int(cy), int(cx)] < 0.99):
                continue
            box = text_jitter(rng, (x0, y0, x1, y1))
        else:  # a sheet with no usable glyph (rare): index-sized window anywhere on the paper
            side = cap * scale * rng.uniform(1.2, 2.4)
            cx, cy = rng.uniform(0, cw), rng.uniform(0, ch)
            box = (cx - side * 0.35, cy - side / 2, cx + side * 0.35, cy + side / 2)
        cv2.imwrite(str(out / f"{TEXT_PREFIX}{item:06d}_{written:02d}.png"), index_crop(image, box))
        written += 1
    return written


def generate_text_crops(out: Path, seed: int, count: int, val_fraction: float, workers: int, command: str) -> dict:
    """Write `count` text `none` crops (train + val) into out/crops/{train,val}/none/ and record them in
    out/manifest.json under "text_crops" (other manifest entries are kept). Earlier text crops are
    removed first, so a re-run gives exactly `count`."""
    val_n = int(round(count * val_fraction))
    split_counts = {"train": count - val_n, "val": val_n}
    for split in SPLITS:
        folder = out / "crops" / split / NONE_CLASS
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{TEXT_PREFIX}*.png"):
            old.unlink()
    settings = Config(str(out), "", seed, (), ())
    timings, counts = {}, {}
    with make_pool(workers, settings) as pool:
        for split, n in split_counts.items():
            items = [(split, i, min(TEXT_PER_SHEET, n - i * TEXT_PER_SHEET)) for i in range(math.ceil(n / TEXT_PER_SHEET))]
            t = time.time()
            counts[split] = sum(run_items(pool, text_crops_item, items, f"textcrops/{split}"))
            timings[f"textcrops_{split}_s"] = round(time.time() - t, 1)
    entry = {"command": command, "seed": seed, "counts": counts, "timings": timings, "workers": workers,
             **fonts.manifest_record(), "notes": NOTES}
    return record_entry(out, "text_crops", entry, seed, command)
