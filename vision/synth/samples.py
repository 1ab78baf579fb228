"""Render the small demo/test photos committed in sample_images/.

- layout_p1.jpg .. layout_p4.jpg: four players' 3/5/5 layouts dealt from one deck (disjoint cards);
  p2 is rotated 90 degrees, p3 upside down, p4 at a slant with perspective.
- loose.jpg: eight loose cards at random angles.
- rows_four_corners.jpg (session 24): a 3/5/5 layout, overlapped, of a deck printed with an index in all four corners
  (dondorf), turned 200 degrees.
- NAME.json next to each photo: the rows (canonical: front row = the 3-card row; codes left to right
  as seen with the front row at the top), or for loose.jpg only the card codes (no "rows" key).
"""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES
from vision.synth import layouts, scene
from vision.synth.bank import DeckFaces, load_deck_faces
from vision.synth.decks import DECKS_BY_NAME, render_deck
from vision.synth.four_colour import four_colour_faces
from vision.synth.parts.framing import centre_layout

SAMPLE_DECK = "kde_standard"
FOUR_CORNER_DECK = "dondorf"
QUALITY = 80


def _write_small_jpeg(path: Path, image: np.ndarray, max_bytes: int = 290_000) -> None:
    """JPEG at the highest quality (from QUALITY down) that keeps the file under max_bytes."""
    for quality in range(QUALITY, 30, -5):
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok and len(data) <= max_bytes:
            break
    path.write_bytes(data.tobytes())


def _fit_camera(rng: np.random.Generator, layout: layouts.Layout, size: tuple[int, int], yaw: float,
                elevation: tuple[float, float], fill: float) -> np.ndarray:
    extent = centre_layout(layout)
    w, h = size
    cam = scene.make_camera(rng, extent, 100.0, size, elevation_range=elevation, yaw=yaw)
    pts = np.array([[[c.x + dx, c.y + dy] for c in layout.cards for dx in (-0.5, 0.5) for dy in (-0.6, 0.6)]], np.float64)
    proj = cv2.perspectiveTransform(pts, cam)[0]
    span = max((proj[:, 0].max() - proj[:, 0].min()) / w, (proj[:, 1].max() - proj[:, 1].min()) / h)
    s = fill / span
    c = proj.mean(axis=0)
    return np.array([[s, 0, w / 2 - s * c[0]], [0, s, h / 2 - s * c[1]], [0, 0, 1.0]]) @ cam


def write_samples(folder: Path, cache: Path, seed: int = 0) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    deck_info = DECKS_BY_NAME[SAMPLE_DECK]
    render_deck(deck_info, cache)
    deck = load_deck_faces(cache, deck_info)
    rng = np.random.default_rng([seed, 7])
    order = [CARD_CODES[i] for i in rng.permutation(52)]
    truth: dict = {"deck": SAMPLE_DECK, "photos": {}}
    # (file, yaw in degrees, image size, elevation range)
    players = [("layout_p1.jpg", 0.0, (1400, 1050), (80, 90)),
               ("layout_p2.jpg", 90.0, (1050, 1400), (80, 90)),
               ("layout_p3.jpg", 180.0, (1400, 1050), (75, 90)),
               ("layout_p4.jpg", 23.0, (1400, 1050), (55, 65))]
    for p, (name, yaw, size, elevation) in enumerate(players):
        codes = order[13 * p:13 * (p + 1)]
        layout = layouts.rows_335(rng, deck.aspect, codes=codes, overlapped=(p == 3))
        cam = _fit_camera(rng, layout, size, yaw, elevation, 0.8)
        sc = scene.render_layout(rng, layout, deck, cam, size)
        image = scene.photo_effects(rng, sc.image, strength=0.35)
        _write_small_jpeg(folder / name, image)
        truth["photos"][name] = {"rows": layout.rows, "rotation_deg": yaw, "deck": SAMPLE_DECK,
                                 "visible_indices": len(sc.visible_labels())}
    loose_codes = [CARD_CODES[i] for i in rng.permutation(52)[:8]]
    cards = []
    for i, code in enumerate(loose_codes):
        cards.append(layouts.Placed(code, (i % 4) * 1.1 + rng.uniform(-0.1, 0.1), (i // 4) * 1.4 + rng.uniform(-0.1, 0.1),
                                    float(rng.uniform(-180, 180))))
    layout = layouts.Layout(cards, deck.aspect)
    cam = _fit_camera(rng, layout, (1400, 1050), 0.0, (75, 90), 0.8)
    sc = scene.render_layout(rng, layout, deck, cam, (1400, 1050))
    image = scene.photo_effects(rng, sc.image, strength=0.35)
    _write_small_jpeg(folder / "loose.jpg", image)
    truth["photos"]["loose.jpg"] = {"cards": sorted(loose_codes), "deck": SAMPLE_DECK,
                                    "visible_indices": len(sc.visible_labels())}
    truth["photos"].update(write_four_corner_sample(folder, cache, seed))
    truth["photos"].update(write_four_colour_sample(folder, cache, seed))
    for name, info in truth["photos"].items():
        (folder / name).with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n")
    return truth


def write_four_corner_sample(folder: Path, cache: Path, seed: int = 0) -> dict:
    """rows_four_corners.jpg (its own random stream, so the other samples are drawn as before); returns its truth
    (the caller writes the JSON)."""
    deck_info = DECKS_BY_NAME[FOUR_CORNER_DECK]
    render_deck(deck_info, cache)
    deck = load_deck_faces(cache, deck_info)
    return _write_overlapped_layout(folder / "rows_four_corners.jpg", deck, np.random.default_rng([seed, 8]),
                                    200.0, (70, 85))


def write_four_colour_sample(folder: Path, cache: Path, seed: int = 0) -> dict:
    """rows_four_colours.jpg: a layout of the sample deck printed in four colours (vision.synth.four_colour),
    diamonds blue and clubs green, from its own random stream; returns its truth (the caller writes the JSON)."""
    deck_info = DECKS_BY_NAME[SAMPLE_DECK]
    render_deck(deck_info, cache)
    deck = four_colour_faces(load_deck_faces(cache, deck_info))
    return _write_overlapped_layout(folder / "rows_four_colours.jpg", deck, np.random.default_rng([seed, 9]),
                                    10.0, (75, 90))


def _write_overlapped_layout(path: Path, deck: DeckFaces, rng: np.random.Generator, yaw: float,
                             elevation: tuple[float, float]) -> dict:
    """A 1400 x 1050 photo of 13 cards dealt by `rng` in overlapped 3/5/5 rows, turned `yaw`; returns its truth."""
    codes = [CARD_CODES[i] for i in rng.permutation(52)[:13]]
    layout = layouts.rows_335(rng, deck.aspect, codes=codes, overlapped=True)
    size = (1400, 1050)
    cam = _fit_camera(rng, layout, size, yaw, elevation, 0.8)
    sc = scene.render_layout(rng, layout, deck, cam, size)
    image = scene.photo_effects(rng, sc.image, strength=0.35)
    _write_small_jpeg(path, image)
    truth = {"rows": layout.rows, "rotation_deg": yaw, "deck": deck.deck.name}
    if deck.four_colour:
        truth["four_colour"] = True
    return {path.name: {**truth, "visible_indices": len(sc.visible_labels())}}
