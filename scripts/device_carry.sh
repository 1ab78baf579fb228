#!/usr/bin/env bash
# Build .devcarry/ (ignored by git) for scripts/device_detector_step.sh on a lent GPU machine: ultralytics' wheels
# for that machine's Python 3.12 (its torch, torchvision, OpenCV and the rest are there already; polars is not, and
# train_detector does without it), the deck cache as WebP, and a val tile set. About 32 MiB with 600 val tiles; the
# repository's tracked files add about 44 MiB (session 54), and a call may carry 64 MiB in all (the last line checks
# the sum): since session 54 only QUALITY=75 and no val tiles fit (18 + 44 MiB).
# Usage: bash scripts/device_carry.sh DECK_CACHE [VAL_TILES]   (VAL_TILES: a phototiles folder with images/val,
# labels/val; without it the step validates on its own render's val split, the val decks' tiles). QUALITY (WebP,
# default 85; 92 until session 32, when the 17 decks and 600 val tiles no longer fit at 92) makes a larger cache fit:
# with the 16 restyled decks (session 31) 92 gives 40 MB, 75 about 25 MB.
set -euo pipefail
cache=${1:?deck cache, e.g. /work/data/deck-cache}; tiles=${2:-}
grep -qx "/.devcarry/" .git/info/exclude 2>/dev/null || echo "/.devcarry/" >> .git/info/exclude
rm -rf .devcarry && mkdir -p .devcarry/whl
for wheel in ultralytics-opencv-headless==8.4.190 ultralytics-thop==2.2.3 ultralytics-platform==0.1.99; do
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 -d .devcarry/whl "$wheel"
done
PYTHONPATH=. "${PY:-.venv/bin/python}" -m vision.synth.cache_pack "$cache" .devcarry/deckcache --quality "${QUALITY:-85}"
if [ -n "$tiles" ]; then  # VAL_COUNT: only the first that many val tiles (by name), where space is short
    mkdir -p .devcarry/valtiles/images/val .devcarry/valtiles/labels/val
    for image in $(ls "$tiles/images/val" | sort | head -n "${VAL_COUNT:-1000000}"); do
        cp "$tiles/images/val/$image" .devcarry/valtiles/images/val/
        cp "$tiles/labels/val/${image%.*}.txt" .devcarry/valtiles/labels/val/
    done
fi
du -sh .devcarry
carry_mib=$(( $(du -sk .devcarry | cut -f1) / 1024 ))
tracked_mib=$(( $(git ls-files -z | xargs -0 du -ck 2>/dev/null | tail -1 | cut -f1) / 1024 ))
echo "carry ${carry_mib} MiB + tracked files ${tracked_mib} MiB (a call carries at most 64 MiB)"
[ $(( carry_mib + tracked_mib )) -lt 64 ] || { echo "too large: lower QUALITY or VAL_COUNT" >&2; exit 1; }
