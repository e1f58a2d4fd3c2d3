#!/usr/bin/env bash
# Runs the whole service locally: PostgreSQL and a Temporal dev server under .data/ (unless
# DATABASE_URL / TEMPORAL_ADDRESS are set), migrations, the provider simulator (unless
# PROVIDER_BASE_URL is set), then the API app, the control-plane app and the worker.
# Ctrl-C stops everything this script started; the next run reuses .data/.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$MOS_ROOT"

ensure_pnpm
ensure_deps
ensure_temporal

DATA="$MOS_ROOT/.data"
mkdir -p "$DATA/logs"
chmod 755 "$DATA"
export MOS_DATA_DIR="$DATA"
export MOS_ENV="${MOS_ENV:-development}"
export API_PORT="${API_PORT:-3000}" CONTROL_PLANE_PORT="${CONTROL_PLANE_PORT:-3001}"
SIM_PORT="${PROVIDER_SIMULATOR_PORT:-3002}"

pids=()
MOS_PG_STOP=""
MOS_TEMPORAL_PID=""
stop_all() {
  trap - INT TERM EXIT
  log "stopping"
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "$MOS_TEMPORAL_PID" ] && { kill "$MOS_TEMPORAL_PID" 2>/dev/null || true; wait "$MOS_TEMPORAL_PID" 2>/dev/null || true; }
  [ -n "$MOS_PG_STOP" ] && { $MOS_PG_STOP >/dev/null 2>&1 || true; }
  log "stopped"
}
trap 'stop_all; exit 130' INT TERM
trap stop_all EXIT

if [ -z "${DATABASE_URL:-}" ]; then
  start_postgres "$DATA/pg" "${MOS_PG_PORT:-54329}"
fi
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  start_temporal "${TEMPORAL_PORT:-7233}" "${TEMPORAL_UI_PORT:-8233}" "$DATA/temporal.db" "$DATA/logs/temporal.log"
  TEMPORAL_UI="http://127.0.0.1:${TEMPORAL_UI_PORT:-8233}"
else
  TEMPORAL_UI="(your Temporal at $TEMPORAL_ADDRESS)"
fi

log "applying migrations"
pnpm -s db:migrate >/dev/null

# A first run gets a dev workspace wired to the simulator; credentials live in .data/.
creds="$DATA/dev-credentials.env"
if [ ! -f "$creds" ]; then
  umask 077
  cat >"$creds" <<CREDS
DEV_EMAIL=admin@mos.local
DEV_PASSWORD=$(node -e "console.log(require('crypto').randomBytes(12).toString('base64url'))")
DEV_SIGNING_SECRET=$(node -e "console.log(require('crypto').randomBytes(24).toString('hex'))")
DEV_VERIFY_TOKEN=$(node -e "console.log(require('crypto').randomBytes(12).toString('hex'))")
DEV_ACCESS_TOKEN=sim-$(node -e "console.log(require('crypto').randomBytes(16).toString('hex'))")
DEV_WABA_ID=102290129340398
DEV_PHONE_NUMBER_ID=106540352242922
CREDS
  umask 022
fi
# shellcheck disable=SC1090
source "$creds"
pnpm -s mos bootstrap --workspace dev --email "$DEV_EMAIL" --password "$DEV_PASSWORD" \
  --waba-id "$DEV_WABA_ID" --phone-number-id "$DEV_PHONE_NUMBER_ID" --provider-ingress --json >/dev/null
printf '%s' "$DEV_SIGNING_SECRET" | pnpm -s mos secrets set --workspace dev webhook-signing-secret - >/dev/null
printf '%s' "$DEV_VERIFY_TOKEN" | pnpm -s mos secrets set --workspace dev provider-verify-token - >/dev/null
printf '%s' "$DEV_ACCESS_TOKEN" | pnpm -s mos secrets set --workspace dev provider-access-token - >/dev/null

TSX="$MOS_ROOT/node_modules/.bin/tsx" # run directly (not via pnpm) so our signals reach the processes
run_bg() { # name command...
  local name=$1; shift
  "$@" >>"$DATA/logs/$name.log" 2>&1 &
  pids+=($!)
}

if [ -z "${PROVIDER_BASE_URL:-}" ]; then
  export PROVIDER_BASE_URL="http://127.0.0.1:$SIM_PORT"
  SIM_PORT="$SIM_PORT" SIM_WEBHOOK_URL="http://127.0.0.1:$API_PORT/webhooks/messaging" SIM_SIGNING_SECRET="$DEV_SIGNING_SECRET" \
    SIM_ACCESS_TOKEN="$DEV_ACCESS_TOKEN" SIM_WABA_ID="$DEV_WABA_ID" SIM_PHONE_NUMBER_ID="$DEV_PHONE_NUMBER_ID" \
    run_bg provider-simulator "$TSX" packages/provider/src/simulator/main.ts
  SIMULATOR="$PROVIDER_BASE_URL (provider simulator)"
else
  SIMULATOR="$PROVIDER_BASE_URL (configured provider)"
fi

run_bg api "$TSX" services/api/src/main.ts
run_bg control-plane "$TSX" services/control-plane/src/main.ts
run_bg worker "$TSX" services/worker/src/main.ts

for _ in $(seq 1 60); do
  http_ok "http://127.0.0.1:$API_PORT/health" && http_ok "http://127.0.0.1:$CONTROL_PLANE_PORT/health" && break
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { tail -n 30 "$DATA"/logs/*.log >&2; die "a process exited during start-up (logs above, all in $DATA/logs)"; }; done
  sleep 1
done

cat <<INFO

  mos is running ($MOS_ENV)
  API app            http://127.0.0.1:$API_PORT        (/health, /ready, /webhooks/messaging, /internal/*)
  Control plane      http://127.0.0.1:$CONTROL_PLANE_PORT        (/trpc, /api/*)
  Temporal UI        $TEMPORAL_UI
  Temporal frontend  $TEMPORAL_ADDRESS
  Provider           $SIMULATOR
  PostgreSQL         $DATABASE_URL
  Sign in            $DEV_EMAIL / $DEV_PASSWORD   (workspace "dev"; all in $creds)
  Logs               $DATA/logs/

  Ctrl-C stops everything.
INFO

# Only reached when a child exits on its own (Ctrl-C runs the INT trap and exits there).
wait -n "${pids[@]}" || true
sleep 1 # Ctrl-C reaches the children and this script together: let its trap win the race
log "a process exited unexpectedly; see $DATA/logs"
exit 1
