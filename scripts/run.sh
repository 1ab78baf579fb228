#!/usr/bin/env bash
# Sets up the project and starts the web app on http://127.0.0.1:5000 (SQLite, shipped model).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh core
exec .venv/bin/python -m webapp "$@"
