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
