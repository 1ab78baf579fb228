"""The corner-index crop classifier: a small CNN on 48x48 BGR crops, 53 logits (52 cards + none)."""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from vision.crops import CLASS_NAMES, CROP_SIZE

NUM_CLASSES = len(CLASS_NAMES)


def conv_bn(c_in: int, c_out: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class IndexClassifier(nn.Module):
    """Five conv stages 48->24->12->6->3, global average pool, linear head.

    The first stage is kept narrow because it runs at full 48x48 resolution and
    dominates CPU time; width grows where the maps are small.
    """

    def __init__(self, num_classes: int = NUM_CLASSES, width: int = 24, dropout: float = 0.2) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            conv_bn(3, w // 2),             # 48x48
            conv_bn(w // 2, w, stride=2),   # 24x24
            conv_bn(w, w),
            conv_bn(w, 2 * w, stride=2),    # 12x12
            conv_bn(2 * w, 2 * w),
            conv_bn(2 * w, 4 * w, stride=2),  # 6x6
            conv_bn(4 * w, 4 * w),
            conv_bn(4 * w, 6 * w, stride=2),  # 3x3
        )
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(dropout),
            nn.Linear(6 * w, num_classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: float32 [N, 3, 48, 48], BGR scaled to 0..1. Returns logits [N, num_classes]."""
        return self.head(self.features(x))


def build_classifier(width: int = 24) -> IndexClassifier:
    return IndexClassifier(width=width)


def classifier_from_checkpoint(state: dict, source: Path) -> IndexClassifier:
    """The network a train_classifier / export checkpoint holds, at its own width, weights loaded."""
    if "width" not in state:
        raise SystemExit(f"{source} is not a classifier checkpoint of this project (it names no width)")
    model = build_classifier(state["width"])
    model.load_state_dict(state["model"])
    return model


def param_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


INPUT_SHAPE = (3, CROP_SIZE, CROP_SIZE)
