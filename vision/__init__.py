"""Card reader: photo -> card codes in rows (OpenCV + ONNX Runtime)."""
