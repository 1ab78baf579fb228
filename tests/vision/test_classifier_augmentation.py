"""The classifier's training augmentation (training code: needs torch, which the server and CI venv do not have)."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is only in the training environment (pip install .[train])")

from vision.training.train_classifier import geometric_colour  # noqa: E402


def _disc_batch(n: int = 256) -> torch.Tensor:
    yy, xx = np.mgrid[0:48, 0:48]
    disc = ((yy - 23.5) ** 2 + (xx - 23.5) ** 2 <= 8 ** 2).astype(np.float32)
    return torch.from_numpy(np.broadcast_to(disc, (n, 3, 48, 48)).copy())


def _bright_areas(x: torch.Tensor) -> np.ndarray:
    """Pixels of each crop brighter than halfway between its darkest and brightest (the disc after colour jitter)."""
    gray = x.mean(dim=1).numpy()
    low, high = gray.min(axis=(1, 2), keepdims=True), gray.max(axis=(1, 2), keepdims=True)
    return (gray > (low + high) / 2).sum(axis=(1, 2)).astype(float)


def test_squeeze_shortens_the_index_along_one_axis():
    plain = _bright_areas(geometric_colour(_disc_batch(), torch.Generator().manual_seed(1)))
    squeezed = _bright_areas(geometric_colour(_disc_batch(), torch.Generator().manual_seed(1),
                                              squeeze_share=1.0, squeeze_min=0.5))
    # squeeze factors are uniform in 0.5..1 (mean 0.75); scale jitter is the same in both runs (same seed)
    ratio = squeezed.mean() / plain.mean()
    assert 0.65 < ratio < 0.85
    assert np.median(plain) == pytest.approx(np.pi * 8 ** 2, rel=0.2)


def test_no_squeeze_by_default():
    first = geometric_colour(_disc_batch(64), torch.Generator().manual_seed(3))
    second = geometric_colour(_disc_batch(64), torch.Generator().manual_seed(3), squeeze_share=0.0)
    assert torch.equal(first, second)
