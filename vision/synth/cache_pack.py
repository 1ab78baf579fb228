"""Re-encode a rendered deck cache as lossy WebP (alpha kept) so it travels where the decks are not installed.

    python -m vision.synth.cache_pack /work/data/deck-cache .devcarry/deckcache [--quality 92]

The 15 decks of sessions 1-23: 73 MB of PNG -> 18 MB. Each deck's index boxes (bank.INDEX_BOXES_FILE) travel with
it, keyed to the WebP faces: the boxes saved beside the PNG faces where they were saved for those very pixels (a
restyled deck's are those of its drawn ink, which the index finder need not find again), else found on the WebP
faces (a deck's four corners where it has them). Decks cut out of others' photos (decks.PHOTO_DECKS, validation
only) stay behind.
The generator reads <code>.webp where <code>.png is missing (decks.load_face); lossy WebP drops only the colour of
fully transparent pixels, which nothing draws, and the faces are shrunk far below their 720 px when a scene is drawn.
"""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import cv2

from vision.crops import CARD_CODES
from vision.synth.bank import INDEX_BOXES_FILE, cached_index_boxes, faces_fingerprint
from vision.synth.decks import DECKS, RESTYLED_DECKS, Deck, load_face


def pack_cache(source: Path, target: Path, quality: int = 92) -> int:
    """Copy every rendered deck folder of source into target with its faces as WebP; returns the bytes written for
    faces."""
    written = 0
    rendered = {deck.name: deck for deck in DECKS + RESTYLED_DECKS}
    for deck in sorted(p for p in source.iterdir() if (p / "done.json").exists() and p.name in rendered):
        (target / deck.name).mkdir(parents=True, exist_ok=True)
        for face in sorted(deck.glob("*.png")):
            ok, data = cv2.imencode(".webp", cv2.imread(str(face), cv2.IMREAD_UNCHANGED),
                                    [cv2.IMWRITE_WEBP_QUALITY, quality])
            if not ok:
                raise ValueError(f"could not encode {face} as WebP")
            (target / deck.name / f"{face.stem}.webp").write_bytes(data.tobytes())
            written += len(data)
        # the index boxes of the faces as they will be read there, so no generator worker searches for them again
        packed = {code: cv2.imread(str(target / deck.name / f"{code}.webp"), cv2.IMREAD_UNCHANGED)
                  for code in CARD_CODES}
        saved = _saved_boxes(source, rendered[deck.name])
        if saved is not None:
            (target / deck.name / INDEX_BOXES_FILE).write_text(json.dumps({
                "faces": faces_fingerprint(packed), "boxes": saved}))
        else:
            cached_index_boxes(target / deck.name, packed, other_corners=rendered[deck.name].corners == 4)
        shutil.copyfile(deck / "done.json", target / deck.name / "done.json")  # last: marks the deck complete
    return written


def _saved_boxes(source: Path, deck: Deck) -> dict | None:
    """The boxes saved beside a deck's PNG faces when they were saved for those very pixels, else None."""
    try:
        saved = json.loads((source / deck.name / INDEX_BOXES_FILE).read_text())
    except (OSError, ValueError):
        return None
    faces = {code: load_face(source, deck, code) for code in CARD_CODES}
    if saved.get("faces") != faces_fingerprint(faces) or set(saved.get("boxes", {})) != set(CARD_CODES):
        return None
    return saved["boxes"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", type=Path, help="a deck cache (<deck>/<code>.png + done.json)")
    p.add_argument("target", type=Path)
    p.add_argument("--quality", type=int, default=92)
    args = p.parse_args(argv)
    written = pack_cache(args.source, args.target, args.quality)
    print(f"{written / 1e6:.1f} MB of WebP faces in {args.target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
