#!/usr/bin/env bash
# Build .devcarry/ (ignored by git) for scripts/device_detector_step.sh on a lent GPU machine: ultralytics' wheels
# for that machine's Python 3.12 (its torch, torchvision, OpenCV and the rest are there already; polars is not, and
# train_detector does without it), the deck cache as WebP, and a val tile set. About 28 MB; the repository's
# tracked files add about 28 MB, under the 64 MiB a call may carry.
# Usage: bash scripts/device_carry.sh DECK_CACHE VAL_TILES   (VAL_TILES: a phototiles folder with images/val, labels/val)
set -euo pipefail
cache=${1:?deck cache, e.g. /work/data/deck-cache}; tiles=${2:?phototiles folder, e.g. /work/data/phototiles-v7/phototiles}
grep -qx "/.devcarry/" .git/info/exclude 2>/dev/null || echo "/.devcarry/" >> .git/info/exclude
rm -rf .devcarry && mkdir -p .devcarry/whl .devcarry/valtiles/images .devcarry/valtiles/labels
for wheel in ultralytics-opencv-headless==8.4.190 ultralytics-thop==2.2.3 ultralytics-platform==0.1.99; do
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 -d .devcarry/whl "$wheel"
done
PYTHONPATH=. "${PY:-.venv/bin/python}" -m vision.synth.cache_pack "$cache" .devcarry/deckcache
cp -r "$tiles/images/val" .devcarry/valtiles/images/ && cp -r "$tiles/labels/val" .devcarry/valtiles/labels/
du -sh .devcarry
