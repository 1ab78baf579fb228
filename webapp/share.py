"""The game's link as a QR code (segno: a maintained, pure-Python QR encoder)."""
from __future__ import annotations

import io

import segno


def qr_png(url: str, scale: int = 8) -> bytes:
    """A PNG of `url` as a QR code, medium error correction, with the standard quiet zone (4 modules)."""
    out = io.BytesIO()
    segno.make_qr(url, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
