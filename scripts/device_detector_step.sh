#!/usr/bin/env bash
# One detector step on a lent GPU machine (the `device` tool; docs/training.md says when and how).
# That machine has torch but no ultralytics, no card decks and no network, and a call may carry 64 MiB, so it
# gets (in .devcarry/, ignored by git): ultralytics' wheels, the rendered deck faces re-encoded as WebP, and a
# val tile set. It renders fresh photo tiles there with all its cores, trains from models/cards.pt (the shipped detector)
# for a fixed time and writes the stripped weights, results.csv and the log to $OUT.
# Usage there: bash scripts/device_detector_step.sh SEED TILES TRAIN_HOURS [extra train_detector args...]
# (SYNTH_ARGS, e.g. "--photo-kinds rows=2,hand=1", goes to the tile rendering; RENDER_SECONDS caps it, default 150.
# INIT: the weights to start from, default models/cards.pt; INIT= (empty) trains from scratch, e.g.
# with "--model yolo26n-p2.yaml" among the extra args. TRANSFER=WEIGHTS instead builds --model from its yaml and starts
# it from the tensors of WEIGHTS whose names and shapes match, e.g. TRANSFER=models/cards.pt with
# "--model yolo26n-p2.yaml": YOLO11n's trained backbone under a new stride-4 head.)
set -uo pipefail
seed=${1:?seed}; tiles=${2:?tiles}; hours=${3:?hours}; shift 3
out=${OUT:?OUT is set by the device tool}
carry=.devcarry
py=${PY:-python3}; device=${DEVICE:-0}  # PY and DEVICE=cpu only for a rehearsal on this machine
start=$(date +%s)
say() { echo "[$(( $(date +%s) - start )) s] $*"; }
# a warm machine keeps the last call's tiles and run: start from empty folders (session 28's second call did not)
rm -rf /tmp/gen /tmp/run

$py -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site $carry/whl/*.whl || exit 3
export PYTHONPATH=/tmp/site:$PWD YOLO_OFFLINE=1 PYTHONUNBUFFERED=1 TRAIN_THREADS=8 YOLO_CONFIG_DIR=/tmp/yolo-config
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
workers=$(nproc)
say "rendering $tiles tiles with $workers workers"
# Rendering is capped: tiles already written (each with its labels) are used even if the cap cuts the rest.
timeout "${RENDER_SECONDS:-150}" $py -m vision.synth --out /tmp/gen --cache $carry/deckcache --seed "$seed" --parts phototiles \
    --photo-tiles "$tiles" --val-fraction 0.01 --tile-blur 0.35 --workers "$workers" ${SYNTH_ARGS:-} 2>&1 | tail -4
rendered=$(ls /tmp/gen/phototiles/labels/train 2>/dev/null | wc -l)
say "$rendered train tiles rendered"
[ "$rendered" -ge 500 ] || exit 4
val=$PWD/$carry/valtiles/images/val
[ -d "$val" ] || val=/tmp/gen/phototiles/images/val  # no val tiles carried: the render's own (the val decks')
if ! ls "$val" 2>/dev/null | grep -q .; then
    # the render's cap cut it before its val split (session 41): validate on 200 train tiles moved aside
    mkdir -p /tmp/gen/phototiles/images/valcut /tmp/gen/phototiles/labels/valcut
    for image in $(ls /tmp/gen/phototiles/images/train | head -n 200); do
        mv /tmp/gen/phototiles/images/train/$image /tmp/gen/phototiles/images/valcut/
        mv /tmp/gen/phototiles/labels/train/${image%.*}.txt /tmp/gen/phototiles/labels/valcut/ 2>/dev/null
    done
    val=/tmp/gen/phototiles/images/valcut
    say "no val tiles rendered: 200 train tiles moved aside to validate on"
fi
cat > /tmp/data.yaml <<EOF
path: /
train: /tmp/gen/phototiles/images/train
val: $val
names:
  0: index
EOF
say "training"
# Strip a copy of each epoch's checkpoint into $OUT as it lands, so a run cut off still returns its weights.
( while sleep 20; do
    $py - "$out" <<'PY' 2>/dev/null
import sys, pathlib
from ultralytics.utils.torch_utils import strip_optimizer
weights = pathlib.Path("/tmp/run/train/weights")
epochs = sorted(weights.glob("epoch*.pt"), key=lambda p: int(p.stem[5:]))
for p in epochs[-3:]:
    dst = pathlib.Path(sys.argv[1]) / p.name
    if not dst.exists():
        strip_optimizer(p, dst)
for old in sorted(pathlib.Path(sys.argv[1]).glob("epoch*.pt"), key=lambda p: int(p.stem[5:]))[:-3]:
    old.unlink()
PY
  done ) &
watcher=$!
# --time bounds the run: ultralytics refits the epoch count (and the lr schedule) to it after the first epoch.
init=${INIT-models/cards.pt}
transfer=${TRANSFER:-}
[ -n "$transfer" ] && init=
$py -m vision.training.train_detector --data /tmp/data.yaml ${init:+--init "$init"} ${transfer:+--transfer-from "$transfer"} \
    --out /tmp/run --device "$device" --time "$hours" --epochs 1000 --imgsz 320 --workers "$workers" --seed "$seed" \
    --keep-epochs --cache ram "$@" 2>&1 | tee $out/train.log | tail -60
kill $watcher 2>/dev/null
for f in best.pt last.pt; do cp /tmp/run/train/weights/$f $out/ 2>/dev/null; done
cp /tmp/run/train/results.csv $out/ 2>/dev/null
ls -la $out
say "done"
