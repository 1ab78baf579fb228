"""Static int8 quantisation (QDQ, per-channel int8 weights) of an ONNX model, calibrated on given network inputs:
the one ONNX Runtime call both quantisation tools make (vision.training.quantize_detector, quantize_classifier).
Needs onnx and sympy (the training extra; the test extra too, for the tools' tests)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np


def quantize_qdq(model: Path, out: Path, inputs: list[np.ndarray], *, activations_signed: bool,
                 skip_symbolic_shape: bool = False,
                 kept_float: Callable[[list[str]], list[str]] = lambda names: []) -> list[str]:
    """Write `out`, `model` quantised with `inputs` (each one network input, fed to its first input) as the
    calibration; `kept_float` picks, from the pre-processed graph's node names, the nodes left in float. Returns
    them. The pre-processed model keeps the float model's metadata (e.g. a classifier's class order)."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    input_name = onnx.load(str(model)).graph.input[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.items = iter(inputs)

        def get_next(self) -> dict | None:
            item = next(self.items, None)
            return None if item is None else {input_name: item}

    prepared = out.with_suffix(".pre.onnx")
    quant_pre_process(str(model), str(prepared), skip_symbolic_shape=skip_symbolic_shape)
    excluded = kept_float([node.name for node in onnx.load(str(prepared)).graph.node])
    quantize_static(str(prepared), str(out), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8 if activations_signed else QuantType.QUInt8,
                    weight_type=QuantType.QInt8, nodes_to_exclude=excluded)
    prepared.unlink()
    return excluded
