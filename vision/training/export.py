"""Export trained weights into models/ and check each ONNX file against torch with ONNX Runtime.

    PYTHONPATH=. /work/venv-train/bin/python -m vision.training.export \
        --detector /work/runs/det-v1/train/weights/best.pt --classifier /work/runs/cls-v1/best.pt \
        [--models models] [--imgsz 320] [--samples /work/data/synth-v1/detect/images/val]

Writes models/cards.onnx (+ models/cards.pt, optimizer stripped) and models/cards_cls.onnx (+ models/cards_cls.pt).
Either model may be left out to export only the other. With --half-weights each ONNX file then stores its weights
float16 (vision.training.half_weights, as the shipped files since session 56) and is checked against torch again.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

from vision.crops import CLASS_NAMES, CROP_SIZE  # noqa: E402
from vision.training.classifier_model import classifier_from_checkpoint  # noqa: E402
from vision.training.half_weights import half_weights  # noqa: E402

ONNX_OPSET = 17
MAX_DETECTOR_BYTES = 15 * 1024 * 1024


def ort_session(path: Path):
    import onnxruntime as ort

    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])


def letterbox_input(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Plain resize to (w, h) and NCHW RGB/255 — only a test input, the reader does its own preprocessing."""
    resized = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    rgb = resized[:, :, ::-1]
    return np.ascontiguousarray(rgb.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0


def sample_images(folder: Path | None, count: int, seed: int = 0) -> list[np.ndarray]:
    images: list[np.ndarray] = []
    if folder is not None and folder.is_dir():
        for path in sorted(folder.glob("*.jpg"))[:count]:
            img = cv2.imread(str(path))
            if img is not None:
                images.append(img)
    rng = np.random.default_rng(seed)
    while len(images) < count:
        images.append(rng.integers(0, 256, (320, 320, 3), dtype=np.uint8))
    return images


def export_detector(weights: Path, models_dir: Path, imgsz: int, samples: Path | None, half: bool = False) -> dict:
    from ultralytics import YOLO
    from ultralytics.utils.torch_utils import strip_optimizer

    models_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        stripped = Path(tmp) / "cards.pt"
        shutil.copy2(weights, stripped)
        strip_optimizer(str(stripped))  # drops optimizer state, weights to fp16 (the shipped .pt)
        onnx_tmp = Path(YOLO(str(stripped)).export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True,
                                                   opset=ONNX_OPSET, device="cpu"))
        shutil.move(str(onnx_tmp), models_dir / "cards.onnx")
        shutil.move(str(stripped), models_dir / "cards.pt")
    onnx_path = models_dir / "cards.onnx"
    size = onnx_path.stat().st_size
    if size > MAX_DETECTOR_BYTES:
        raise SystemExit(f"{onnx_path} is {size} bytes, over the 15 MB limit")

    # Check: ONNX Runtime vs the torch model (fp32) on a few images at two input sizes.
    torch_model = YOLO(str(models_dir / "cards.pt")).model.float().eval()
    inputs = [letterbox_input(img, (imgsz, imgsz) if i % 2 == 0 else (imgsz * 2, imgsz * 3 // 2))  # dynamic shapes
              for i, img in enumerate(sample_images(samples, 4))]
    session = ort_session(onnx_path)
    worst, shapes = _detector_difference(torch_model, session, inputs)
    print(f"detector ONNX {onnx_path} ({size / 1e6:.2f} MB): max abs diff vs torch {worst:.2e}; "
          f"shapes {shapes}", flush=True)
    report = {"onnx_bytes": size, "pt_bytes": (models_dir / "cards.pt").stat().st_size, "max_abs_diff": worst,
              "shapes": shapes, "inputs": [(i.name, i.shape) for i in session.get_inputs()],
              "outputs": [(o.name, o.shape) for o in session.get_outputs()]}
    if half:
        report.update(_halved(onnx_path, lambda: _detector_difference(torch_model, ort_session(onnx_path), inputs)[0]))
    return report


def _detector_difference(torch_model, session, inputs: list[np.ndarray]) -> tuple[float, list]:
    """The largest difference between an ONNX Runtime session's and the torch model's outputs over the inputs, and
    their shapes (SystemExit if a shape differs)."""
    input_name = session.get_inputs()[0].name
    worst, shapes = 0.0, []
    for x in inputs:
        with torch.no_grad():
            ref = torch_model(torch.from_numpy(x))
        ref = (ref[0] if isinstance(ref, (list, tuple)) else ref).numpy()
        out = session.run(None, {input_name: x})[0]
        if out.shape != ref.shape:
            raise SystemExit(f"detector ONNX shape {out.shape} != torch {ref.shape}")
        worst = max(worst, float(np.abs(out - ref).max()))
        shapes.append([list(x.shape), list(out.shape)])
    return worst, shapes


def _halved(onnx_path: Path, difference: Callable[[], float]) -> dict:
    """Store the file's weights float16 (half_weights) and measure it against torch again with `difference()`."""
    import onnx

    model = onnx.load(str(onnx_path))
    halved = half_weights(model)
    onnx.save(model, str(onnx_path))
    size, worst = onnx_path.stat().st_size, difference()
    print(f"  weights stored float16 ({halved} tensors): {size / 1e6:.2f} MB, max abs diff vs torch {worst:.2e}",
          flush=True)
    return {"half_onnx_bytes": size, "half_max_abs_diff": worst}


def _top1_text(val_top1: float | None) -> str:
    # a souped (averaged) classifier carries no val top-1 of its own
    return "nan" if val_top1 is None else f"{val_top1:.4f}"


def export_classifier(weights: Path, models_dir: Path, half: bool = False) -> dict:
    import onnx

    state = torch.load(weights, map_location="cpu", weights_only=False)
    if state.get("classes") != CLASS_NAMES:
        raise SystemExit(f"{weights} was trained with other classes than vision.crops.CLASS_NAMES")
    model = classifier_from_checkpoint(state, weights).eval()
    models_dir.mkdir(parents=True, exist_ok=True)
    onnx_path = models_dir / "cards_cls.onnx"
    dummy = torch.zeros(2, 3, CROP_SIZE, CROP_SIZE)
    torch.onnx.export(model, (dummy,), str(onnx_path), input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}}, opset_version=ONNX_OPSET,
                      do_constant_folding=True, dynamo=False)
    proto = onnx.load(str(onnx_path))
    for key, value in {"classes": json.dumps(CLASS_NAMES), "input": "float32 NCHW BGR/255 48x48",
                       "val_top1": _top1_text(state.get("val_top1"))}.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(proto)
    onnx.save(proto, str(onnx_path))
    torch.save({"model": state["model"], "classes": CLASS_NAMES, "width": state["width"],
                "val_top1": state.get("val_top1")}, models_dir / "cards_cls.pt")

    worst = _classifier_difference(model, onnx_path)
    size = onnx_path.stat().st_size
    print(f"classifier ONNX {onnx_path} ({size / 1e6:.2f} MB): max abs diff vs torch {worst:.2e} "
          f"(batches 1, 7, 64)", flush=True)
    report = {"onnx_bytes": size, "max_abs_diff": worst}
    if half:
        report.update(_halved(onnx_path, lambda: _classifier_difference(model, onnx_path)))
    return report


