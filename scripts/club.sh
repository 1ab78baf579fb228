#!/usr/bin/env bash
# A club on one box: PostgreSQL, Redis, N app processes (gunicorn) and M photo readers (RQ workers), all local.
#   bash scripts/club.sh                      start (installs what is missing), run migrations, print the URL
#   bash scripts/club.sh --stop               stop everything it started (data is kept)
#   bash scripts/club.sh --status             what is running
# Options (or the environment): --app N (CLUB_APP_PROCESSES, default 2), --readers M (CLUB_READERS, default 2),
# --host H (CLUB_HOST, default 0.0.0.0: phones on the LAN), --port P (CLUB_PORT, 8000).
# Everything lives under instance/club/ (CLUB_DIR): the PostgreSQL cluster, Redis' append-only file (queued photos
# survive a restart), the app's photos and secret key, pid files and logs. PostgreSQL and Redis listen on
# 127.0.0.1 only (ports CLUB_PG_PORT 5433, CLUB_REDIS_PORT 6380). A reader that dies is started again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
action=start
app_processes="${CLUB_APP_PROCESSES:-2}"
readers="${CLUB_READERS:-2}"
host="${CLUB_HOST:-0.0.0.0}"
port="${CLUB_PORT:-8000}"
while [ $# -gt 0 ]; do
  case "$1" in
    --stop) action=stop ;;
    --status) action=status ;;
    --app) app_processes="$2"; shift ;;
    --readers) readers="$2"; shift ;;
    --host) host="$2"; shift ;;
    --port) port="$2"; shift ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
club="${CLUB_DIR:-$root/instance/club}"
pg_port="${CLUB_PG_PORT:-5433}"
redis_port="${CLUB_REDIS_PORT:-6380}"
run="$club/run"
pg_data="$club/postgres"
export DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$pg_port/postgres"
export REDIS_URL="redis://127.0.0.1:$redis_port/0"
export WEBAPP_INSTANCE_PATH="$club/app"
export WEBAPP_MIGRATE_ON_START=false

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
as_postgres() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  as_postgres() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
fi
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
  mkdir -p "$run"
  touch "$run/stopping"  # the readers' restart loops end
  for pidfile in "$run"/reader-*.loop.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  done
  for pidfile in "$run"/reader-*.pid "$run/gunicorn.pid"; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true  # readers finish the photo in hand; gunicorn its requests
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
  if [ -f "$run/redis.pid" ]; then
    redis-cli -p "$redis_port" shutdown >/dev/null 2>&1 || kill "$(cat "$run/redis.pid")" 2>/dev/null || true
    rm -f "$run/redis.pid"
  fi
  if [ -f "$pg_data/postmaster.pid" ] && [ -n "$(pg_bin)" ]; then
    as_postgres "$(pg_bin)/pg_ctl" -D "$pg_data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -f "$run/stopping"
  echo "club stopped (data kept in $club)"
}

status() {
  local up
  for name in gunicorn redis; do
    if alive "$run/$name.pid"; then up=running; else up=stopped; fi
    echo "$name: $up"
  done
  if [ -f "$pg_data/postmaster.pid" ]; then echo "postgresql: running"; else echo "postgresql: stopped"; fi
  for pidfile in "$run"/reader-*.pid; do
    [ -f "$pidfile" ] || continue
    case "$pidfile" in *.loop.pid) continue ;; esac
    if alive "$pidfile"; then up=running; else up=stopped; fi
    echo "$(basename "$pidfile" .pid): $up"
  done
}

case "$action" in
  stop) stop; exit 0 ;;
  status) status; exit 0 ;;
esac

bash scripts/setup.sh club
mkdir -p "$run" "$club/redis" "$WEBAPP_INSTANCE_PATH"
rm -f "$run/stopping"
bin=$(pg_bin)
[ -n "$bin" ] || { echo "PostgreSQL is not installed" >&2; exit 2; }

# PostgreSQL: a persistent cluster of its own (trust on 127.0.0.1 only: nothing outside this box reaches it).
if [ ! -f "$pg_data/PG_VERSION" ]; then
  mkdir -p "$pg_data"
  [ "$(id -u)" = 0 ] && chown postgres "$pg_data"
  as_postgres "$bin/initdb" -D "$pg_data" -A trust -U postgres >/dev/null
fi
if ! as_postgres "$bin/pg_ctl" -D "$pg_data" status >/dev/null 2>&1; then
  as_postgres "$bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w -t 120 \
    -o "-p $pg_port -k $pg_data -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null \
    || { echo "PostgreSQL did not start; its log:" >&2; tail -n 30 "$pg_data/server.log" >&2; exit 1; }
fi

# Redis: queued photos and rate-limit counters; the append-only file keeps the queue across a restart.
if ! alive "$run/redis.pid"; then
  redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$club/redis" --appendonly yes --save '' \
    --daemonize yes --pidfile "$run/redis.pid" --logfile "$run/redis.log"
  for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
redis-cli -p "$redis_port" ping >/dev/null || { echo "Redis did not start; see $run/redis.log" >&2; exit 1; }

# Migrations once, before any app process starts.
.venv/bin/python -c "from webapp import db; from webapp.config import normalise_database_url as n; import os; \
db.run_migrations(db.make_engine(n(os.environ['DATABASE_URL'])))"

# N app processes: gunicorn's master restarts one that dies; threads let polls pass while uploads are received.
if ! alive "$run/gunicorn.pid"; then
  .venv/bin/gunicorn --workers "$app_processes" --worker-class gthread --threads 8 --bind "$host:$port" \
    --timeout 60 --graceful-timeout 20 --daemon --pid "$run/gunicorn.pid" \
    --error-logfile "$run/gunicorn.log" --access-logfile "$run/access.log" 'webapp:create_app()'
fi

# M readers, each in a loop that starts it again if it dies (until --stop).
for i in $(seq 1 "$readers"); do
  alive "$run/reader-$i.loop.pid" && continue
  (
    while [ ! -f "$run/stopping" ]; do
      .venv/bin/python -m webapp.jobs.worker --name "club-reader-$i-$$-$RANDOM" >>"$run/reader-$i.log" 2>&1 &
      echo $! >"$run/reader-$i.pid"
      wait $! || true
      [ -f "$run/stopping" ] || sleep 1
    done
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$run/reader-$i.loop.pid"
done

for _ in $(seq 150); do
  .venv/bin/python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/healthz', timeout=2)" 2>/dev/null && break
  sleep 0.2
done
shown="$host"; [ "$host" = 0.0.0.0 ] && shown=$(hostname -I 2>/dev/null | awk '{print $1}'); shown="${shown:-127.0.0.1}"
echo "Club running: http://$shown:$port/  ($app_processes app processes, $readers readers; PostgreSQL :$pg_port, Redis :$redis_port)"
echo "Logs and pids in $run; stop with: bash scripts/club.sh --stop"
