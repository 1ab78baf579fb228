"""Finding and loading the evaluation sets: synthetic val scenes/tiles and the real dev photos."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DEV_PHOTOS = REPO_ROOT.parent / "shared" / "dev-photos"
DEFAULT_DATA_ROOT = Path("/work/data")
# Webcam single-card photos numbered <code>_<nn>.jpg with nn divisible by this are held out of the
# classifier's real-crop training (vision.training.real_crops); the evaluation reads only those.
WEBCAM_HELDOUT_EVERY = 4


def is_heldout_webcam(name: str) -> bool:
    """Whether a webcam-singles photo name is held out of training (see WEBCAM_HELDOUT_EVERY)."""
    number = re.search(r"_(\d+)\.[A-Za-z]+$", name)
    return number is not None and int(number.group(1)) % WEBCAM_HELDOUT_EVERY == 0


# A labelled index (>= 60 % uncovered) is legible unless its suit glyph's band is mostly covered (the card cannot be
# told from it) or the photo effects washed its ink out (glare). Illegible ones are ignored by the figures
# "(legible indices)": reading them is neither required nor, when named right, wrong (docs/reader.md).
SUIT_HIDDEN_BELOW = 0.3
CONTRAST_LOST_BELOW = 0.2


def index_legible(suit_visible: float, contrast_kept: float) -> bool:
    return suit_visible >= SUIT_HIDDEN_BELOW and contrast_kept >= CONTRAST_LOST_BELOW


@dataclass(frozen=True)
class Scene:
    image: Path
    rows: dict[str, list[str]] | None  # None: no 3/5/5 layout (a fan, scattered or single cards)
    index_boxes: np.ndarray  # (N,4) all visible index boxes
    card_indices: list[tuple[str, list[list[float]]]]  # (code, its visible index boxes) per card
    kind: str = "rows"
    # per card, whether each of its visible index boxes is legible (index_legible); None: not labelled (older sets)
    legible: list[list[bool]] | None = None

    def legible_indices(self) -> list[tuple[str, list[list[float]]]]:
        """(code, its legible index boxes) per card; every visible box when legibility is not labelled."""
        if self.legible is None:
            return self.card_indices
        return [(code, [box for box, ok in zip(boxes, flags) if ok])
                for (code, boxes), flags in zip(self.card_indices, self.legible)]


def subsample(items: list, limit: int | None) -> list:
    """At most `limit` items, spread evenly over the list (deterministic)."""
    if not limit or len(items) <= limit:
        return items
    picks = np.linspace(0, len(items) - 1, limit).round().astype(int)
    return [items[i] for i in sorted(set(picks))]


def newest_synth_root(data_root: Path = DEFAULT_DATA_ROOT, needs: tuple[str, ...] = ("scenes/val/*.json",),
                      prefix: str = "synth-v") -> Path | None:
    """The <prefix>N folder (synth-vN; synth-real-vN for the real decks' photos) with the highest N that already holds
    files matching every pattern in `needs` (a dataset still being generated has empty folders)."""
    candidates = []
    for folder in data_root.glob(f"{prefix}*"):
        suffix = folder.name.removeprefix(prefix)
        if suffix.isdigit() and all(next(folder.glob(pattern), None) is not None for pattern in needs):
            candidates.append((int(suffix), folder))
    return max(candidates)[1] if candidates else None


def load_scenes(folder: Path) -> list[Scene]:
    scenes = []
    for label_file in sorted(folder.glob("*.json")):
        image = next((label_file.with_suffix(ext) for ext in (".jpg", ".png", ".jpeg", ".webp")
                      if label_file.with_suffix(ext).is_file()), None)
        if image is None:
            continue
        truth = json.loads(label_file.read_text())
        boxes = [box for card in truth.get("cards", []) for box in card.get("indices", [])]
        cards = [(card["code"], card.get("indices", [])) for card in truth.get("cards", [])]
        legible = None
        if all("suit_visible" in card for card in truth.get("cards", [])):
            legible = [[index_legible(suit, contrast) for suit, contrast in zip(
                card["suit_visible"], card.get("contrast_kept", [1.0] * len(card["suit_visible"])))]
                for card in truth.get("cards", [])]
        scenes.append(Scene(image, truth.get("rows"), np.array(boxes, np.float64).reshape(-1, 4), cards,
                            truth.get("kind", "rows"), legible))
    return scenes


def read_simple_yaml(path: Path) -> dict[str, str]:
    """Top-level `key: value` pairs of an ultralytics data.yaml (no PyYAML at run time)."""
    values = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith((" ", "\t", "#")) and ":" in line:
            key, _, value = line.partition(":")
            values[key.strip()] = value.split("#")[0].strip().strip("'\"")
    return values


def detector_val_tiles(data_yaml: Path) -> list[tuple[Path, Path]]:
    """(image, YOLO label file) pairs of the detector's validation split."""
    config = read_simple_yaml(data_yaml)
    root = Path(config.get("path") or data_yaml.parent)
    if not root.is_absolute():
        root = data_yaml.parent / root
    images = root / config.get("val", "images/val")
    pairs = []
    for image in sorted(images.glob("*")):
        if image.suffix.lower() in (".jpg", ".jpeg", ".png", ".webp"):
            parts = list(image.parent.parts)
            last = len(parts) - 1 - parts[::-1].index("images") if "images" in parts else None
            if last is not None:
                parts[last] = "labels"
            label = Path(*parts) / (image.stem + ".txt")
            pairs.append((image, label))
    return pairs


def yolo_label_boxes(label_file: Path, width: int, height: int) -> np.ndarray:
    """Pixel x1y1x2y2 boxes from a YOLO label file (missing file = no boxes)."""
    if not label_file.is_file():
        return np.zeros((0, 4))
    rows = [line.split() for line in label_file.read_text().splitlines() if line.strip()]
    data = np.array([[float(v) for v in row[1:5]] for row in rows], np.float64).reshape(-1, 4)
    cx, cy, w, h = data[:, 0] * width, data[:, 1] * height, data[:, 2] * width, data[:, 3] * height
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)


