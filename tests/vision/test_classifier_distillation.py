"""Knowledge distillation in the classifier's training (training code: needs torch, which the server and CI venv do
not have)."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="torch is only in the training environment (pip install .[train])")

from vision.training.classifier_model import build_classifier  # noqa: E402
from vision.training.train_classifier import distillation_loss, load_teacher, parse_args  # noqa: E402


def test_distillation_loss_is_zero_when_the_student_answers_as_the_teacher():
    logits = torch.randn(16, 53, generator=torch.Generator().manual_seed(0))
    assert distillation_loss(logits, logits.clone(), 2.0).item() == pytest.approx(0.0, abs=1e-6)


def test_distillation_loss_grows_as_the_student_leaves_the_teacher():
    teacher = torch.randn(16, 53, generator=torch.Generator().manual_seed(1))
    near = teacher + 0.1 * torch.randn(16, 53, generator=torch.Generator().manual_seed(2))
    far = teacher + 2.0 * torch.randn(16, 53, generator=torch.Generator().manual_seed(2))
    assert 0 < distillation_loss(near, teacher, 2.0) < distillation_loss(far, teacher, 2.0)


def test_distillation_pulls_the_student_towards_the_teachers_doubt():
    # the teacher doubts between class 0 and `none` (52); a student sure of class 0 is pulled back towards 52
    teacher = torch.zeros(1, 53)
    teacher[0, 0] = teacher[0, 52] = 3.0
    student = torch.zeros(1, 53)
    student[0, 0] = 6.0
    student.requires_grad_(True)
    distillation_loss(student, teacher, 2.0).backward()
    assert student.grad[0, 0] > 0 > student.grad[0, 52]  # descent lowers class 0 and raises `none`


def test_the_teacher_is_loaded_frozen_and_in_eval_mode(tmp_path):
    model = build_classifier(32)
    path = tmp_path / "teacher.pt"
    torch.save({"model": model.state_dict(), "width": 32}, path)
    teacher = load_teacher(path)
    assert not teacher.training
    assert not any(p.requires_grad for p in teacher.parameters())
    x = torch.rand(2, 3, 48, 48)
    model.eval()
    assert torch.allclose(teacher(x), model(x), atol=1e-5)


def test_distillation_settings_out_of_range_are_refused(tmp_path):
    from vision.training.train_classifier import main
    with pytest.raises(SystemExit, match="distill-weight"):
        main(["--crops", str(tmp_path), "--out", str(tmp_path / "out"), "--teacher", str(tmp_path / "t.pt"),
              "--distill-weight", "1.5"])
    assert parse_args(["--crops", "c", "--out", "o"]).teacher is None
