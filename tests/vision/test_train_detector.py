"""The detector trainer's own helpers (ultralytics itself is not run here)."""
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("torch", reason="torch is only in the training environment (pip install .[train])")


class FakeModel:
    def __init__(self) -> None:
        self.callbacks: dict[str, list] = {}

    def add_callback(self, event: str, function) -> None:
        self.callbacks.setdefault(event, []).append(function)


def test_keep_epoch_copies_saves_each_epochs_last_checkpoint_under_its_number(tmp_path: Path):
    from vision.training.train_detector import keep_epoch_copies

    model = FakeModel()
    keep_epoch_copies(model)
    last = tmp_path / "last.pt"
    for epoch, content in enumerate((b"first", b"second")):
        last.write_bytes(content)
        for callback in model.callbacks["on_model_save"]:
            callback(SimpleNamespace(last=last, epoch=epoch))  # ultralytics counts epochs from 0
    assert (tmp_path / "epoch1.pt").read_bytes() == b"first"
    assert (tmp_path / "epoch2.pt").read_bytes() == b"second"
