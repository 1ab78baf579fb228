"""Store an ONNX model's float32 weights as float16, each cast back to float32 where it is used (session 56).

    PYTHONPATH=. python -m vision.training.half_weights models/cards.onnx --out /tmp/cards.onnx

The file is about half the size; the network ONNX Runtime runs is the float32 one: its graph optimiser folds every
Cast of a constant into a float32 constant when the session is created, so a read is as fast as before and differs
only by the weights' rounding to float16 (a relative error under 2^-11). Tensors too small to matter (biases under
MIN_ELEMENTS values, shapes, integer tensors) stay as they are. The models folder's size budget (15 MB for all its
networks, issue #4) is what this buys room in: docs/reader-decisions.md@538d56c, "half-size weights".
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # onnx is in the training and test extras, not the reader's
    import onnx

MIN_ELEMENTS = 64  # smaller float tensors are left in float32: they save nothing and may be shapes or scales
CAST_SUFFIX = "_float16"


def half_weights(model: onnx.ModelProto) -> int:
    """Rewrite the model in place: each float32 initializer of at least MIN_ELEMENTS values (and not also a graph
    input, which a caller may feed) becomes a float16 initializer and a Cast node (to float32) under the original
    name, placed first in the graph. Returns how many initializers were rewritten."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    fed = {value.name for value in graph.input}  # an initializer that is also an input may be fed: left as it is
    kept, casts, halved = [], [], 0
    for tensor in graph.initializer:
        if (tensor.data_type != TensorProto.FLOAT or int(np.prod(tensor.dims)) < MIN_ELEMENTS
                or tensor.name in fed):
            kept.append(tensor)
            continue
        values = numpy_helper.to_array(tensor)
        if np.abs(values).max(initial=0.0) >= np.finfo(np.float16).max:
            raise ValueError(f"{tensor.name}: values too large for float16")
        kept.append(numpy_helper.from_array(values.astype(np.float16), tensor.name + CAST_SUFFIX))
        casts.append(helper.make_node("Cast", [tensor.name + CAST_SUFFIX], [tensor.name], to=TensorProto.FLOAT,
                                      name=tensor.name + "_cast"))
        halved += 1
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = list(graph.node)
    del graph.node[:]
    graph.node.extend(casts + nodes)
    onnx.checker.check_model(model)
    return halved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.half_weights", description=__doc__.split("\n")[0])
    parser.add_argument("model", type=Path, help="float32 ONNX model")
    parser.add_argument("--out", type=Path, required=True, help="where the half-size model is written")
    args = parser.parse_args(argv)
    import onnx
    from google.protobuf.message import DecodeError  # onnx's own dependency: what a file that is no model raises

    try:
        model = onnx.load(str(args.model))
        halved = half_weights(model)
    except (OSError, ValueError, DecodeError, onnx.checker.ValidationError) as error:
        print(f"{args.model}: {error}", file=sys.stderr)
        return 2
    onnx.save(model, str(args.out))
    print(f"{args.out}: {halved} weight tensors stored as float16, {args.model.stat().st_size / 1e6:.2f} -> "
          f"{args.out.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
