#!/usr/bin/env bash
# Runs a command with a throwaway Redis server on 127.0.0.1 and REDIS_URL pointing at it (photo reading as jobs).
#   scripts/with_redis.sh .venv/bin/python -m pytest tests/webapp/test_uploads.py
# Nothing is written to disk (no RDB, no AOF); the server stops when the command ends.
set -euo pipefail
command -v redis-server >/dev/null || { echo "Redis is not installed (apt-get install redis-server)" >&2; exit 2; }
dir=$(mktemp -d /tmp/redis-test.XXXXXX)
port="${REDIS_TEST_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
  --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
cleanup() { [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true; sleep 0.2; rm -rf "$dir"; }
trap cleanup EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
redis-cli -p "$port" ping >/dev/null || { echo "Redis did not start; its log:" >&2; cat "$dir/redis.log" >&2; exit 1; }
export REDIS_URL="redis://127.0.0.1:$port/0"
"$@"
