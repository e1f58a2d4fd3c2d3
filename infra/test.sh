#!/usr/bin/env bash
# Runs every check: typecheck, lint, formatting and all tests against real PostgreSQL and Temporal
# servers. Starts throwaway servers on free ports unless DATABASE_URL / TEMPORAL_ADDRESS
# are given. Exits non-zero on any failure.
#
#   ./infra/test.sh                  every check and test
#   ./infra/test.sh --chaos          then the fault scenarios, full length (infra/chaos, docs/reliability.md)
#   ./infra/test.sh --chaos=short    then the short fault scenarios (what CI runs)
set -euo pipefail
chaos=""
for arg in "$@"; do
  case "$arg" in
    --chaos | --chaos=full) chaos=full ;;
    --chaos=short) chaos=short ;;
    *) printf 'usage: %s [--chaos[=short|full]]\n' "$0" >&2; exit 2 ;;
  esac
done
source "$(dirname "$0")/lib/common.sh"
cd "$MOS_ROOT"

ensure_pnpm
ensure_deps
ensure_temporal

tmp=$(mktemp -d /tmp/mos-test.XXXXXX)
chmod 755 "$tmp"
MOS_PG_STOP=""
MOS_TEMPORAL_PID=""
cleanup() {
  [ -n "$MOS_TEMPORAL_PID" ] && kill "$MOS_TEMPORAL_PID" 2>/dev/null || true
  [ -n "$MOS_PG_STOP" ] && $MOS_PG_STOP >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -z "${DATABASE_URL:-}" ]; then
  # fsync off: a throwaway test cluster needs speed, not durability.
  MOS_PG_FSYNC=off start_postgres "$tmp/pg" "$(free_port)"
  log "PostgreSQL for tests: $DATABASE_URL"
fi
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  start_temporal "$(free_port)" "$(free_port)" "" "$tmp/temporal.log"
  log "Temporal for tests: $TEMPORAL_ADDRESS"
fi
export MOS_ENV=test
export TEMPORAL_CLI="$(command -v temporal)"

log "typecheck"; pnpm -s typecheck
log "lint"; pnpm -s lint
log "format"; pnpm -s format:check
log "migrations"; pnpm -s db:migrate
log "tests"; pnpm -s test
if [ -n "$chaos" ]; then
  # Its own PostgreSQL and Temporal: the scenarios stop and restart them.
  log "chaos ($chaos)"; "$MOS_ROOT/infra/chaos/run.sh" --profile "$chaos"
fi
log "all checks passed"
