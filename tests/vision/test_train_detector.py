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


def test_results_are_read_back_without_polars_as_columns_of_floats(tmp_path: Path):
    from vision.training.train_detector import read_results_without_polars

    csv = tmp_path / "results.csv"
    csv.write_text("epoch,time,metrics/mAP50(B)\n1,22.5,0.935\n2,30,0.946\n")
    assert read_results_without_polars(SimpleNamespace(csv=csv)) == {
        "epoch": [1.0, 2.0], "time": [22.5, 30.0], "metrics/mAP50(B)": [0.935, 0.946]}
    assert read_results_without_polars(SimpleNamespace(csv=tmp_path / "missing.csv")) == {}


def test_the_offline_patch_reads_results_without_polars_and_skips_the_amp_download_only_on_a_gpu(monkeypatch):
    pytest.importorskip("ultralytics", reason="ultralytics is only in the training environment")
    import sys

    from ultralytics.engine import trainer as trainer_module

    from vision.training.train_detector import patch_for_offline_machine, read_results_without_polars

    monkeypatch.setattr(trainer_module.BaseTrainer, "read_results_csv", trainer_module.BaseTrainer.read_results_csv)
    monkeypatch.setattr(trainer_module, "check_amp", trainer_module.check_amp)  # restored after the test
    original_check = trainer_module.check_amp
    monkeypatch.setitem(sys.modules, "polars", None)  # import polars now fails, as on the lent GPU machine
    patch_for_offline_machine("cpu")
    assert trainer_module.BaseTrainer.read_results_csv is read_results_without_polars
    assert trainer_module.check_amp is original_check  # a CPU run never checks AMP
    patch_for_offline_machine("0")
    assert trainer_module.check_amp(object()) is True


def test_starting_weights_come_from_init_or_transfer_but_not_both(tmp_path: Path, capsys):
    from vision.training.train_detector import main

    weights = tmp_path / "detector.pt"
    weights.write_bytes(b"")
    assert main(["--out", str(tmp_path / "run"), "--init", str(weights), "--transfer-from", str(weights)]) == 2
    assert "exclude each other" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
