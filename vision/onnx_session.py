"""One place that creates ONNX Runtime CPU sessions (created once per model, shared by threads:
`InferenceSession.run` is thread-safe)."""
from __future__ import annotations

import os
from pathlib import Path

from vision.errors import ModelError

# ONNX Runtime ≥ 1.29 starts a telemetry uploader on Linux (1DS SDK: worker thread + SQLite queue under
# ~/.cache/Microsoft). A process that forks while that thread holds a lock (subprocess in the web app or the
# tests) can hang in the child; the machine is offline anyway. The variable must be set before onnxruntime
# is first imported, hence here, at `import vision` time.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

INTRA_OP_THREADS = 2  # the target machine has 2 cores


def create_session(path: Path, *, threads: int = INTRA_OP_THREADS):
    """CPU `onnxruntime.InferenceSession` for the model file; `ModelError` if missing or unreadable."""
    import onnxruntime  # imported here so that `import vision` stays light (the generator imports vision.crops)

    if not path.is_file():
        raise ModelError(f"model file not found: {path}")
    onnxruntime.disable_telemetry_events()  # in case onnxruntime was imported before vision
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Idle worker threads sleep instead of spinning: a read alternates between the detector's and the classifier's
    # sessions and OpenCV, and on 2 cores one session's spinning threads slowed the next step by about half (session
    # 27, same process interleaved: the steep far layout 0109 279 -> 218 ms end to end, docs/measurements.md@538d56c).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own untyped errors for bad files
        raise ModelError(f"cannot load model {path.name}: {str(err).splitlines()[0]}") from err
