#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on 127.0.0.1 and TEST_DATABASE_URL pointing at it.
#   scripts/with_postgres.sh .venv/bin/python -m pytest tests/webapp
set -euo pipefail
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg_bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 2; }
port="${PG_TEST_PORT:-55432}"
data=$(mktemp -d /tmp/pg-test.XXXXXX)
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: run the server as the postgres system user.
  chown postgres "$data"
  as_owner() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
fi
as_owner "$pg_bin/initdb" -D "$data" -A trust -U postgres >/dev/null
as_owner "$pg_bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
  -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
cleanup() { as_owner "$pg_bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$data"; }
trap cleanup EXIT
export TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
"$@"
