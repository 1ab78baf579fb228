"""Content-addressed photo store: a photo's file name is the sha256 of its bytes.

`PhotoStorage` is what the app asks of a store; `PhotoStore` keeps the files in one folder (`PHOTO_DIR`), which
several app processes and reading workers on one box (or on a shared mount) all reach. An S3-compatible store would
be a second class with the same four methods, chosen by `open_store`."""
from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Any, Mapping, Protocol

# Magic numbers of the formats the reader accepts; anything else is refused before decoding.
_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"WEBP", 8, "image/webp"),
)
EXTENSIONS = {"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp"}


class UploadRejected(ValueError):
    """An upload refused before reading; `status` is the HTTP code to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def sniff_content_type(data: bytes) -> str:
    """The image type from the bytes themselves (never trust the browser's label)."""
    if not data:
        raise UploadRejected("The photo is empty.", 400)
    for magic, offset, content_type in _SIGNATURES:
        if data[offset:offset + len(magic)] == magic and (content_type != "image/webp" or data[:4] == b"RIFF"):
            return content_type
    raise UploadRejected("Only JPEG, PNG or WebP photos are accepted.", 415)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class PhotoStorage(Protocol):
    """What the app needs of a photo store: every method is safe to call from several processes at once."""

    def save(self, data: bytes, content_type: str) -> str:
        """Keep the bytes (once, whatever the number of callers); their sha256 hex."""

    def load(self, sha256: str) -> bytes | None:
        """The photo's bytes, or None when it is not there."""

    def find(self, sha256: str) -> Path | None:
        """A local file holding the photo (to send as it is), or None."""

    def delete(self, sha256: str) -> None:
        """Forget the photo (nothing happens when it is not there)."""


def open_store(config: Mapping[str, Any]) -> PhotoStorage:
    """The store the configuration names: today always the folder `PHOTO_DIR`."""
    return PhotoStore(config["PHOTO_DIR"])


class PhotoStore:
    """Files under `root/ab/abcdef….jpg`; writing the same photo twice is harmless."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path_for(self, sha256: str, content_type: str) -> Path:
        return self.root / sha256[:2] / (sha256 + EXTENSIONS.get(content_type, ".bin"))

    def save(self, data: bytes, content_type: str) -> str:
        digest = sha256_hex(data)
        target = self.path_for(digest, content_type)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            # Write to a private temp name and rename: concurrent savers never see half a file.
            tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, target)
        return digest

    def find(self, sha256: str) -> Path | None:
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            return None
        for ext in EXTENSIONS.values():
            candidate = self.root / sha256[:2] / (sha256 + ext)
            if candidate.exists():
                return candidate
        return None

    def load(self, sha256: str) -> bytes | None:
        path = self.find(sha256)
        return path.read_bytes() if path is not None else None

    def delete(self, sha256: str) -> None:
        path = self.find(sha256)
        if path is not None:
            path.unlink(missing_ok=True)
