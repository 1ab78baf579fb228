"""Net2Wider for the index classifier (training code: needs torch, which the server and CI venv do not have)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="torch is only in the training environment (pip install .[train])")

from vision.training.classifier_model import build_classifier, param_count  # noqa: E402
from vision.training.widen import widen_classifier  # noqa: E402


def test_widened_classifier_gives_the_narrow_ones_answers():
    torch.manual_seed(0)
    narrow = build_classifier(16)
    for module in narrow.modules():  # non-trivial batch-norm statistics, as after training
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 2.0)
    narrow.eval()
    wide = widen_classifier(narrow, 24).eval()
    assert param_count(wide) > 2 * param_count(narrow)
    x = torch.rand(8, 3, 48, 48)
    with torch.no_grad():
        assert torch.allclose(narrow(x).softmax(1), wide(x).softmax(1), atol=0.02)
        assert (narrow(x).argmax(1) == wide(x).argmax(1)).all()


def test_widening_to_a_narrower_width_is_refused():
    with pytest.raises(ValueError, match="narrower"):
        widen_classifier(build_classifier(24), 16)


def test_the_widen_command_writes_the_start_train_classifier_widens_to(tmp_path):
    # the same seed gives the same wider network that train_classifier --init --width starts from, so a run can be
    # souped with its own start
    from vision.training.widen import main
    narrow = build_classifier(16)
    torch.save({"model": narrow.state_dict(), "classes": ["x"], "width": 16}, tmp_path / "narrow.pt")
    assert main([str(tmp_path / "narrow.pt"), "24", "7", str(tmp_path / "wide.pt")]) == 0
    written = torch.load(tmp_path / "wide.pt", weights_only=False)
    expected = widen_classifier(narrow, 24, seed=7).state_dict()
    assert written["width"] == 24 and written["classes"] == ["x"]
    assert all(torch.equal(written["model"][k], expected[k]) for k in expected)
