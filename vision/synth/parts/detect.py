"""Part "detect": 320x320 JPEG tiles cut from scenes, with YOLO labels (class 0 = index)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import layouts, scene
from vision.synth.parts.draws import choose, log_uniform
from vision.synth.parts.framing import framed_scene
from vision.synth.parts.pool import run_items
from vision.synth.parts.worker import SPLITS, config, item_deck, item_rng

TILE = 320
TILE_INDEX_PX = (10.0, 45.0)
# A few close-up tiles (a single card photographed from near, shrunk less than a layout photo), so
# the detector also finds indices larger than the contract's 10-45 px range.
CLOSEUP_INDEX_PX = (45.0, 90.0)
CLOSEUP_SHARE = 0.08
DETECT_KINDS = [("rows", 0.45), ("hand", 0.15), ("scattered", 0.2), ("single", 0.12), ("empty", 0.08)]
TILES_PER_SCENE = 3
NOTES = (f"{TILE}x{TILE} JPEG tiles, YOLO labels class 0 = index, index boxes {TILE_INDEX_PX[0]:.0f}-"
         f"{TILE_INDEX_PX[1]:.0f} px tall at scene scale (about {CLOSEUP_SHARE:.0%} close-up scenes with "
         f"{CLOSEUP_INDEX_PX[0]:.0f}-{CLOSEUP_INDEX_PX[1]:.0f} px); labelled where >= 60% of the index is "
         "uncovered and inside the tile")


def tile_labels(visible: list[scene.IndexLabel], x0: int, y0: int) -> list[str]:
    """YOLO lines for the indices whose visible part inside the tile is large enough."""
    lines = []
    for lab in visible:
        bx1, by1, bx2, by2 = lab.box
        area = (bx2 - bx1) * (by2 - by1)
        cx1, cy1 = max(bx1, x0), max(by1, y0)
        cx2, cy2 = min(bx2, x0 + TILE), min(by2, y0 + TILE)
        if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < scene.VISIBLE_FRACTION * area:
            continue
        lines.append(f"0 {((cx1 + cx2) / 2 - x0) / TILE:.6f} {((cy1 + cy2) / 2 - y0) / TILE:.6f} "
                     f"{(cx2 - cx1) / TILE:.6f} {(cy2 - cy1) / TILE:.6f}")
    return lines


def tile_origin(rng: np.random.Generator, labels: list[scene.IndexLabel], shape: tuple[int, ...]) -> tuple[int, int]:
    """Top-left corner of a tile in a picture of `shape`: mostly near an index, else anywhere (table, card art)."""
    h, w = shape[:2]
    if labels and rng.random() < 0.85:
        lab = labels[rng.integers(len(labels))]
        cx, cy = (lab.box[0] + lab.box[2]) / 2, (lab.box[1] + lab.box[3]) / 2
        return (int(np.clip(cx - rng.uniform(0.1, 0.9) * TILE, 0, w - TILE)),
                int(np.clip(cy - rng.uniform(0.1, 0.9) * TILE, 0, h - TILE)))
    return int(rng.integers(0, w - TILE + 1)), int(rng.integers(0, h - TILE + 1))


def detect_item(args: tuple[str, int, int]) -> int:
    """One scene -> up to `per_scene` tiles; returns the number written."""
    split, item, per_scene = args
    rng = item_rng("detect", split, item)
    faces = item_deck("detect", split, item)
    kind = choose(rng, DETECT_KINDS)
    layout = layouts.KINDS[kind](rng, faces.aspect)
    closeup = kind in ("single", "scattered", "hand") and rng.random() < CLOSEUP_SHARE / 0.47
    index_px = log_uniform(rng, *(CLOSEUP_INDEX_PX if closeup else TILE_INDEX_PX))
    sc = framed_scene(rng, layout, faces, index_px, 1400, TILE, split)
    image = scene.photo_effects(rng, sc.image)
    visible = sc.visible_labels()
    out = Path(config().out) / "detect"
    for t in range(per_scene):
        x0, y0 = tile_origin(rng, visible, image.shape)
        tile = image[y0:y0 + TILE, x0:x0 + TILE]
        lines = tile_labels(visible, x0, y0)
        name = f"{item * per_scene + t:06d}"
        save_tile(out, split, name, tile, lines, int(rng.integers(40, 96)))
    return per_scene


def save_tile(part_dir: Path, split: str, name: str, tile: np.ndarray, lines: list[str], quality: int) -> None:
    """A tile as JPEG in <part>/images/<split>/ and its YOLO lines in <part>/labels/<split>/ (shared by the tile parts)."""
    cv2.imwrite(str(part_dir / "images" / split / f"{name}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (part_dir / "labels" / split / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))


def make_tile_folders(part_dir: Path) -> None:
    for split in SPLITS:
        (part_dir / "images" / split).mkdir(parents=True, exist_ok=True)
        (part_dir / "labels" / split).mkdir(parents=True, exist_ok=True)


def tiles_on_disk(part_dir: Path, split: str) -> int:
    return len(list((part_dir / "images" / split).glob("*.jpg")))


def write_tiles_yaml(part_dir: Path) -> None:
    """The ultralytics data.yaml of a tile part (one class, index)."""
    (part_dir / "data.yaml").write_text(
        f"path: {part_dir.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n")


def make_folders(out: Path) -> None:
    make_tile_folders(out / "detect")


def write(pool: Any, split: str, tiles: float) -> int:
    """About `tiles` tiles of one split (whole scenes of TILES_PER_SCENE); returns the number written."""
    n = int(math.ceil(tiles / TILES_PER_SCENE))
    return sum(run_items(pool, detect_item, [(split, i, TILES_PER_SCENE) for i in range(n)], f"detect/{split}"))


def on_disk(out: Path, split: str) -> int:
    """Tiles left by an earlier run (the part is not regenerated)."""
    return tiles_on_disk(out / "detect", split)


def write_data_yaml(out: Path) -> None:
    write_tiles_yaml(out / "detect")
