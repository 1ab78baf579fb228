"""The one place ONNX Runtime sessions are made (vision.onnx_session): its settings and its typed errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from vision.errors import ModelError
from vision.onnx_session import INTRA_OP_THREADS, create_session

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize("model", ["cards.onnx", "cards_cls.onnx"])
def test_shipped_models_get_sessions_whose_idle_threads_sleep(model):
    options = create_session(MODELS / model).get_session_options()
    # spinning worker threads of one session slowed the other session and OpenCV by about half on 2 cores
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert options.intra_op_num_threads == INTRA_OP_THREADS and options.inter_op_num_threads == 1


def test_a_missing_or_broken_model_file_is_a_typed_error(tmp_path):
    with pytest.raises(ModelError, match="model file not found"):
        create_session(tmp_path / "absent.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load model broken.onnx"):
        create_session(broken)
