"""Card reader: photo -> card codes in rows (OpenCV + ONNX Runtime)."""
import os

# OpenCV's own bound on the pixels one imdecode may allocate (default 2**30), read once when cv2 is first imported:
# set here, before any vision module imports cv2, to vision.decode.MAX_PIXELS (a test keeps the two equal). The
# header checks refuse larger images first; this is a backstop under them (docs/reader.md, hostile images).
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "50000000")

from vision.errors import (CorruptImage, EmptyImage, ExtremeShape, ImageError, ImageTooLarge,  # noqa: E402
                           ModelError, NotAnImage, UnsupportedImage)
from vision.reader import CardReader, read_photo  # noqa: E402
from vision.table import read_table  # noqa: E402

__all__ = ["read_photo", "read_table", "CardReader", "ImageError", "EmptyImage", "NotAnImage", "UnsupportedImage",
           "CorruptImage", "ExtremeShape", "ImageTooLarge", "ModelError"]
