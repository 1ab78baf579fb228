"""Average two checkpoints of one architecture (a 'model soup' of neighbouring epochs or of a fine-tune and its start).

    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.average_weights A.pt B.pt OUT.pt

Detector (ultralytics) checkpoints: takes each one's EMA weights (or its model when stripped). Classifier checkpoints
(vision.training.train_classifier: "model" is a state dict): takes the state dicts. Averages the float tensors
element-wise and saves B's checkpoint with the averaged weights; export it with vision.training.export as usual.
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch


def load_model(path: Path) -> tuple[dict, torch.nn.Module]:
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    return checkpoint, (checkpoint.get("ema") or checkpoint["model"]).float()


def averaged(a: dict, b: dict) -> dict:
    """Element-wise mean of two state dicts' float tensors (b's value for the others, e.g. batch counters)."""
    if a.keys() != b.keys() or any(a[k].shape != b[k].shape for k in b):
        raise SystemExit("the two checkpoints are not the same architecture")
    return {k: (a[k] + b[k]) / 2 if b[k].is_floating_point() else b[k] for k in b}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        raise SystemExit(__doc__)
    first_checkpoint = torch.load(Path(args[0]), map_location="cpu", weights_only=False)
    if isinstance(first_checkpoint.get("model"), dict):  # a classifier checkpoint: a state dict
        checkpoint = torch.load(Path(args[1]), map_location="cpu", weights_only=False)
        checkpoint["model"] = averaged(first_checkpoint["model"], checkpoint["model"])
        for stale in ("optimizer", "scheduler", "val_top1", "best_acc"):  # they describe B, not the mean
            checkpoint.pop(stale, None)
        torch.save(checkpoint, args[2])
        print(f"averaged {len(checkpoint['model'])} tensors -> {args[2]}")
        return 0
    _, first = load_model(Path(args[0]))
    checkpoint, second = load_model(Path(args[1]))
    mean = averaged(first.state_dict(), second.state_dict())
    second.load_state_dict(mean)
    checkpoint["model"], checkpoint["ema"] = second.half(), None
    torch.save(checkpoint, args[2])
    print(f"averaged {len(mean)} tensors -> {args[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
