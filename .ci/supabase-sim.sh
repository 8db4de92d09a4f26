#!/usr/bin/env bash
# The Supabase-faithful database (Supabase's own roles, init scripts and GoTrue/Storage
# migrations, built by supabase-sim/build.sh): the checks that a plain PostgreSQL 15 cannot make.
#   1. `supabase db push --db-url` applies supabase/migrations as the non-superuser postgres;
#   2. the pgTAP suite runs there (GoTrue's auth.users, its auth.uid(), Supabase's grants);
#   3. the database suite runs there, each test file on a copy of the pristine database, so
#      the app's own migrate() meets a Supabase-managed database (bootstrap skipped);
#   4. the built app starts in plain-Postgres mode against a copy (two servers: sign-up,
#      verification, sign-in, personas, sign-out).
#
# Usage: .ci/supabase-sim.sh [SIM_DIR]   (needs a built app for step 4: npm run build)
# SIM_DIR defaults to $SUPABASE_SIM_DIR, then ../shared/supabase-sim beside the repository,
# then /work/shared/supabase-sim. Exits 0 with a SKIP line when none of them is there.
set -euo pipefail
cd "$(dirname "$0")/.."

sim=""
for candidate in "${1:-}" "${SUPABASE_SIM_DIR:-}" "$(cd .. && pwd)/shared/supabase-sim" /work/shared/supabase-sim; do
  if [ -n "$candidate" ] && [ -x "$candidate/build.sh" ]; then sim=$(cd "$candidate" && pwd); break; fi
done
if [ -z "$sim" ]; then
  echo "SKIP: no supabase-sim (set SUPABASE_SIM_DIR or put it at ../shared/supabase-sim)"
  exit 0
fi

dir=$(mktemp -d /tmp/personaforge-sim.XXXXXX)
rmdir "$dir" # build.sh wants an empty or missing directory
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
cleanup() { "$sim/stop.sh" "$dir" >/dev/null 2>&1 || true; rm -rf "$dir" "$dir.log"; }
trap cleanup EXIT

if ! url=$("$sim/build.sh" "$dir" "$port" 2>"$dir.log"); then cat "$dir.log" >&2; exit 1; fi
grep -v '^\[supabase-sim\]' "$dir.log" >&2 || true
echo "Supabase-faithful PostgreSQL at $url (from $sim)"
psql() { command psql -X -v ON_ERROR_STOP=1 -q "$@"; }
# A pristine copy before anything is pushed: the database suite and the app start from it.
psql -d "$url" -c "create database pf_sim_pristine template postgres"

echo "--- supabase db push (as the non-superuser postgres)"
npx supabase db push --db-url "$url" --yes

# On Supabase the migrating role (postgres) does not own storage.objects, so the bucket
# migration creates the bucket but leaves its per-folder policies to the storage schema's
# owner (a warning says so); run it again as that owner, as an operator would once.
echo "--- the reference-images bucket's storage policies, as the storage owner (supabase_admin)"
psql -d "${url/:\/\/postgres@/://supabase_admin@}" -f supabase/migrations/20261123040002_reference_images_bucket.sql

echo "--- pgTAP suite"
host_port=${url#*@}; host_port=${host_port%%/*}
PGHOST=${host_port%%:*} PGPORT=${host_port##*:} PGUSER=postgres PGDATABASE=postgres \
  pg_prove --ext .sql supabase/tests/*.test.sql 2>&1 | grep -v 'NOTICE:  schema "extensions" already exists'
[ "${PIPESTATUS[0]}" -eq 0 ]

echo "--- database suite (plain-Postgres mode on copies of the pristine database)"
DATABASE_URL=$url TEST_DATABASE_TEMPLATE=pf_sim_pristine npm run --silent test:db

echo "--- the app in plain-Postgres mode against it"
[ -f build/index.js ] || npm run -s build
DATABASE_URL=$url TEST_DATABASE_TEMPLATE=pf_sim_pristine node --test tests/multi-server/*.test.mjs
