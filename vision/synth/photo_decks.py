"""Decks cut out of real photos of single cards (the dev photos in ../shared), for measuring the reader on real
card art in every kind of layout (fans, rows, scattered) that those photos lack (the decks: decks.PHOTO_DECKS;
a card a deck's photos lack is borrowed from another photo deck, BORROWED_FACES).

Each card is cut out of its photo (the largest light outline shaped like a card, simplified to its quadrilateral),
straightened to portrait and written into the deck cache as a face with its index boxes, so the generator composes it
like a rendered SVG face. These decks are validation decks only: the photos are others' and stay outside the project,
and nothing trains on them (`train_and_val_decks` keeps them out of the train split, `cache_pack` leaves them behind).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CARD_CODES
from vision.evaluation.datasets import DEFAULT_DEV_PHOTOS, corrected_code, dev_labels, is_heldout_webcam
from vision.synth.bank import INDEX_BOXES_FILE, faces_fingerprint
from vision.synth.decks import CARD_HEIGHT, DECKS_BY_NAME, Deck, DeckError
from vision.synth.indices import find_deck_indices, find_other_corner_indices, rotate_box_180

ANALYSIS_LONG_SIDE = 1000  # the outline is found on a copy this long (the cut is made at full resolution)
MIN_CARD_SHARE, MAX_CARD_SHARE = 0.03, 0.8  # the share of the photo a card's outline covers
THRESHOLDS = range(235, 105, -10)  # grey levels tried for the card's outline
RECTANGULARITY = 0.93  # the card's outline fills at least this share of its minimum-area rectangle
CARD_ASPECT = (0.6, 0.8)  # width / height of a playing card (poker 0.714, bridge 0.636), with slack
# deck -> the photo deck that lends the faces its own photos lack (the phone singles have no JH)
BORROWED_FACES = {"real_phone": "real_webcam"}
SYMMETRY_SLACK = 0.25  # an index box's sides may lie this share of its size off the place symmetry gives them
INSET = 0.006  # share of each side trimmed off the cut, so that no table shows along the edges
STRETCH_PERCENTILES = (1, 99)  # grey levels of a face made black and white for the index finder
QUAD_TOLERANCE = 0.02  # the outline is simplified to a quadrilateral within this share of its length
CHOICE_ROUNDS = 3  # photos tried in turn for a card whose cut-out has its indices out of place


def _card_outline(image: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The card's outline in a BGR photo (a contour in the analysis copy's pixels), that copy's scale, and the share
    of the photo the card covers; DeckError when no light outline is card-shaped.

    The table may be light too (a webcam's grey desk), so one threshold does not part card from table: every grey
    level from light to middling is tried, and the largest outline that is card-shaped (CARD_ASPECT) and fills its
    minimum-area rectangle (RECTANGULARITY) wins."""
    h, w = image.shape[:2]
    factor = min(1.0, ANALYSIS_LONG_SIDE / max(h, w))
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else image
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    area = small.shape[0] * small.shape[1]
    best = None
    for level in THRESHOLDS:
        mask = cv2.morphologyEx((grey >= level).astype(np.uint8) * 255, cv2.MORPH_CLOSE,
                                np.ones((9, 9), np.uint8))  # pips and art inside the card
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for outline in contours:
            share = cv2.contourArea(outline) / area
            if share < MIN_CARD_SHARE or share > MAX_CARD_SHARE or (best is not None and share <= best[2]):
                continue
            (rw, rh) = cv2.minAreaRect(outline)[1]
            if (CARD_ASPECT[0] <= min(rw, rh) / max(rw, rh, 1e-9) <= CARD_ASPECT[1]
                    and cv2.contourArea(outline) >= RECTANGULARITY * rw * rh):
                best = (outline, factor, share)
    if best is None:
        raise DeckError("no card-shaped light outline in the photo")
    return best


