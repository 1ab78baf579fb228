"""Train the index-glyph check (vision.glyphs, models/cards_glyphs.onnx): is a corner crop's rank one a French-suited
deck prints (2-10, J, Q, K, A), or another letter (German B/D, Dutch V/H, Spanish S/C/R, tarot, Cyrillic ...)?

The network is the shipped classifier's trunk (models/cards_cls.onnx up to its last 3 x 3 feature map, frozen: it
has seen every index style the reader knows, real webcam crops too) and a small head trained here on its features
(1728 -> 64 -> 1, ReLU; the features' standardisation folded into the first layer). One logit, > 0 = not French.

Known crops: the deck crops of `vision.synth --parts crops` (folders <code>/*.png, `none` left out) and the known
halves of the lettercrops / letterdecks files; unknown: their other halves (other letters typeset in the fonts, the
courts of Debian's tarocco, ancient_french and slavic_costumes decks). The German decks are never trained on.

python -m vision.training.train_glyph_check --crops DIR... --letters FILE.npz... --onnx models/cards_glyphs.onnx
    [--classifier models/cards_cls.onnx --epochs 20 --hidden 64 --seed 0]"""
from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from vision.classifier import crops_to_input
from vision.crops import CARD_CODES, CROP_SIZE

FEATURE_MAP = "/features/features.7/features.7.2/Relu_output_0"  # the classifier's last conv stage, (N, 192, 3, 3)


def folder_crops(root: Path) -> np.ndarray:
    """Every card crop under root/<code>/*.png (no `none`) as (N, 48, 48, 3) BGR uint8."""
    paths = [p for code in CARD_CODES for p in sorted((root / code).glob("*.png"))]
    crops = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in paths]
    return np.stack([c for c in crops if c is not None and c.shape == (CROP_SIZE, CROP_SIZE, 3)])


def trunk(classifier: Path) -> onnx.ModelProto:
    """The classifier's graph cut after FEATURE_MAP, which becomes its only output."""
    model = onnx.load(str(classifier))
    graph, kept = model.graph, []
    for node in graph.node:
        kept.append(node)
        if FEATURE_MAP in node.output:
            break
    else:
        raise ValueError(f"{classifier.name} has no {FEATURE_MAP}")
    used = {name for node in kept for name in node.input}
    initializers = [t for t in graph.initializer if t.name in used]
    del graph.node[:], graph.initializer[:], graph.output[:]
    graph.node.extend(kept)
    graph.initializer.extend(initializers)
    graph.output.append(helper.make_tensor_value_info(FEATURE_MAP, TensorProto.FLOAT, None))
    return model


def features(model: onnx.ModelProto, crops: np.ndarray) -> np.ndarray:
    import onnxruntime

    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return np.concatenate([session.run(None, {"input": crops_to_input(list(crops[i:i + 256]))})[0].reshape(
        len(crops[i:i + 256]), -1) for i in range(0, len(crops), 256)])


def with_head(model: onnx.ModelProto, head: nn.Sequential, mean: np.ndarray, spread: np.ndarray) -> onnx.ModelProto:
    """The trunk with the head appended (standardisation folded into its first layer): output `unknown` (N, 1)."""
    first, last = head[1], head[4]
    w1 = first.weight.detach().double().numpy()
    b1 = first.bias.detach().double().numpy() - w1 @ (mean / spread)
    w1 = w1 / spread
    graph = model.graph
    graph.initializer.extend([
        numpy_helper.from_array(w1.T.astype(np.float32), "glyph_w1"), numpy_helper.from_array(b1.astype(np.float32), "glyph_b1"),
        numpy_helper.from_array(last.weight.detach().numpy().T.copy(), "glyph_w2"),
        numpy_helper.from_array(last.bias.detach().numpy().copy(), "glyph_b2")])
    graph.node.extend([helper.make_node("Flatten", [FEATURE_MAP], ["glyph_flat"], axis=1),
                       helper.make_node("Gemm", ["glyph_flat", "glyph_w1", "glyph_b1"], ["glyph_hidden"]),
                       helper.make_node("Relu", ["glyph_hidden"], ["glyph_relu"]),
                       helper.make_node("Gemm", ["glyph_relu", "glyph_w2", "glyph_b2"], ["unknown"])])
    del graph.output[:]
    graph.output.append(helper.make_tensor_value_info("unknown", TensorProto.FLOAT, ["n", 1]))
    del model.metadata_props[:]
    for key, value in (("about", "index-glyph check (vision.glyphs): logit > 0 = the crop's rank is no French rank"),
                       ("trunk", "models/cards_cls.onnx up to its last feature map, frozen"),
                       ("trained_by", "vision.training.train_glyph_check")):
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    return model


def train_head(x: np.ndarray, unknown: np.ndarray, hidden: int, epochs: int, seed: int) -> nn.Sequential:
    torch.manual_seed(seed)
    head = nn.Sequential(nn.Dropout(0.2), nn.Linear(x.shape[1], hidden), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(hidden, 1))
    optimiser = torch.optim.AdamW(head.parameters(), 1e-3, weight_decay=1e-3)
    xs, ys = torch.from_numpy(x.astype(np.float32)), torch.from_numpy(unknown.astype(np.float32))
    for _ in range(epochs):
        head.train()
        order = torch.randperm(len(xs))
        for i in range(0, len(order), 256):
            ids = order[i:i + 256]
            loss = nn.functional.binary_cross_entropy_with_logits(head(xs[ids]).squeeze(1), ys[ids])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return head.eval()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_glyph_check", description=__doc__)
    parser.add_argument("--crops", type=Path, nargs="*", default=[], help="deck crop folders (<code>/*.png): known")
    parser.add_argument("--letters", type=Path, nargs="+", required=True, help="lettercrops / letterdecks files")
    parser.add_argument("--classifier", type=Path, default=Path("models/cards_cls.onnx"))
    parser.add_argument("--onnx", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    crops = [folder_crops(folder) for folder in args.crops]
    unknown = [np.zeros(len(c), bool) for c in crops]
    for path in args.letters:
        data = np.load(path)
        crops.append(data["crops"])
        unknown.append(~data["known"])
    model = trunk(args.classifier)
    x = features(model, np.concatenate(crops))
    y = np.concatenate(unknown)
    mean, spread = x.mean(axis=0).astype(np.float64), x.std(axis=0).astype(np.float64) + 1e-3
    head = train_head((x - mean) / spread, y, args.hidden, args.epochs, args.seed)
    onnx.save(with_head(model, head, mean, spread), str(args.onnx))
    print(f"{len(x)} crops ({int(y.sum())} unknown) -> {args.onnx}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
