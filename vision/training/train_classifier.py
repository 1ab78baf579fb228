"""Train the 53-class corner-index crop classifier on crops/{train,val}/<class>/*.png (48x48 BGR).

Run from the repository root with the training env:
    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.train_classifier \
        --crops /work/data/synth-v1/crops --epochs 20 --out /work/runs/cls-v1
Writes <out>/best.pt (best val top-1), <out>/last.pt (resumable with --resume), <out>/log.csv and
<out>/per_class_val.json. Fine-tune from earlier weights with --init path/to/best.pt.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from vision.crops import CLASS_NAMES, CROP_SIZE
from vision.degrade import unsteady_blur
from vision.training.classifier_model import build_classifier, classifier_from_checkpoint, param_count
from vision.training.widen import widen_classifier

TORCH_THREADS = int(os.environ.get("TRAIN_THREADS", "2"))


# ---------------------------------------------------------------- data

def load_split(crops_root: Path, split: str, cache_dir: Path) -> tuple[np.ndarray, np.ndarray]:
    """All crops of one split as uint8 [N, 48, 48, 3] BGR and int64 labels; cached as .npz."""
    folder = crops_root / split
    if not folder.is_dir():
        raise SystemExit(f"no crops folder {folder}")
    unknown = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name not in CLASS_NAMES)
    if unknown:
        raise SystemExit(f"{folder} has class folders not in CLASS_NAMES: {unknown}")
    files = [(class_id, path) for class_id, name in enumerate(CLASS_NAMES)
             for path in sorted((folder / name).glob("*.png"))]
    cache = cache_dir / f"crops_{split}.npz"
    if cache.exists():
        data = np.load(cache)
        if len(data["y"]) == len(files):  # same file count: the folder has not grown since
            return data["x"], data["y"]
    images: list[np.ndarray] = []
    labels: list[int] = []
    unreadable = 0
    for class_id, path in files:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:  # e.g. a file still being written by the generator
            unreadable += 1
            continue
        if img.shape != (CROP_SIZE, CROP_SIZE, 3):
            raise SystemExit(f"bad crop {path}: expected {CROP_SIZE}x{CROP_SIZE} BGR")
        images.append(img)
        labels.append(class_id)
    if unreadable:
        print(f"warning: skipped {unreadable} unreadable crops in {folder}", flush=True)
    if not images:
        raise SystemExit(f"no crops under {folder}")
    x = np.stack(images)
    y = np.asarray(labels, dtype=np.int64)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.savez(cache, x=x, y=y)
    return x, y


def to_tensor(batch_bgr: np.ndarray) -> torch.Tensor:
    """uint8 [N, H, W, 3] BGR -> float32 [N, 3, H, W] BGR / 255 (the ONNX input convention)."""
    return torch.from_numpy(batch_bgr).permute(0, 3, 1, 2).float().div_(255.0)


# ---------------------------------------------------------------- augmentation

def pixel_degrade(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per-crop blur, downscale-upscale and JPEG, as a phone photo and a small detection would give."""
    out = batch.copy()
    for i in range(len(out)):
        img = out[i]
        r = rng.random()
        if r < 0.15:
            sigma = rng.uniform(0.4, 1.3)
            img = cv2.GaussianBlur(img, (0, 0), sigma)
        elif r < 0.30:
            # Index seen at low resolution (10-20 px tall) then upscaled by the reader.
            small = int(rng.integers(16, 36))
            img = cv2.resize(cv2.resize(img, (small, small), interpolation=cv2.INTER_AREA),
                             (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_LINEAR)
        if rng.random() < 0.25:
            quality = int(rng.integers(30, 90))
            ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
            if ok:
                img = cv2.imdecode(enc, cv2.IMREAD_COLOR)
        out[i] = img
    return out


def heavy_blur(batch: np.ndarray, rng: np.random.Generator, share: float, strength: float = 1.0) -> np.ndarray:
    """A share of crops blurred hard: half defocus (Gaussian, sigma 1.3-3.5 crop pixels), half motion (a line
    4-12 px long at any angle); `strength` scales both upper bounds. pixel_degrade's blur stops at sigma 1.3, while
    a phone moved or out of focus blurs an index enlarged to 48 px by 2-5 px (real photos read unsurely in
    edje-steep's blurred view), a small index squeezed by a steep view enlarged more than twice, by more."""
    out = batch.copy()
    for i in np.nonzero(rng.random(len(out)) < share)[0]:
        out[i] = unsteady_blur(out[i], rng, (1.3, 3.5 * strength), (4.0, 12.0 * strength))
    return out


def stroke_weight(batch: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """A share of crops with their glyphs' strokes made bolder (a minimum filter spreads the dark ink) or thinner (a
    maximum filter), by a 2x2 or 3x3 window: unseen decks print their indices in other weights than the training
    decks, and their ranks are what the classifier confuses most there (6/8, A/K, Q/4: session 29)."""
    out = batch.copy()
    for i in np.nonzero(rng.random(len(out)) < share)[0]:
        kernel = np.ones((2, 2) if rng.random() < 0.7 else (3, 3), np.uint8)
        out[i] = cv2.erode(out[i], kernel) if rng.random() < 0.5 else cv2.dilate(out[i], kernel)
    return out


# Occluders laid over crops (occluded): the index box fills 1 / 1.4 of a crop (vision.crops.index_crop), and each cut
# leaves the index centre in view, hiding 10-35 % of the box.
OCCLUDER_DEPTH = (0.3, 0.8)  # the edge's distance from the crop centre, as a share of the index box's half side


def occluded(batch: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """A share of crops with something laid over one side of them: a straight edge at any angle (another card's,
    with its dark outline on 70 % of them; or a hand's or the table's), everything beyond it one flat colour (paper,
    skin or any) with a little noise. The index's centre stays in view: in fans and heaps an index is often cut by
    the card or hand on top, and several of those the classifier names wrongly at their exact boxes are (session 40)."""
    out = batch.copy()
    size = batch.shape[1]
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2
    half_box = size / 2 / 1.4
    for i in np.nonzero(rng.random(len(out)) < share)[0]:
        angle = rng.uniform(0, 2 * np.pi)
        along = xx * np.cos(angle) + yy * np.sin(angle)
        depth = rng.uniform(*OCCLUDER_DEPTH) * half_box
        kind = rng.random()
        if kind < 0.5:  # paper of another card
            colour = rng.uniform(200, 255) - rng.uniform(0, 25, 3)
        elif kind < 0.7:  # skin (BGR)
            colour = np.array([rng.uniform(90, 170), rng.uniform(120, 200), rng.uniform(170, 240)])
        else:  # a table, a sleeve, anything
            colour = rng.uniform(0, 255, 3)
        beyond = along > depth
        noise = rng.normal(0, 4, (int(beyond.sum()), 3))
        out[i][beyond] = np.clip(colour + noise, 0, 255).astype(np.uint8)
        if kind < 0.5 and rng.random() < 0.7:  # a card's printed or cut edge
            out[i][np.abs(along - depth) < rng.uniform(0.6, 1.4)] = np.uint8(rng.uniform(0, 90))
    return out


ELASTIC_KNOTS = 5  # a knots-by-knots grid of random shifts, smoothly interpolated over the crop


def elastic_warp(x: torch.Tensor, gen: torch.Generator, share: float, max_px: float = 2.0) -> torch.Tensor:
    """A share of crops bent by a smooth random field (each pixel moved up to `max_px` crop pixels along each axis,
    the field varying over about a fifth of the crop): unseen decks draw their ranks in other shapes than the
    training decks' fonts (curls, serifs, bowls of another width), which an affine map cannot make (Simard et al.
    2003)."""
    chosen = torch.nonzero(torch.rand(x.shape[0], generator=gen) < share).flatten()
    if len(chosen) == 0:
        return x
    n, size = len(chosen), x.shape[-1]
    amplitude = torch.rand(n, 1, 1, 1, generator=gen) * max_px * 2 / size  # grid units: 2 span the crop
    knots = (torch.rand(n, 2, ELASTIC_KNOTS, ELASTIC_KNOTS, generator=gen) * 2 - 1) * amplitude
    field = F.interpolate(knots, size=(size, size), mode="bicubic", align_corners=True).permute(0, 2, 3, 1)
    identity = F.affine_grid(torch.eye(2, 3).expand(n, 2, 3), [n, x.shape[1], size, size], align_corners=False)
    x = x.clone()
    x[chosen] = F.grid_sample(x[chosen], identity + field, mode="bilinear", padding_mode="border",
                              align_corners=False)
    return x


def geometric_colour(x: torch.Tensor, gen: torch.Generator, squeeze_share: float = 0.0,
                     squeeze_min: float = 0.5) -> torch.Tensor:
    """Batched any-angle rotation, small scale/shift, squeeze, colour casts, contrast, gray, noise.

    The squeeze (one axis shortened to `squeeze_min`..1 on a share of crops) is how a steep view flattens an
    index; the scenes the crops were cut from have such views, but too few of the steepest.
    """
    n = x.shape[0]
    angle = torch.rand(n, generator=gen) * 2 * math.pi
    scale = 1.0 + (torch.rand(n, generator=gen) * 2 - 1) * 0.15
    shift = (torch.rand(n, 2, generator=gen) * 2 - 1) * 0.10
    squeeze = torch.ones(n)
    if squeeze_share > 0:  # no draws when off, so runs without it repeat the earlier sessions' augmentation
        squeezed = torch.rand(n, generator=gen) < squeeze_share
        squeeze[squeezed] = squeeze_min + torch.rand(int(squeezed.sum()), generator=gen) * (1.0 - squeeze_min)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    # sampling grid = rotation . diag(1 / squeeze, 1): the output shows the content shortened along x
    theta = torch.stack([torch.stack([cos / squeeze, -sin, shift[:, 0]], 1),
                         torch.stack([sin / squeeze, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    # Colour: per-channel gain (casts), brightness, contrast around the mean.
    gain = 1.0 + (torch.rand(n, 3, 1, 1, generator=gen) * 2 - 1) * 0.2
    bright = (torch.rand(n, 1, 1, 1, generator=gen) * 2 - 1) * 0.2
    contrast = 0.6 + torch.rand(n, 1, 1, 1, generator=gen) * 0.8
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * contrast + mean
    x = x * gain + bright
    gray = torch.rand(n, generator=gen) < 0.05
    if gray.any():
        x[gray] = x[gray].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    noise_sigma = torch.rand(n, 1, 1, 1, generator=gen) * 0.05
    x = x + torch.randn(x.shape, generator=gen) * noise_sigma
    return x.clamp_(0.0, 1.0)


# ---------------------------------------------------------------- train / eval

@torch.no_grad()
def evaluate(model: torch.nn.Module, x: np.ndarray, y: np.ndarray, batch: int = 512) -> tuple[float, np.ndarray]:
    """Top-1 accuracy and the confusion matrix [true, predicted]."""
    model.eval()
    preds = []
    for i in range(0, len(x), batch):
        preds.append(model(to_tensor(x[i:i + batch])).argmax(1).numpy())
    pred = np.concatenate(preds)
    k = len(CLASS_NAMES)
    confusion = np.bincount(y * k + pred, minlength=k * k).reshape(k, k)
    return float((pred == y).mean()), confusion


def per_class_report(confusion: np.ndarray) -> list[dict]:
    rows = []
    for i, name in enumerate(CLASS_NAMES):
        total = int(confusion[i].sum())
        if total == 0:
            continue
        off = confusion[i].copy()
        off[i] = 0
        worst = int(off.argmax())
        rows.append({
            "class": name, "n": total, "recall": round(confusion[i, i] / total, 4),
            "top_confusion": CLASS_NAMES[worst] if off[worst] else None, "top_confusion_n": int(off[worst]),
        })
    return sorted(rows, key=lambda r: r["recall"])


def distillation_loss(student_logits: torch.Tensor, teacher_logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """Hinton's soft-target loss: KL(teacher || student) of the temperature-softened answers, scaled by T² so its
    gradients keep their size as T changes."""
    teacher = F.softmax(teacher_logits / temperature, dim=1)
    student = F.log_softmax(student_logits / temperature, dim=1)
    return F.kl_div(student, teacher, reduction="batchmean") * temperature ** 2


def load_teacher(path: Path) -> torch.nn.Module:
    """A classifier checkpoint (train_classifier's) in eval mode, its weights frozen."""
    teacher = classifier_from_checkpoint(torch.load(path, map_location="cpu", weights_only=False), path)
    for parameter in teacher.parameters():
        parameter.requires_grad_(False)
    return teacher.eval().to(memory_format=torch.channels_last)


def freeze_after(model: torch.nn.Module, stages: int) -> list[torch.nn.Module]:
    """Stop every conv stage from `stages` on and the head from learning; returns the frozen modules."""
    if not 0 < stages <= len(model.features):
        raise ValueError(f"--train-first must be 1..{len(model.features)}")
    frozen = list(model.features[stages:]) + [model.head]
    for module in frozen:
        for parameter in module.parameters():
            parameter.requires_grad_(False)
    return frozen


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--crops", type=Path, nargs="+", required=True,
                   help="crops/ folder(s) of synth-vN datasets; their train/ splits are pooled")
    p.add_argument("--val-crops", type=Path, help="crops/ folder whose val/ split validates (default: the first)")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--weight-decay", type=float, default=5e-4)
    p.add_argument("--width", type=int, default=24)
    p.add_argument("--squeeze-share", type=float, default=0.0,
                   help="share of training crops shortened along one axis (steep views), 0 = off")
    p.add_argument("--heavy-blur-share", type=float, default=0.0,
                   help="share of training crops blurred hard (defocus or motion), 0 = off")
    p.add_argument("--heavy-blur-strength", type=float, default=1.0,
                   help="scales the hard blur's largest sigma (3.5 crop px) and motion line (12 px); 1 = as before")
    p.add_argument("--stroke-share", type=float, default=0.0,
                   help="share of training crops with bolder or thinner strokes (other decks' fonts), 0 = off")
    p.add_argument("--elastic-share", type=float, default=0.0,
                   help="share of crops bent by a smooth random field (other fonts' glyph shapes)")
    p.add_argument("--elastic-px", type=float, default=2.0, help="the field's largest shift, in crop pixels")
    p.add_argument("--occlude-share", type=float, default=0.0,
                   help="share of training crops with one side covered by another card, a hand or the table, 0 = off")
    p.add_argument("--train-first", type=int, default=None, metavar="N",
                   help="only the first N conv stages learn (with --init): the rest and the head stay as they were, "
                        "so what the network decides from its early features is kept (session 36: inks of new decks)")
    p.add_argument("--teacher", type=Path,
                   help="a classifier checkpoint whose answers on the same augmented crops the model also learns "
                        "(knowledge distillation): a fine-tune keeps the teacher's doubts where the labels say nothing "
                        "(session 51: fine-tunes flipped half-covered marks between a card and `none`)")
    p.add_argument("--distill-weight", type=float, default=0.5,
                   help="with --teacher: the soft-target loss's share, the labels' cross entropy the rest (the "
                        "loss printed each epoch is then the mixture, not comparable with runs without a teacher)")
    p.add_argument("--distill-temperature", type=float, default=2.0, help="with --teacher: softening temperature")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--holdout", type=float, default=0.0,
                   help="validate on this fraction of train instead of crops/val (early runs only)")
    p.add_argument("--init", type=Path, help="start from these weights (best.pt/last.pt of an earlier run)")
    p.add_argument("--resume", action="store_true", help="continue <out>/last.pt")
    p.add_argument("--minutes", type=float, default=None,
                   help="time budget: after epoch 1 the epoch count (and the cosine schedule) is refitted to it")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.train_first is not None and (args.resume or args.init is None):
        raise SystemExit("--train-first needs --init and cannot --resume (its optimizer holds only the first stages)")
    if args.teacher is not None and not (0.0 <= args.distill_weight <= 1.0 and args.distill_temperature > 0):
        raise SystemExit("--distill-weight must lie in 0..1 and --distill-temperature be positive")
    torch.set_num_threads(TORCH_THREADS)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)

    t0 = time.time()
    parts = [load_split(root, "train", args.out / f"cache{i}") for i, root in enumerate(args.crops)]
    x_train = np.concatenate([x for x, _ in parts])
    y_train = np.concatenate([y for _, y in parts])
    if args.holdout > 0:
        # Only for early runs while the generator has not written crops/val yet: NOT a by-deck split,
        # so this val top-1 is optimistic about unseen decks.
        perm = np.random.default_rng(args.seed).permutation(len(x_train))
        n_val = int(len(perm) * args.holdout)
        x_val, y_val = x_train[perm[:n_val]], y_train[perm[:n_val]]
        x_train, y_train = x_train[perm[n_val:]], y_train[perm[n_val:]]
        print(f"warning: val = {n_val} crops held out of train (same decks), not crops/val", flush=True)
    else:
        x_val, y_val = load_split(args.val_crops or args.crops[0], "val", args.out / "cache_val")
    print(f"loaded train {len(x_train)} val {len(x_val)} crops in {time.time() - t0:.1f}s; "
          f"train per class min {np.bincount(y_train, minlength=len(CLASS_NAMES)).min()}", flush=True)

    model = build_classifier(args.width).to(memory_format=torch.channels_last)  # NHWC: faster on this CPU
    print(f"classifier params {param_count(model)}", flush=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    steps_per_epoch = math.ceil(len(x_train) / args.batch)
    schedule = {"total": args.epochs * steps_per_epoch}
    warmup = min(steps_per_epoch // 2, schedule["total"] // 10)

    def lr_at(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        progress = min(1.0, (step - warmup) / max(1, schedule["total"] - warmup))
        return 0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
    start_epoch, best_acc = 0, -1.0
    last_path, best_path = args.out / "last.pt", args.out / "best.pt"
    if args.resume:
        state = torch.load(last_path, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        start_epoch, best_acc = state["epoch"] + 1, state["best_acc"]
        args.epochs = state.get("epochs", args.epochs)
        schedule["total"] = args.epochs * steps_per_epoch
        rng = np.random.default_rng(args.seed + start_epoch)
        gen.manual_seed(args.seed + start_epoch)
        print(f"resumed at epoch {start_epoch}, best {best_acc:.4f}", flush=True)
    elif args.init is not None:
        state = torch.load(args.init, map_location="cpu", weights_only=False)
        init_width = state.get("width", args.width)
        if init_width < args.width:  # a wider network that starts with the narrow one's answers
            narrow = build_classifier(init_width)
            narrow.load_state_dict(state["model"])
            model = widen_classifier(narrow, args.width, seed=args.seed).to(memory_format=torch.channels_last)
            optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
            scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
            print(f"initialised from {args.init}, widened {init_width} -> {args.width} "
                  f"({param_count(model)} params)", flush=True)
        else:
            model.load_state_dict(state["model"])
            print(f"initialised from {args.init}", flush=True)

    frozen = freeze_after(model, args.train_first) if args.train_first is not None else []
    teacher = load_teacher(args.teacher) if args.teacher is not None else None
    if teacher is not None:
        print(f"distilling from {args.teacher} (weight {args.distill_weight}, T {args.distill_temperature})", flush=True)
    if frozen:
        optimizer = torch.optim.AdamW([q for q in model.parameters() if q.requires_grad], lr=args.lr,
                                      weight_decay=args.weight_decay)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
        print(f"training the first {args.train_first} stages only "
              f"({sum(q.numel() for q in model.parameters() if q.requires_grad)} params)", flush=True)
    log_path = args.out / "log.csv"
    new_log = not log_path.exists() or not args.resume
    with log_path.open("w" if new_log else "a", newline="") as log_file:
        log = csv.writer(log_file)
        if new_log:
            log.writerow(["epoch", "train_loss", "train_acc", "val_top1", "lr", "epoch_s", "s_per_iter"])
        epoch = start_epoch
        while epoch < args.epochs:
            model.train()
            for module in frozen:  # frozen stages keep their batch-norm statistics too
                module.eval()
            order = rng.permutation(len(x_train))
            t_epoch = time.time()
            loss_sum, correct, seen = 0.0, 0, 0
            for step in range(steps_per_epoch):
                idx = np.sort(order[step * args.batch:(step + 1) * args.batch])
                batch_bgr = x_train[idx]
                if args.occlude_share > 0:  # before the pixel degradations: the occluder was in the photo
                    batch_bgr = occluded(batch_bgr, rng, args.occlude_share)
                batch_bgr = pixel_degrade(batch_bgr, rng)
                if args.heavy_blur_share > 0:  # no draws when off: earlier sessions' commands repeat their runs
                    batch_bgr = heavy_blur(batch_bgr, rng, args.heavy_blur_share, args.heavy_blur_strength)
                if args.stroke_share > 0:
                    batch_bgr = stroke_weight(batch_bgr, rng, args.stroke_share)
                xb = to_tensor(batch_bgr)
                if args.elastic_share > 0:
                    xb = elastic_warp(xb, gen, args.elastic_share, args.elastic_px)
                xb = geometric_colour(xb, gen, args.squeeze_share)
                xb = xb.contiguous(memory_format=torch.channels_last)
                yb = torch.from_numpy(y_train[idx])
                logits = model(xb)
                loss = F.cross_entropy(logits, yb, label_smoothing=0.05)
                if teacher is not None:
                    with torch.no_grad():
                        teacher_logits = teacher(xb)
                    loss = ((1.0 - args.distill_weight) * loss + args.distill_weight
                            * distillation_loss(logits, teacher_logits, args.distill_temperature))
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
                scheduler.step()
                loss_sum += loss.item() * len(idx)
                correct += int((logits.argmax(1) == yb).sum())
                seen += len(idx)
            epoch_s = time.time() - t_epoch
            val_acc, confusion = evaluate(model, x_val, y_val)
            lr_now = optimizer.param_groups[0]["lr"]
            log.writerow([epoch, f"{loss_sum / seen:.4f}", f"{correct / seen:.4f}", f"{val_acc:.4f}",
                          f"{lr_now:.2e}", f"{epoch_s:.1f}", f"{epoch_s / steps_per_epoch:.3f}"])
            log_file.flush()
            print(f"epoch {epoch + 1}/{args.epochs} loss {loss_sum / seen:.4f} train {correct / seen:.4f} "
                  f"val top-1 {val_acc:.4f} ({epoch_s:.0f}s, {epoch_s / steps_per_epoch:.3f}s/iter)", flush=True)
            if args.minutes is not None and epoch == start_epoch:
                # Refit the epoch count to the time budget from the measured epoch (+ validation) time.
                per_epoch = time.time() - t_epoch
                args.epochs = max(epoch + 1, min(args.epochs, int(args.minutes * 60 // per_epoch)))
                schedule["total"] = args.epochs * steps_per_epoch
                print(f"time budget {args.minutes} min: {per_epoch:.0f}s/epoch -> {args.epochs} epochs", flush=True)
            meta = {"classes": CLASS_NAMES, "width": args.width, "epoch": epoch, "val_top1": val_acc,
                    "seed": args.seed, "crops": [str(c) for c in args.crops], "epochs": args.epochs}
            if val_acc > best_acc:
                best_acc = val_acc
                torch.save({"model": model.state_dict(), **meta}, best_path)
                (args.out / "per_class_val.json").write_text(json.dumps(per_class_report(confusion), indent=1))
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict(), "best_acc": best_acc, **meta}, last_path)
            epoch += 1
    print(f"best val top-1 {best_acc:.4f}; weights {best_path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
