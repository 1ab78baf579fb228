#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian machine with Python 3.11.
#   scripts/setup.sh          core (the app: Flask, OpenCV, ONNX Runtime, SQLAlchemy)
#   scripts/setup.sh test     core + test tools (pytest, hypothesis, playwright, chromium, postgresql, redis, card decks)
#   scripts/setup.sh club     core + PostgreSQL and Redis servers and the PostgreSQL driver (scripts/club.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
want="${1:-core}"

# python3-venv: Debian's python3 cannot make a venv without it. The fonts are the synthetic data
# generator's printed-text clutter (vision/synth/fonts.py), so its output is the same on every machine.
apt_packages=(python3-venv librsvg2-bin gnome-cards-data kdegames-card-data-kf5
              fonts-dejavu-core fonts-dejavu-extra fonts-liberation)
if [ "$want" = test ]; then
  apt_packages+=(chromium postgresql redis-server fonts-wqy-zenhei)
fi
if [ "$want" = club ]; then
  apt_packages+=(postgresql redis-server)
fi
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

python3 -m venv .venv
extra=""
[ "$want" = test ] && extra="[test]"
[ "$want" = club ] && extra="[postgres]"
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".${extra}"
# The translations' catalogs (webapp/translations/*/messages.po) compiled to the .mo files Flask-Babel reads.
.venv/bin/pybabel -q compile -d webapp/translations  # -q is a global option
