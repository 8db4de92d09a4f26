#!/usr/bin/env bash
# Runs the pgTAP suite (supabase/tests/*.test.sql) against a fresh database on the
# PostgreSQL server named by DATABASE_URL: bootstrap + migrations (+ seed), then
# pg_prove. Exits non-zero if anything fails; drops the database either way.
#
# Usage: .ci/pgtap.sh postgres://postgres@127.0.0.1:55432/postgres
# (the URL's role must be able to create databases; a superuser is simplest).
# Set PGTAP_DB to choose the database name (default pf_pgtap_<pid>).
set -euo pipefail

server_url=${1:-${DATABASE_URL:-}}
if [ -z "$server_url" ]; then
  echo "usage: $0 DATABASE_URL" >&2
  exit 2
fi

cd "$(dirname "$0")/.."

db=${PGTAP_DB:-pf_pgtap_$$}
case "$db" in
  *[!a-z0-9_]*) echo "PGTAP_DB must match [a-z0-9_]+" >&2; exit 2 ;;
esac

# The same URL with the database (path) replaced, query string kept.
base=${server_url%%\?*}
query=
[ "$base" != "$server_url" ] && query="?${server_url#*\?}"
rest=${base#*://}
if [ "${rest%%/*}" = "$rest" ]; then
  db_url="$base/$db$query"
else
  db_url="${base%%://*}://${rest%%/*}/$db$query"
fi

psql_q() { psql -X -v ON_ERROR_STOP=1 -q "$@"; }

drop_db() {
  psql_q -d "$server_url" -c "drop database if exists $db with (force)" >/dev/null 2>&1 || true
}

drop_db
psql_q -d "$server_url" -c "create database $db"
trap drop_db EXIT

psql_q -d "$db_url" -f supabase/bootstrap/auth-compat.sql
psql_q -d "$db_url" -f supabase/bootstrap/storage-compat.sql
for migration in supabase/migrations/[0-9]*.sql; do
  psql_q -d "$db_url" -f "$migration"
done
if [ -s supabase/seed.sql ]; then
  psql_q -d "$db_url" -f supabase/seed.sql
fi

shopt -s nullglob
tests=(supabase/tests/*.test.sql)
if [ ${#tests[@]} -eq 0 ]; then
  echo "no pgTAP tests in supabase/tests" >&2
  exit 1
fi

pg_prove -d "$db_url" "${tests[@]}"
