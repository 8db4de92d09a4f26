#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL 15 server on 127.0.0.1 for the database
# suite. Usage: .ci/pg-server.sh start DIR PORT | .ci/pg-server.sh stop DIR
set -euo pipefail
cmd=$1 dir=$2 port=${3:-55432}
bin=/usr/lib/postgresql/15/bin
run_as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$cmd" in
  start)
    rm -rf "$dir"; mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    run_as "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
    run_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    run_as "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    ;;
esac
