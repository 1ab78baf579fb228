"""Typed errors of the card reader: every bad photo raises an `ImageError` subclass."""


class ImageError(ValueError):
    """A photo that cannot be read; `str(err)` is one line for a person."""


class EmptyImage(ImageError):
    """No bytes at all."""


class NotAnImage(ImageError):
    """The bytes are not a JPEG, PNG or WebP image (text, random bytes, other formats)."""


class UnsupportedImage(NotAnImage):
    """A real image format that the reader does not accept (GIF, BMP, TIFF, ...)."""


class CorruptImage(ImageError):
    """Looks like a supported image but is truncated or damaged."""


class ExtremeShape(ImageError):
    """A sound image too long and thin to be a photo of cards (40000x1, 16x16000): refused, not called damaged."""


class ImageTooLarge(ImageError):
    """Too many bytes, or a header promising too many pixels (decompression bomb)."""


class ModelError(RuntimeError):
    """The reader's model files are missing or unusable (not the photo's fault)."""