def _classifier_difference(model, onnx_path: Path) -> float:
    """The largest difference between the ONNX file's and the torch model's logits on random batches of 1, 7 and 64
    crops (SystemExit if the output shape is wrong)."""
    session = ort_session(onnx_path)
    rng = np.random.default_rng(0)
    worst = 0.0
    for batch in (1, 7, 64):
        x = rng.random((batch, 3, CROP_SIZE, CROP_SIZE), dtype=np.float32)
        with torch.no_grad():
            ref = model(torch.from_numpy(x)).numpy()
        out = session.run(None, {"input": x})[0]
        if out.shape != (batch, len(CLASS_NAMES)):
            raise SystemExit(f"classifier ONNX output shape {out.shape}")
        worst = max(worst, float(np.abs(out - ref).max()))
    return worst


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--detector", type=Path, help="ultralytics best.pt / last.pt")
    p.add_argument("--classifier", type=Path, help="train_classifier best.pt")
    p.add_argument("--models", type=Path, default=Path("models"))
    p.add_argument("--imgsz", type=int, default=320)
    p.add_argument("--samples", type=Path, help="folder of .jpg tiles to compare torch and ONNX on")
    p.add_argument("--half-weights", action="store_true",
                   help="store each ONNX file's weights float16, cast back when loaded (as the shipped files)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.detector is None and args.classifier is None:
        print("nothing to export: give --detector and/or --classifier", file=sys.stderr)
        return 2
    torch.set_num_threads(2)
    report = {}
    if args.detector is not None:
        report["detector"] = export_detector(args.detector, args.models, args.imgsz, args.samples, args.half_weights)
    if args.classifier is not None:
        report["classifier"] = export_classifier(args.classifier, args.models, args.half_weights)
    print(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
