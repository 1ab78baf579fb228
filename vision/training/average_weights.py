"""Average checkpoints of one architecture (a 'model soup' of neighbouring epochs, of a fine-tune and its start, or
of fine-tunes from one start with different seeds).

    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.average_weights A.pt B.pt [C.pt ...] OUT.pt

Detector (ultralytics) checkpoints: takes each one's EMA weights (or its model when stripped). Classifier checkpoints
(vision.training.train_classifier: "model" is a state dict): takes the state dicts. Averages the float tensors
element-wise (uniform mean) and saves the last input's checkpoint with the averaged weights; export it with vision.training.export as usual.
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch


def load_model(path: Path) -> tuple[dict, torch.nn.Module]:
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    return checkpoint, (checkpoint.get("ema") or checkpoint["model"]).float()


def averaged(*states: dict) -> dict:
    """Element-wise mean of state dicts' float tensors (the last one's value for the others, e.g. batch counters)."""
    last = states[-1]
    for other in states[:-1]:
        if other.keys() != last.keys() or any(other[k].shape != last[k].shape for k in last):
            raise SystemExit("the checkpoints are not the same architecture")
    return {k: sum(s[k] for s in states) / len(states) if last[k].is_floating_point() else last[k] for k in last}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3:
        raise SystemExit(__doc__)
    inputs, out = [Path(a) for a in args[:-1]], args[-1]
    first_checkpoint = torch.load(inputs[0], map_location="cpu", weights_only=False)
    if isinstance(first_checkpoint.get("model"), dict):  # a classifier checkpoint: a state dict
        checkpoints = [first_checkpoint] + [torch.load(p, map_location="cpu", weights_only=False) for p in inputs[1:]]
        checkpoint = checkpoints[-1]
        checkpoint["model"] = averaged(*(c["model"] for c in checkpoints))
        for stale in ("optimizer", "scheduler", "val_top1", "best_acc"):  # they describe one input, not the mean
            checkpoint.pop(stale, None)
        torch.save(checkpoint, out)
        print(f"averaged {len(checkpoint['model'])} tensors of {len(inputs)} checkpoints -> {out}")
        return 0
    loaded = [load_model(p) for p in inputs]
    checkpoint, last = loaded[-1]
    mean = averaged(*(model.state_dict() for _, model in loaded))
    last.load_state_dict(mean)
    checkpoint["model"], checkpoint["ema"] = last.half(), None
    torch.save(checkpoint, out)
    print(f"averaged {len(mean)} tensors of {len(inputs)} checkpoints -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
