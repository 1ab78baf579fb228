"""Train the one-class corner-index detector (ultralytics YOLO11n from its yaml, from scratch, CPU, offline).

Run from the repository root with the training env:
    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.train_detector \
        --data /work/data/synth-v1/detect/data.yaml --epochs 30 --imgsz 320 --out /work/runs/det-v1
Resume an interrupted run (continues from <out>/train/weights/last.pt with its own arguments):
    ... -m vision.training.train_detector --out /work/runs/det-v1 --resume
Fine-tune a finished model on new data (weights only, fresh schedule):
    ... --data /work/data/synth-v2/detect/data.yaml --init /work/runs/det-v1/train/weights/best.pt ...
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

# Must be set before ultralytics is imported: no hub, no font or weight downloads.
os.environ.setdefault("YOLO_OFFLINE", "1")

import torch  # noqa: E402

TORCH_THREADS = int(os.environ.get("TRAIN_THREADS", "2"))
RAM_CACHE_LIMIT_BYTES = 4 * 1024**3  # cache decoded tiles in RAM only when they fit comfortably

# Augmentation for a single class "index" box. Flips are label-safe (one class) and keep boxes
# exact; the generator already rotates cards by any angle, and ultralytics' own rotation would
# only inflate the axis-aligned boxes, so degrees stays 0.
AUGMENT = dict(
    degrees=0.0,
    fliplr=0.5,
    flipud=0.5,
    mosaic=1.0,
    mixup=0.0,
    scale=0.4,
    translate=0.1,
    hsv_h=0.02,
    hsv_s=0.6,
    hsv_v=0.4,
)


# Optional file holding a thread count, re-read at every epoch start, so a long run can give a core to a
# short job (e.g. the classifier) and take it back without a restart.
THREADS_FILE = os.environ.get("TRAIN_THREADS_FILE")


def set_threads(_trainer: object = None) -> None:
    """Ultralytics sets torch threads to cpu_count-1 (1 on this 2-core box); take both cores back."""
    threads = TORCH_THREADS
    if THREADS_FILE and Path(THREADS_FILE).exists():
        try:
            threads = max(1, int(Path(THREADS_FILE).read_text().strip()))
        except ValueError:
            pass
    if torch.get_num_threads() != threads:
        print(f"torch threads -> {threads}", flush=True)
    torch.set_num_threads(threads)


def count_images(data_yaml: Path) -> int:
    """Number of training images listed by a YOLO data.yaml (folder layout only)."""
    import yaml

    spec = yaml.safe_load(data_yaml.read_text())
    root = Path(spec.get("path") or data_yaml.parent)
    folders = spec["train"] if isinstance(spec["train"], list) else [spec["train"]]
    return sum(
        1
        for folder in folders
        for p in (root / folder).iterdir()
        if p.suffix.lower() in {".jpg", ".jpeg", ".png"}
    )


def choose_cache(data_yaml: Path, imgsz: int) -> str | bool:
    """'ram' when all training tiles decoded at imgsz fit under RAM_CACHE_LIMIT_BYTES, else no cache."""
    needed = count_images(data_yaml) * imgsz * imgsz * 3
    return "ram" if needed <= RAM_CACHE_LIMIT_BYTES else False


CHANNELS_LAST = os.environ.get("TRAIN_CHANNELS_LAST", "1") != "0"


def use_channels_last(trainer: object) -> None:
    """NHWC convolutions measured ~1.6x faster than NCHW for YOLO11n on this CPU (oneDNN).

    Module.to() swaps param.data in place, so the optimizer built before this keeps its parameters.
    """
    trainer.model.to(memory_format=torch.channels_last)
    ema = getattr(trainer, "ema", None)
    if ema is not None:
        ema.ema.to(memory_format=torch.channels_last)


def add_thread_callbacks(model: object, workers: int | None = None) -> None:
    for event in ("on_pretrain_routine_end", "on_train_start", "on_train_epoch_start"):
        model.add_callback(event, set_threads)
    if CHANNELS_LAST:
        model.add_callback("on_train_start", use_channels_last)
    if workers is not None:
        def restore_workers(trainer: object) -> None:
            # The trainer forces workers=0 on CPU; a loader process overlaps mosaic/JPEG decoding with compute.
            trainer.args.workers = workers

        model.add_callback("on_pretrain_routine_start", restore_workers)


def keep_epoch_copies(model: object) -> None:
    """After each epoch's last.pt, a copy as epoch<N>.pt beside it (ultralytics overwrites last.pt every epoch; each
    epoch is a candidate, and a run cut off keeps every epoch it finished)."""
    import shutil

    def copy_last(trainer: object) -> None:
        shutil.copyfile(trainer.last, trainer.last.with_name(f"epoch{trainer.epoch + 1}.pt"))

    model.add_callback("on_model_save", copy_last)


def read_results_without_polars(trainer: object) -> dict:
    """results.csv as {column: [values]} with the csv module (what ultralytics builds with polars, a 54 MB wheel
    that a lent GPU machine lacks and cannot fetch)."""
    import csv

    try:
        with open(trainer.csv, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    return {key.strip(): [float(row[key]) for row in rows] for key in (rows[0] if rows else {})}


def patch_for_offline_machine(device: str) -> None:
    """Without polars, checkpoints keep their results via the csv module (plots are off, so nothing else needs it).
    On a GPU, skip ultralytics' AMP check: it downloads a pretrained model, which this project never does."""
    from ultralytics.engine import trainer as trainer_module

    try:
        import polars  # noqa: F401
    except ImportError:
        trainer_module.BaseTrainer.read_results_csv = read_results_without_polars
    if device != "cpu":
        trainer_module.check_amp = lambda _model: True


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, help="detect/data.yaml of a synth-vN dataset")
    p.add_argument("--out", type=Path, required=True, help="run folder (weights in <out>/train/weights)")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--imgsz", type=int, default=320)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--model", default="yolo11n.yaml", help="architecture yaml (built from scratch)")
    p.add_argument("--init", type=Path, help="start from these weights (.pt) instead of scratch")
    p.add_argument("--transfer-from", type=Path,
                   help="build --model from its yaml and start it from the tensors of these weights whose names and "
                        "shapes match (another architecture over the same backbone, e.g. yolo26n-p2.yaml from YOLO11n)")
    p.add_argument("--lr0", type=float, default=0.01, help="used only with an explicit --optimizer")
    p.add_argument("--lrf", type=float, default=0.01, help="final lr as a fraction of lr0")
    p.add_argument("--optimizer", default="auto", help="auto (ultralytics picks AdamW lr 0.002 here), AdamW, SGD")
    p.add_argument("--mosaic", type=float, default=AUGMENT["mosaic"])
    p.add_argument("--close-mosaic", type=int, default=3, help="last N epochs without mosaic")
    p.add_argument("--warmup-epochs", type=float, default=1.0)
    p.add_argument("--fraction", type=float, default=1.0, help="use this fraction of the train set")
    p.add_argument("--cache", choices=["auto", "ram", "disk", "none"], default="auto")
    p.add_argument("--resume", action="store_true", help="continue <out>/train/weights/last.pt")
    p.add_argument("--time", type=float, default=None, help="hours; ultralytics stops training after this")
    p.add_argument("--device", default="cpu", help="cpu, or a CUDA device such as 0 (then mixed precision)")
    p.add_argument("--keep-epochs", action="store_true", help="copy last.pt to epoch<N>.pt after every epoch")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.init is not None and args.transfer_from is not None:
        print("--init and --transfer-from exclude each other", file=sys.stderr)
        return 2
    from ultralytics import YOLO

    patch_for_offline_machine(args.device)
    set_threads()
    last = args.out / "train" / "weights" / "last.pt"
    if args.resume:
        if not last.exists():
            print(f"nothing to resume: {last} does not exist", file=sys.stderr)
            return 2
        model = YOLO(str(last))
        add_thread_callbacks(model, args.workers)
        if args.keep_epochs:
            keep_epoch_copies(model)
        model.train(resume=True)
        return 0

    if args.data is None or not args.data.exists():
        print("--data must name an existing data.yaml", file=sys.stderr)
        return 2
    # From the yaml: random init, nc taken from data.yaml. With --init the checkpoint itself is the model, so the
    # trainer starts from its weights (YOLO(yaml).load() would be ignored: the trainer rebuilds from the yaml). With
    # --transfer-from the trainer builds the yaml and loads the matching tensors itself (`pretrained=`).
    model = YOLO(str(args.init) if args.init is not None else args.model)
    start_weights = args.init if args.init is not None else args.transfer_from
    add_thread_callbacks(model, args.workers)
    if args.keep_epochs:
        keep_epoch_copies(model)
    if args.cache == "auto":
        cache: str | bool = choose_cache(args.data, args.imgsz)
    else:
        cache = False if args.cache == "none" else args.cache
    print(f"cache={cache!r} threads={TORCH_THREADS}", flush=True)
    model.train(
        data=str(args.data.resolve()),
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        workers=args.workers,
        cache=cache,
        amp=args.device != "cpu",
        plots=False,
        pretrained=str(start_weights) if start_weights is not None else False,  # False would drop --init weights
        seed=args.seed,
        deterministic=False,  # deterministic algorithms are slower on CPU; seed still fixes data order
        project=str(args.out.resolve()),
        name="train",
        exist_ok=True,
        save=True,
        save_period=-1,  # last.pt and best.pt are rewritten every epoch already
        close_mosaic=args.close_mosaic,
        warmup_epochs=args.warmup_epochs,
        lr0=args.lr0,
        lrf=args.lrf,
        optimizer=args.optimizer,
        fraction=args.fraction,
        time=args.time,
        verbose=True,
        **{**AUGMENT, "mosaic": args.mosaic},
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
