"""Everything the web app asks of the `vision` package goes through here."""
from __future__ import annotations

import logging
import re
import threading
from typing import Any

from webapp.photos import UploadRejected, sniff_content_type

logger = logging.getLogger(__name__)

ROWS = ("front", "middle", "back")
# Below this a card is flagged for the table to check: the reader's MIN_CARD_CONFIDENCE (cards under it reach a
# hand only as fillers of a short hand; a test keeps the two equal without importing ONNX Runtime here).
LOW_CONFIDENCE = 0.7
# A card's runner-up codes (vision read's "alternatives"): the first this many no hand of the round holds are
# offered first when the card is tapped to be fixed.
ALTERNATIVES_SHOWN = 3
_CARD_CODE = re.compile(r"[2-9TJQKA][SHDC]")


_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def read_slots(count: int) -> threading.BoundedSemaphore:
    """At most `count` photos are read at once: each read already keeps the cores busy (ONNX Runtime's
    threads), and more at once only makes every read slower. Other requests keep flowing meanwhile."""
    with _slots_lock:
        if count not in _slots:
            _slots[count] = threading.BoundedSemaphore(max(1, count))
        return _slots[count]


class ReaderUnavailable(RuntimeError):
    """The reader's model is missing or broken: the photo is kept and cards are entered by hand."""


def read(data: bytes, *, loose: bool = False, slots: int = 0) -> dict[str, Any]:
    """vision.read_photo's JSON for the photo; bad photos raise UploadRejected (4xx).

    `slots` > 0 limits how many reads run at once (see read_slots)."""
    sniff_content_type(data)  # cheap refusal of non-images before any decoding
    if slots > 0:
        with read_slots(slots):
            return _read(data, loose)
    return _read(data, loose)


def check_photo(data: bytes) -> None:
    """The refusals the reader makes from the photo's header alone (type, size, pixel count, shape), without
    decoding: what a request checks before it queues a photo for a reading job. Raises UploadRejected (4xx)."""
    sniff_content_type(data)
    try:
        from vision.decode import check_limits
        from vision.errors import ImageError
    except ImportError:  # pragma: no cover - the package ships with the app; the job will say what is wrong
        return
    try:
        check_limits(data)
    except ImageError as err:
        raise refusal(err) from err


def refusal(err: Exception) -> UploadRejected:
    """The reader's refusal of an image as the upload's answer: too large 413, not an image 415, else 400."""
    from vision.errors import ImageTooLarge, NotAnImage

    status = 413 if isinstance(err, ImageTooLarge) else 415 if isinstance(err, NotAnImage) else 400
    return UploadRejected(f"Photo refused: {err}", status)


def warm_up_in_background() -> threading.Thread:
    """Load the reader's models and run them once in a background thread, so that the first photo at the table is
    read as fast as the later ones (its models load in ~0.5 s and their first runs cost ~0.4 s more). A reader that
    cannot load is only logged: each read then reports it as it always does."""
    def warm_up() -> None:
        try:
            from vision.reader import default_reader

            default_reader().warm_up()
        except Exception:  # noqa: BLE001 - a failure here must not stop the server; reads report it themselves
            logger.warning("the card reader could not be warmed up", exc_info=True)
        else:
            logger.info("card reader ready")

    thread = threading.Thread(target=warm_up, name="reader-warm-up", daemon=True)
    thread.start()
    return thread


def read_table(data: bytes, *, loose: bool = False, slots: int = 0) -> dict[str, Any]:
    """vision.read_table's JSON for a photo of the whole table (every seat's hand; loose: Big Two's cards left, one
    group per seat); bad photos raise UploadRejected (4xx), a missing reader ReaderUnavailable."""
    sniff_content_type(data)
    if slots > 0:
        with read_slots(slots):
            return _read_table(data, loose)
    return _read_table(data, loose)


def _read(data: bytes, loose: bool) -> dict[str, Any]:
    return _call_vision("read_photo", data, loose)


