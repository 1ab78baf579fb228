#!/usr/bin/env bash
# Make the evaluation sets again where /work/data lost them (the commands and seeds of docs/training.md; a set already
# there is kept). Session 49, on an idle 2-core machine after the deck cache: synth-v5 photos 67 s, synth-4c-v1 69 s,
# synth-real-v2 142 s, synth-real-4c-v1 130 s, synth-v2's scenes 21 s; the v7 detector tiles ~10 min (TILES=1).
# Session 59: synth-unknown-v1 (60 photos of German-lettered decks) for `vision evaluate --sets unknown-deck`.
# The deck cache (CACHE, default DATA/deck-cache; ~7 min) is rendered on first use. Usage: bash scripts/eval_data.sh
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PY:-.venv/bin/python}
data=${DATA:-/work/data}
cache=${CACHE:-$data/deck-cache}
synth() { local out=$1; shift; [ -d "$data/$out" ] && { echo "$out: there"; return; }
          echo "$out: making"; "$py" -m vision.synth --out "$data/$out" --workers 2 --cache "$cache" "$@" | tail -1; }
synth synth-v2 --seed 0 --parts scenes --scenes 60
synth synth-v5 --parts photos --photos 300 --seed 4
synth synth-4c-v1 --parts photos --photos 300 --four-colour 1 --seed 4
synth synth-real-v2 --parts photos --photos 300 --val-decks real_webcam,real_phone --seed 4
synth synth-real-4c-v1 --parts photos --photos 300 --four-colour 1 --val-decks real_webcam,real_phone --seed 4
if [ -n "${TILES:-}" ]; then  # the detector's val tiles (step 5 of the detector run: docs/training.md)
    synth phototiles-v7 --seed 37 --parts phototiles --photo-tiles 10200 --val-fraction 0.0588 --tile-blur 0.35
fi
# decks whose courts print letters the reader does not know (German B and D): the unknown-deck set
synth synth-unknown-v1 --parts photos --photos 60 --decks anglo,berlin,rheinland,lattmann \
    --val-decks berlin,rheinland,lattmann --unknown-letters --seed 4
