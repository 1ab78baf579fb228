"""Train the index-glyph check (vision.glyphs, models/cards_glyphs.onnx): is a corner crop's rank one a French-suited
deck prints (2-10, J, Q, K, A), or another letter (German B/D, Dutch V/H, Spanish S/C/R, tarot, Cyrillic ...)?

The network is the shipped classifier's trunk (models/cards_cls.onnx up to its last 3 x 3 feature map, frozen: it
has seen every index style the reader knows, real webcam crops too) and a small head trained here on its features
(1728 -> 64 -> 1, ReLU; the features' standardisation folded into the first layer). One logit, > 0 = not French.

Known crops: the deck crops of `vision.synth --parts crops` (folders <code>/*.png, `none` left out) and the known
halves of the lettercrops / letterdecks files; unknown: their other halves (other letters typeset in the fonts, the
courts of Debian's tarocco, ancient_french and slavic_costumes decks). The German decks are never trained on.

python -m vision.training.train_glyph_check --crops DIR... --letters FILE.npz... --onnx models/cards_glyphs.onnx
    [--classifier models/cards_cls.onnx --epochs 20 --hidden 64 --seed 0]

`--network finetune` (session 61) trains the whole classifier network instead (from --checkpoint's weights, its 53
logits replaced by one), `--network scratch` the same network from random weights (--width): a frozen trunk maps
B onto 8 and D onto 10, as it was trained to. Those are meant for the redrawn corners of real decks
(vision.synth.parts.redrawncrops), where only the rank's glyph tells known from unknown. --val FILE.npz... prints
each epoch's accuracy on held-out crops; --checkpoints DIR keeps each epoch's weights (outside the repository)."""
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
        one_epoch(head, xs, ys, optimiser, 256)
    return head.eval()


def one_epoch(model: nn.Module, xs: torch.Tensor, ys: torch.Tensor, optimiser: torch.optim.Optimizer, batch: int,
              schedule: torch.optim.lr_scheduler.LRScheduler | None = None) -> float:
    """One pass over (xs, ys) in random batches with the binary loss (one logit, > 0 = no French rank); the mean loss."""
    model.train()
    order, total = torch.randperm(len(xs)), 0.0
    for i in range(0, len(order), batch):
        ids = order[i:i + batch]
        loss = nn.functional.binary_cross_entropy_with_logits(model(xs[ids]).squeeze(1), ys[ids])
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if schedule is not None:
            schedule.step()
        total += float(loss.detach()) * len(ids)
    return total / len(xs)