def _corners(outline: np.ndarray) -> np.ndarray:
    """The card's four corners: the outline simplified to a quadrilateral where it is one (a card seen a little off
    square is not a rectangle), else its minimum-area rectangle; pulled in by INSET toward the middle."""
    quad = cv2.approxPolyDP(outline, QUAD_TOLERANCE * cv2.arcLength(outline, True), True).reshape(-1, 2)
    if len(quad) != 4 or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        quad = cv2.boxPoints(cv2.minAreaRect(outline))
    quad = quad.astype(np.float32)
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * (1 - 2 * INSET)


def cut_out_card(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The one card of a BGR photo, straightened to portrait CARD_HEIGHT px tall, as BGRA, and the share of the photo it
    covers; DeckError when no card-shaped light outline is found. A one-pixel frame is left transparent, so that the
    index finder treats the cut's edge as the card's outline (decks rendered from SVG have one)."""
    outline, factor, share = _card_outline(image)
    face = _straightened(image, _corners(outline) / factor)
    face[0, :, 3] = face[-1, :, 3] = face[:, 0, 3] = face[:, -1, 3] = 0
    return face, share


def _stretched(face: np.ndarray) -> np.ndarray:
    """A copy of a BGRA face for the index finder, its grey levels stretched so that its darkest ink is black and its
    paper white (STRETCH_PERCENTILES): a photo's exposure can leave the ink faint (a washed-out 7 that the finder
    missed). Only the finder sees it: the face keeps the photo's colours (stretched, a webcam's dull red pips turn
    nearly black)."""
    grey = cv2.cvtColor(face[:, :, :3], cv2.COLOR_BGR2GRAY)
    low, high = np.percentile(grey, STRETCH_PERCENTILES)
    stretched = face.copy()
    stretched[:, :, :3] = np.clip((face[:, :, :3].astype(np.float32) - low) * (255.0 / max(high - low, 1.0)), 0, 255)
    return stretched


def _straightened(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The quadrilateral `corners` (4x2, in order around it) warped upright to a portrait card, without mirroring."""
    corners = np.asarray(corners, np.float32)
    # walk the corners clockwise (image y points down), starting where the next side is a short one
    centre = corners.mean(axis=0)
    order = np.argsort(np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0]))
    corners = corners[order]
    sides = [np.linalg.norm(corners[(i + 1) % 4] - corners[i]) for i in range(4)]
    start = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1
    corners = np.roll(corners, -start, axis=0)
    short = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[3] - corners[2])) / 2
    long = (np.linalg.norm(corners[2] - corners[1]) + np.linalg.norm(corners[0] - corners[3])) / 2
    width = int(round(CARD_HEIGHT * short / long))
    target = np.float32([[0, 0], [width, 0], [width, CARD_HEIGHT], [0, CARD_HEIGHT]])
    warp = cv2.getPerspectiveTransform(corners, target)
    face = cv2.warpPerspective(image, warp, (width, CARD_HEIGHT), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    return np.dstack([face, np.full(face.shape[:2], 255, np.uint8)])


def _photos_of(dev_photos: Path, folder: str) -> dict[str, list[Path]]:
    """Card code -> its photos in one dev-photos folder, as the photos show them (labels corrected); of the webcam
    singles only those held out of the classifier's training."""
    photos: dict[str, list[Path]] = {}
    for name, codes in sorted(dev_labels(dev_photos).items()):
        if name.startswith("webcam-singles/") and not is_heldout_webcam(name):
            continue  # the classifier trained on crops of the other webcam photos (vision.training.real_crops)
        if name.startswith(folder + "/") and len(codes) == 1 and codes[0] in CARD_CODES:
            photos.setdefault(corrected_code(name, codes[0]), []).append(dev_photos / name)
    return photos


def build_photo_deck(deck: Deck, cache_dir: Path, dev_photos: Path = DEFAULT_DEV_PHOTOS) -> Path:
    """Cut the deck's 52 faces out of its photos into cache_dir/<deck>/<code>.png with their index boxes (skipped when
    cached). Where a card has several photos the largest cut-out (the card nearest the camera) is tried first, and
    the next one when its two indices do not lie point-symmetrically (a cut through a shadow or off the card's edge).
    A card the photos lack is the lending deck's face with its boxes (BORROWED_FACES)."""
    out = cache_dir / deck.name
    if (out / "done.json").exists():
        return out
    folder = dev_photos / deck.file
    if not (dev_photos / "labels.json").exists():
        raise DeckError(f"{dev_photos} has no labels.json (the dev photos are not beside the project)")
    photos = _photos_of(dev_photos, deck.file)
    lacking = [code for code in CARD_CODES if code not in photos]
    lender = DECKS_BY_NAME[BORROWED_FACES[deck.name]] if deck.name in BORROWED_FACES else None
    if lacking and lender is None:
        raise DeckError(f"{folder} lacks photos of {', '.join(lacking)}")
    lent_boxes = {}
    if lacking:
        lender_dir = build_photo_deck(lender, cache_dir, dev_photos)
        lent_boxes = {code: boxes for code, boxes in json.loads((lender_dir / INDEX_BOXES_FILE).read_text())[
            "boxes"].items() if code in lacking}
    out.mkdir(parents=True, exist_ok=True)
    own = [code for code in CARD_CODES if code in photos]
    candidates = {code: _cut_outs_by_size(photos[code], folder, code) for code in own}
    chosen = {code: 0 for code in own}
    for code in own:
        cv2.imwrite(str(out / f"{code}.png"), cut_out_card(cv2.imread(str(candidates[code][0])))[0])
    for code in lacking:
        shutil.copyfile(lender_dir / f"{code}.png", out / f"{code}.png")
    for round_number in range(CHOICE_ROUNDS + 1):
        raw = {code: cv2.imread(str(out / f"{code}.png"), cv2.IMREAD_UNCHANGED) for code in CARD_CODES}
        boxes = find_deck_indices({code: _stretched(face) for code, face in raw.items()})
        skewed = [code for code in own if not _point_symmetric(boxes[code], raw[code].shape)
                  and chosen[code] + 1 < len(candidates[code])]
        if not skewed or round_number == CHOICE_ROUNDS:
            break
        for code in skewed:
            chosen[code] += 1
            cv2.imwrite(str(out / f"{code}.png"), cut_out_card(cv2.imread(str(candidates[code][chosen[code]])))[0])
    for code, face in raw.items():
        if code in lent_boxes:  # found in the lender's index window, not this deck's
            boxes[code] = [tuple(box) for box in lent_boxes[code]]
            continue
        if not _point_symmetric(boxes[code], face.shape):  # no better photo: the top-left index turned round
            boxes[code] = [boxes[code][0], rotate_box_180(boxes[code][0], face.shape[1], face.shape[0])]
        boxes[code] += find_other_corner_indices(_stretched(face), boxes[code][0])  # real decks' aces may have four
    (out / INDEX_BOXES_FILE).write_text(json.dumps({"faces": faces_fingerprint(raw), "boxes": {
        code: [[int(v) for v in box] for box in corners] for code, corners in boxes.items()}}))
    (out / "done.json").write_text(json.dumps({"deck": deck.name, "photos": {
        code: candidates[code][chosen[code]].name for code in own},
        "borrowed": {code: lender.name for code in lacking}}))
    return out


def _cut_outs_by_size(paths: list[Path], folder: Path, code: str) -> list[Path]:
    """The photos a card can be cut out of, the largest cut first."""
    sized = []
    for path in paths:
        image = cv2.imread(str(path))
        if image is None:
            continue
        try:
            sized.append((_card_outline(image)[2], path))
        except DeckError:
            continue
    if not sized:
        raise DeckError(f"no card could be cut out of the photos of {code} in {folder}")
    return [path for _, path in sorted(sized, key=lambda item: -item[0])]


def _point_symmetric(boxes: list, shape: tuple[int, ...]) -> bool:
    """Whether the bottom-right index box is the top-left one turned 180 degrees, within SYMMETRY_SLACK of its size."""
    top_left, bottom_right = boxes[0], boxes[1]
    turned = rotate_box_180(top_left, shape[1], shape[0])
    size = max(top_left[2] - top_left[0], top_left[3] - top_left[1])
    return all(abs(a - b) <= SYMMETRY_SLACK * size for a, b in zip(turned, bottom_right))