# Dev-photo labels found wrong by looking at the photo: name -> (label, what the photo shows, evidence); a single's
# card code, or an edje-multi card's rank (the photo's card labelled with that rank). The evaluation reports singles
# both as labelled and with these corrected; edje-multi figures count what the photos show.
LABEL_CORRECTIONS: dict[str, tuple[str, str, str]] = {
    "phone-singles/JH.jpg": ("JH", "JS", "both corner indices read J with a black spade; the face is the jack of "
                             "spades with pen strokes over it (the set's JS.jpg is the same card, clean)"),
    "edje-multi/IMG_2396.JPG": ("9", "T", "the one card's corner indices read 10 and it has ten diamond pips; as "
                                "labelled it counts as one card read wrong"),
}


def dev_labels(dev_photos: Path) -> dict:
    return json.loads((dev_photos / "labels.json").read_text())


def corrected_code(name: str, labelled: str) -> str:
    """What the photo shows: the label, unless LABEL_CORRECTIONS knows that label is wrong."""
    correction = LABEL_CORRECTIONS.get(name)
    return correction[1] if correction and correction[0] == labelled else labelled


def edje_labels(dev_photos: Path) -> dict:
    """name -> [{"rank", "box"}], with the ranks LABEL_CORRECTIONS knows are wrong corrected."""
    labels = json.loads((dev_photos / "edje-multi" / "labels.json").read_text())
    for name, photo_labels in labels.items():
        correction = LABEL_CORRECTIONS.get(name)
        if correction:
            labels[name] = [{**label, "rank": correction[1]} if label["rank"] == correction[0] else label
                            for label in photo_labels]
    return labels
