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


def _edge_energy(batch: np.ndarray) -> np.ndarray:
    """Mean absolute horizontal + vertical pixel difference of each crop (falls as a crop is blurred)."""
    x = batch.astype(np.float32)
    return np.abs(np.diff(x, axis=1)).mean(axis=(1, 2, 3)) + np.abs(np.diff(x, axis=2)).mean(axis=(1, 2, 3))


def test_heavy_blur_blurs_about_its_share_of_crops_and_leaves_the_others():
    from vision.training.train_classifier import heavy_blur

    rng = np.random.default_rng(0)
    noise = np.random.default_rng(1).integers(0, 256, (48, 48), dtype=np.uint8)  # blurred by a kernel of any angle
    batch = np.repeat(np.repeat(noise[None, :, :, None], 3, axis=3), 400, axis=0)
    out = heavy_blur(batch, rng, 0.5)
    changed = _edge_energy(out) < 0.6 * _edge_energy(batch)
    untouched = (out == batch).all(axis=(1, 2, 3))
    assert (changed | untouched).all()  # a crop is either blurred hard or left exactly as it was
    assert 0.4 < changed.mean() < 0.6
    assert (batch == noise[None, :, :, None]).all()  # the input batch is not modified
    assert (heavy_blur(batch, np.random.default_rng(0), 0.0) == batch).all()


def test_heavy_blur_strength_blurs_harder_and_one_repeats_the_default():
    from vision.training.train_classifier import heavy_blur

    noise = np.random.default_rng(2).integers(0, 256, (48, 48), dtype=np.uint8)
    batch = np.repeat(np.repeat(noise[None, :, :, None], 3, axis=3), 300, axis=0)
    default = heavy_blur(batch, np.random.default_rng(5), 1.0)
    assert (heavy_blur(batch, np.random.default_rng(5), 1.0, strength=1.0) == default).all()
    stronger = heavy_blur(batch, np.random.default_rng(5), 1.0, strength=1.6)
    # same draws, wider ranges: the stronger blur leaves less edge energy on average
    assert _edge_energy(stronger).mean() < 0.9 * _edge_energy(default).mean()


def _dark_bar_batch(n: int) -> np.ndarray:
    """White crops with one dark vertical stroke 6 px wide (an index's ink on paper)."""
    batch = np.full((n, 48, 48, 3), 230, np.uint8)
    batch[:, 8:40, 21:27] = 30
    return batch


def test_stroke_weight_makes_strokes_bolder_or_thinner_on_about_its_share():
    from vision.training.train_classifier import stroke_weight

    batch = _dark_bar_batch(400)
    out = stroke_weight(batch, np.random.default_rng(2), 0.5)
    ink = (out[..., 0] < 128).sum(axis=(1, 2))
    plain = int((batch[0, ..., 0] < 128).sum())
    bolder, thinner = (ink > plain).sum(), (ink < plain).sum()
    assert 0.4 * 400 < bolder + thinner < 0.6 * 400
    assert bolder > 50 and thinner > 50  # both ways, about evenly
    assert (out[ink == plain] == batch[ink == plain]).all()  # the others untouched
    assert (stroke_weight(batch, np.random.default_rng(2), 0.0) == batch).all()


def test_occluders_cover_one_side_of_about_their_share_of_crops_and_leave_the_index_centre_in_view():
    from vision.training.train_classifier import occluded

    noise = np.random.default_rng(3).integers(0, 256, (48, 48, 3), dtype=np.uint8)
    batch = np.repeat(noise[None], 400, axis=0)
    out = occluded(batch, np.random.default_rng(4), 0.5)
    changed = (out != batch).any(axis=3)  # (N, 48, 48) pixels laid over
    covered = changed.mean(axis=(1, 2))
    hit = covered > 0
    assert 0.4 * 400 < hit.sum() < 0.6 * 400
    assert (out[~hit] == batch[~hit]).all()  # the others untouched
    assert not changed[:, 21:27, 21:27].any()  # the index's centre stays in view
    box = changed[:, 7:41, 7:41].mean(axis=(1, 2))[hit]  # the index box: the middle 1 / 1.4 of the crop
    assert box.min() > 0.02 and box.max() < 0.45
    assert (occluded(batch, np.random.default_rng(4), 0.0) == batch).all()
    assert (occluded(batch, np.random.default_rng(4), 0.5) == out).all()  # repeatable from the seed


def test_training_only_the_first_stages_leaves_the_later_stages_and_the_head_as_they_were():
    from vision.training.classifier_model import build_classifier
    from vision.training.train_classifier import freeze_after

    torch.manual_seed(0)
    model = build_classifier(8)
    before = {name: value.clone() for name, value in model.state_dict().items()}
    frozen = freeze_after(model, 3)
    assert frozen[-1] is model.head and len(frozen) == len(model.features) - 3 + 1
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.5)
    model.train()
    for module in frozen:
        module.eval()
    loss = torch.nn.functional.cross_entropy(model(torch.rand(16, 3, 48, 48)), torch.randint(0, 53, (16,)))
    loss.backward()
    optimizer.step()
    after = model.state_dict()
    changed = {name for name in after if not torch.equal(after[name], before[name])}
    assert changed and all(name.startswith(("features.0.", "features.1.", "features.2.")) for name in changed)
    assert "features.0.0.weight" in changed  # the first stage learned; its batch statistics moved with it
    with pytest.raises(ValueError):
        freeze_after(build_classifier(8), 0)


def test_elastic_warp_bends_about_its_share_of_crops_by_at_most_its_shift():
    from vision.training.train_classifier import elastic_warp

    batch = torch.zeros(400, 3, 48, 48)
    batch[:, :, 22:26, 22:26] = 1.0  # a small bright square: where it lands shows how far the field moved it
    out = elastic_warp(batch, torch.Generator().manual_seed(6), 0.5, max_px=3.0)
    changed = (out != batch).flatten(1).any(dim=1)
    assert 0.4 * 400 < int(changed.sum()) < 0.6 * 400
    assert torch.equal(out[~changed], batch[~changed])  # the others untouched, the input not modified
    assert batch[:, :, 22:26, 22:26].eq(1.0).all()
    yy, xx = torch.meshgrid(torch.arange(48.0), torch.arange(48.0), indexing="ij")
    weight = out[changed, 0]
    centre_y = (weight * yy).sum(dim=(1, 2)) / weight.sum(dim=(1, 2))
    centre_x = (weight * xx).sum(dim=(1, 2)) / weight.sum(dim=(1, 2))
    shift = torch.hypot(centre_y - 23.5, centre_x - 23.5)
    assert shift.max() <= 3.0 + 0.5 and shift.mean() > 0.3  # moved, never further than the field reaches
    assert torch.equal(elastic_warp(batch, torch.Generator().manual_seed(6), 0.5, max_px=3.0), out)  # repeatable
