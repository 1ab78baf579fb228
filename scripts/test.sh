#!/usr/bin/env bash
# Sets up the project with its test tools and runs the whole test suite:
# everything on SQLite, then the web app's tests once more against a throwaway PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/python -m pytest "$@"
if [ -d tests/webapp ]; then
  echo "== web app tests again, on PostgreSQL"
  bash scripts/with_postgres.sh .venv/bin/python -m pytest tests/webapp "$@"
fi
