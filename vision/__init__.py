"""Card reader: photo -> card codes in rows (OpenCV + ONNX Runtime)."""
from vision.errors import (CorruptImage, EmptyImage, ImageError, ImageTooLarge, ModelError, NotAnImage,
                           UnsupportedImage)
from vision.reader import CardReader, read_photo

__all__ = ["read_photo", "CardReader", "ImageError", "EmptyImage", "NotAnImage", "UnsupportedImage",
           "CorruptImage", "ImageTooLarge", "ModelError"]
