#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on 127.0.0.1 and TEST_DATABASE_URL pointing at it.
#   scripts/with_postgres.sh .venv/bin/python -m pytest tests/webapp
# The server gets a free port (PG_TEST_PORT to choose one) and up to three tries to start, since a busy CI
# host once failed a start (session 9); a failed start prints the server's log.
set -euo pipefail
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg_bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 2; }
data=$(mktemp -d /tmp/pg-test.XXXXXX)
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: run the server as the postgres system user.
  chown postgres "$data"
  as_owner() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
fi
cleanup() { as_owner "$pg_bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$data"; }
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

as_owner "$pg_bin/initdb" -D "$data" -A trust -U postgres >/dev/null
started=""
for attempt in 1 2 3; do
  port="${PG_TEST_PORT:-$(free_port)}"
  if as_owner "$pg_bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 120 \
      -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null; then
    started=yes
    break
  fi
  echo "PostgreSQL did not start (try $attempt, port $port); its log:" >&2
  cat "$data/server.log" >&2 || true
  as_owner "$pg_bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true
  sleep 2
done
[ -n "$started" ] || { echo "PostgreSQL could not be started for the tests" >&2; exit 1; }
export TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
"$@"
