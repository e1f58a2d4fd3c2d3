#!/usr/bin/env bash
# Fault scenarios against the real stack (docs/reliability.md): a PostgreSQL cluster (fsync on)
# and a Temporal dev server on a SQLite file, both of this run's own, because the scenarios stop
# and restart them (a DATABASE_URL or TEMPORAL_ADDRESS in the environment is not used). Then
# run.ts starts the services per scenario and checks every count.
#
#   infra/chaos/run.sh [--profile short|full] [--only worker,temporal,...] [--report FILE] [--keep]
#
# ./infra/test.sh --chaos runs the full profile, --chaos=short the short one (CI).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cd "$MOS_ROOT"
ensure_pnpm
ensure_deps
ensure_temporal
unset DATABASE_URL TEMPORAL_ADDRESS

dir=$(mktemp -d /tmp/mos-chaos.XXXXXX)
chmod 755 "$dir"
MOS_PG_STOP=""
t_port=$(free_port)
cleanup() {
  pkill -f -- "start-dev.*--port $t_port " 2>/dev/null || true
  [ -n "$MOS_PG_STOP" ] && $MOS_PG_STOP >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

pg_port=$(free_port)
MOS_PG_FSYNC=on start_postgres "$dir/pg" "$pg_port"
# A crash rather than a clean shutdown: the restart recovers from the WAL.
export CHAOS_PG_STOP="${MOS_PG_STOP/-m fast/-m immediate}"
export CHAOS_PG_START="MOS_PG_FSYNC=on start_postgres $dir/pg $pg_port"
ui_port=$(free_port)
start_temporal "$t_port" "$ui_port" "$dir/temporal.db" "$dir/temporal.log"
export CHAOS_TEMPORAL_START="start_temporal $t_port $ui_port $dir/temporal.db $dir/temporal.log"
export CHAOS_TEMPORAL_PORT=$t_port
export MOS_ENV=test
log "chaos stack: PostgreSQL $DATABASE_URL, Temporal $TEMPORAL_ADDRESS"
node --import tsx infra/chaos/run.ts "$@"
