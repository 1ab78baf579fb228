"""Function-preserving widening of the index classifier (Net2WiderNet, Chen et al. 2015): a wider network
starts from a trained narrower one with the same outputs, instead of from scratch (many CPU hours).

`train_classifier --init NARROW.pt --width W --seed S` widens its start so; the same start, to soup the run with
(vision.training.average_weights), is written by

    PYTHONPATH=. python -m vision.training.widen NARROW.pt W S OUT.pt
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch

from vision.training.classifier_model import IndexClassifier, build_classifier, classifier_from_checkpoint

NOISE = 0.01  # relative noise on copied channels, so duplicates can learn apart


def _stage_widths(model: IndexClassifier) -> list[int]:
    return [stage[0].out_channels for stage in model.features]


def widen_classifier(narrow: IndexClassifier, width: int, seed: int = 0) -> IndexClassifier:
    """A classifier of `width` whose logits equal `narrow`'s (up to the small symmetry-breaking noise)."""
    wide = build_classifier(width)
    old, new = _stage_widths(narrow), _stage_widths(wide)
    if any(n < o for o, n in zip(old, new)):
        raise ValueError(f"width {width} is narrower than the model's ({old} -> {new} channels)")
    gen = torch.Generator().manual_seed(seed)
    inputs = torch.arange(3)  # new input channel -> old input channel
    counts = torch.ones(3)
    with torch.no_grad():
        for stage_old, stage_new, o, n in zip(narrow.features, wide.features, old, new):
            mapping = torch.cat([torch.arange(o), torch.randint(0, o, (n - o,), generator=gen)])
            conv_old, bn_old = stage_old[0], stage_old[1]
            conv_new, bn_new = stage_new[0], stage_new[1]
            weight = conv_old.weight[mapping][:, inputs] / counts[inputs].view(1, -1, 1, 1)
            copies = torch.arange(n) >= o
            weight[copies] += NOISE * weight[copies].std() * torch.randn(weight[copies].shape, generator=gen)
            conv_new.weight.copy_(weight)
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(bn_new, name).copy_(getattr(bn_old, name)[mapping])
            bn_new.num_batches_tracked.copy_(bn_old.num_batches_tracked)
            inputs, counts = mapping, torch.bincount(mapping, minlength=o).float()
        linear_old, linear_new = narrow.head[-1], wide.head[-1]
        linear_new.weight.copy_(linear_old.weight[:, inputs] / counts[inputs].view(1, -1))
        linear_new.bias.copy_(linear_old.bias)
    return wide


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 4:
        raise SystemExit(__doc__)
    source, width, seed, out = Path(args[0]), int(args[1]), int(args[2]), Path(args[3])
    state = torch.load(source, map_location="cpu", weights_only=False)
    wide = widen_classifier(classifier_from_checkpoint(state, source), width, seed=seed)
    torch.save({"model": wide.state_dict(), "classes": state.get("classes"), "width": width}, out)
    print(f"{source} widened {state['width']} -> {width} (seed {seed}): {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
