"""Average two ultralytics detector checkpoints of one run (a 'model soup' of neighbouring epochs).

    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.average_weights A.pt B.pt OUT.pt

Takes each checkpoint's EMA weights (or its model when stripped), averages the float tensors element-wise,
and saves B's checkpoint with the averaged model; export it with vision.training.export as usual.
"""
from __future__ import annotations

import sys
from pathlib import Path

import torch


def load_model(path: Path) -> tuple[dict, torch.nn.Module]:
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    return checkpoint, (checkpoint.get("ema") or checkpoint["model"]).float()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        raise SystemExit(__doc__)
    _, first = load_model(Path(args[0]))
    checkpoint, second = load_model(Path(args[1]))
    a, b = first.state_dict(), second.state_dict()
    if a.keys() != b.keys():
        raise SystemExit("the two checkpoints are not the same architecture")
    second.load_state_dict({k: (a[k] + b[k]) / 2 if b[k].is_floating_point() else b[k] for k in b})
    checkpoint["model"], checkpoint["ema"] = second.half(), None
    torch.save(checkpoint, args[2])
    print(f"averaged {len(b)} tensors -> {args[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