def train_network(crops: np.ndarray, unknown: np.ndarray, val: tuple[np.ndarray, np.ndarray] | None,
                  start: Path | None, width: int, epochs: int, seed: int, checkpoints: Path | None,
                  lr: float | None = None) -> nn.Module:
    """The classifier network with one logit (> 0: no French rank), every layer trained (AdamW, cosine schedule)."""
    from vision.training.classifier_model import IndexClassifier

    torch.manual_seed(seed)
    if start is not None:
        state = torch.load(start, map_location="cpu", weights_only=False)
        if "width" in state:  # the classifier's checkpoint: its 53 logits replaced by one
            model = IndexClassifier(width=state["width"])
            model.load_state_dict(state["model"])
            model.head[-1] = nn.Linear(model.head[-1].in_features, 1)
        else:  # a glyph check's own (--checkpoints): trained on
            model = IndexClassifier(num_classes=1, width=2 * state["features.0.0.weight"].shape[0])
            model.load_state_dict(state)
    else:
        model = IndexClassifier(num_classes=1, width=width)
    xs = torch.from_numpy(crops_to_input(list(crops)))
    ys = torch.from_numpy(unknown.astype(np.float32))
    lr = lr if lr is not None else 1e-3 if start is None else 5e-4
    optimiser = torch.optim.AdamW(model.parameters(), lr, weight_decay=1e-4)
    steps = epochs * ((len(xs) + 127) // 128)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, optimiser.param_groups[0]["lr"], total_steps=steps)
    for epoch in range(epochs):
        line = f"epoch {epoch + 1}: loss {one_epoch(model, xs, ys, optimiser, 128, schedule):.4f}"
        if val is not None:
            chances = network_chances(model, val[0])
            line += (f", val known flagged {np.mean(chances[~val[1]] >= 0.5):.3f}, unknown flagged "
                     f"{np.mean(chances[val[1]] >= 0.5):.3f}")
        print(line, flush=True)
        if checkpoints is not None:
            checkpoints.mkdir(parents=True, exist_ok=True)
            torch.save(model.state_dict(), checkpoints / f"glyph_epoch{epoch + 1}.pt")
    return model.eval()


def network_chances(model: nn.Module, crops: np.ndarray) -> np.ndarray:
    model.eval()
    with torch.no_grad():
        logits = torch.cat([model(torch.from_numpy(crops_to_input(list(crops[i:i + 512])))).squeeze(1)
                            for i in range(0, len(crops), 512)])
    return torch.sigmoid(logits).numpy()


def export_network(model: nn.Module, path: Path) -> None:
    """ONNX with input `input` (N, 3, 48, 48) as the classifier's and output `unknown` (N, 1), the logit."""
    dummy = torch.zeros(2, 3, CROP_SIZE, CROP_SIZE)
    torch.onnx.export(model, (dummy,), str(path), input_names=["input"], output_names=["unknown"],
                      dynamic_axes={"input": {0: "batch"}, "unknown": {0: "batch"}}, opset_version=17,
                      do_constant_folding=True, dynamo=False)
    proto = onnx.load(str(path))
    for key, value in (("about", "index-glyph check (vision.glyphs): logit > 0 = the crop's rank is no French rank"),
                       ("trained_by", "vision.training.train_glyph_check --network")):
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(proto)
    onnx.save(proto, str(path))


def load_letters(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """(crops, unknown) of lettercrops / letterdecks / redrawncrops files."""
    data = [np.load(path) for path in paths]
    return np.concatenate([d["crops"] for d in data]), np.concatenate([~d["known"] for d in data])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.train_glyph_check", description=__doc__)
    parser.add_argument("--crops", type=Path, nargs="*", default=[], help="deck crop folders (<code>/*.png): known")
    parser.add_argument("--letters", type=Path, nargs="+", required=True, help="lettercrops / letterdecks files")
    parser.add_argument("--classifier", type=Path, default=Path("models/cards_cls.onnx"))
    parser.add_argument("--onnx", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--network", choices=("head", "finetune", "scratch"), default="head")
    parser.add_argument("--checkpoint", type=Path, default=Path("models/cards_cls.pt"),
                        help="finetune's start: the classifier's checkpoint, or a glyph check's (--checkpoints)")
    parser.add_argument("--width", type=int, default=16, help="scratch network's width")
    parser.add_argument("--val", type=Path, nargs="*", default=[], help="held-out lettercrops-style files")
    parser.add_argument("--checkpoints", type=Path, default=None)
    parser.add_argument("--lr", type=float, default=None, help="peak learning rate (1e-3 scratch, 5e-4 finetune)")
    args = parser.parse_args(argv)
    if args.network != "head":
        crops, unknown = load_letters(args.letters)
        if args.crops:
            known = np.concatenate([folder_crops(folder) for folder in args.crops])
            crops, unknown = np.concatenate([crops, known]), np.concatenate([unknown, np.zeros(len(known), bool)])
        val = load_letters(args.val) if args.val else None
        model = train_network(crops, unknown, val, args.checkpoint if args.network == "finetune" else None,
                              args.width, args.epochs, args.seed, args.checkpoints, args.lr)
        export_network(model, args.onnx)
        print(f"{len(crops)} crops ({int(unknown.sum())} unknown) -> {args.onnx}")
        return 0
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