def _read_table(data: bytes, loose: bool) -> dict[str, Any]:
    return _call_vision("read_table", data, loose)


def _call_vision(function: str, data: bytes, loose: bool) -> dict[str, Any]:
    """vision.<function>(data, loose=loose), its errors turned into the web app's."""
    try:
        import vision
        from vision.errors import ImageError
    except ImportError as err:  # pragma: no cover - the package ships with the app
        raise ReaderUnavailable(f"the card reader cannot be loaded ({err})") from err
    read_photo = getattr(vision, function, None)
    if read_photo is None:
        _check_decodes(data)
        raise ReaderUnavailable("the card reader is not installed")
    try:
        return read_photo(data, loose=loose)
    except ImageError as err:
        raise refusal(err) from err
    except (RuntimeError, OSError) as err:  # vision.ModelError and missing model files
        _check_decodes(data)
        raise ReaderUnavailable(f"the card reader failed ({err})") from err


def _check_decodes(data: bytes) -> None:
    """When the reader cannot judge the photo, at least make sure OpenCV can decode it."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if image is None:
        raise UploadRejected("Photo refused: the image is damaged or truncated.", 400)


def _alternatives(listed: Any) -> list[str]:
    """The valid card codes of a card's "alternatives" in the reader's order, each once (readings stored before
    session 53, or by another reader, have none)."""
    if not isinstance(listed, list):
        return []
    codes: list[str] = []
    for item in listed:
        code = str(_first(item, "code", default="") if isinstance(item, dict) else item).upper()
        if _CARD_CODE.fullmatch(code) and code not in codes:
            codes.append(code)
    return codes


def _first(mapping: dict[str, Any], *keys: str, default: Any = None) -> Any:
    for key in keys:
        if key in mapping and mapping[key] is not None:
            return mapping[key]
    return default


def summarise(reading: dict[str, Any]) -> dict[str, Any]:
    """The reader's JSON reduced to what the review screen draws: rows, boxes (each card `sure` or not), warnings,
    size."""
    cards = []
    for card in reading.get("cards") or []:
        if not isinstance(card, dict):
            continue
        box = _first(card, "box", "bbox", "xyxy")
        confidence = float(_first(card, "confidence", "score", "conf", default=1.0))
        cards.append({
            "code": str(_first(card, "code", "card", "label", default="?")),
            "box": [float(v) for v in box][:4] if isinstance(box, (list, tuple)) and len(box) >= 4 else None,
            "confidence": confidence,
            # The one notion of "unsure" (the photo's boxes, the review's cards and its warnings all use it): the
            # reader's own flag when it gives one, else its sure threshold.
            "sure": bool(card["sure"]) if isinstance(card.get("sure"), bool) else confidence >= LOW_CONFIDENCE,
            "row": _first(card, "row"),
            "alternatives": _alternatives(card.get("alternatives")),
        })
    rows_in = reading.get("rows")
    rows: dict[str, list[str]] = {}
    if isinstance(rows_in, dict):
        for row in ROWS:
            value = rows_in.get(row)
            items = value if isinstance(value, list) else []
            rows[row] = [str(_first(v, "code", "card") if isinstance(v, dict) else v) for v in items]
    else:
        # Loose mode gives no rows, only cards in reading order: fill front, middle, back 3/5/5.
        codes = [c["code"] for c in cards]
        rows = {"front": codes[:3], "middle": codes[3:8], "back": codes[8:]}
    warnings = []
    for w in reading.get("warnings") or []:
        warnings.append(str(_first(w, "message", "text", default=w)) if isinstance(w, dict) else str(w))
    size = None
    image = reading.get("image")
    if isinstance(image, dict) and "width" in image and "height" in image:
        size = [int(image["width"]), int(image["height"])]
    elif "width" in reading and "height" in reading:
        size = [int(reading["width"]), int(reading["height"])]
    return {"cards": cards, "rows": rows, "warnings": warnings, "size": size}
