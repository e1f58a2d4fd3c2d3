#!/usr/bin/env bash
# Runs the whole service locally: PostgreSQL and a Temporal dev server under .data/ (unless
# DATABASE_URL / TEMPORAL_ADDRESS are set), migrations, the provider simulator (unless
# PROVIDER_BASE_URL is set), then the API app, the control-plane app and the worker under a
# supervisor that restarts any of them that dies. Ctrl-C stops everything this script
# started; the next run reuses .data/. While it runs, .data/stack.env holds the connection
# the CLI uses from another shell.
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

STACK_ENV="$DATA/stack.env"
APP_PIDS="$DATA/app.pids"
SUPERVISOR_PID=""
MOS_PG_STOP=""
MOS_TEMPORAL_PID=""
stop_all() {
  trap - INT TERM EXIT
  log "stopping"
  rm -f "$STACK_ENV"
  [ -n "$SUPERVISOR_PID" ] && { kill "$SUPERVISOR_PID" 2>/dev/null || true; wait "$SUPERVISOR_PID" 2>/dev/null || true; }
  # A supervisor killed outright cannot stop its apps: stop the process groups it recorded.
  if [ -f "$APP_PIDS" ]; then
    local pid
    while read -r pid; do kill -TERM -- "-$pid" 2>/dev/null || true; done <"$APP_PIDS"
    sleep 2
    while read -r pid; do kill -KILL -- "-$pid" 2>/dev/null || true; done <"$APP_PIDS"
    rm -f "$APP_PIDS"
  fi
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
  # Webhook details link to their run in this UI (unless you point TEMPORAL_UI_URL elsewhere).
  export TEMPORAL_UI_URL="${TEMPORAL_UI_URL:-$TEMPORAL_UI}"
else
  TEMPORAL_UI="(your Temporal at $TEMPORAL_ADDRESS)"
fi

# For `pnpm mos` in another shell (services/cli reads it when DATABASE_URL is unset).
(umask 077 && printf 'DATABASE_URL=%s\nTEMPORAL_ADDRESS=%s\n' "$DATABASE_URL" "$TEMPORAL_ADDRESS" >"$STACK_ENV.tmp") && mv "$STACK_ENV.tmp" "$STACK_ENV"

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

TSX="$MOS_ROOT/node_modules/.bin/tsx" # run directly (not via pnpm) so the supervisor's signals reach the processes
procs=()
if [ -z "${PROVIDER_BASE_URL:-}" ]; then
  export PROVIDER_BASE_URL="http://127.0.0.1:$SIM_PORT"
  # Exported (not in argv, where ps would show the secrets); only the simulator reads SIM_*.
  export SIM_PORT SIM_WEBHOOK_URL="http://127.0.0.1:$API_PORT/webhooks/messaging/dev" SIM_SIGNING_SECRET="$DEV_SIGNING_SECRET" \
    SIM_ACCESS_TOKEN="$DEV_ACCESS_TOKEN" SIM_WABA_ID="$DEV_WABA_ID" SIM_PHONE_NUMBER_ID="$DEV_PHONE_NUMBER_ID"
  procs+=(-- provider-simulator "$TSX" packages/provider/src/simulator/main.ts)
  SIMULATOR="$PROVIDER_BASE_URL (provider simulator)"
else
  SIMULATOR="$PROVIDER_BASE_URL (configured provider)"
fi
procs+=(-- api "$TSX" services/api/src/main.ts -- control-plane "$TSX" services/control-plane/src/main.ts -- worker "$TSX" services/worker/src/main.ts)
node infra/stack/supervisor.mjs --log-dir "$DATA/logs" --pid-file "$APP_PIDS" "${procs[@]}" &
SUPERVISOR_PID=$!

healthy=""
for _ in $(seq 1 60); do
  http_ok "http://127.0.0.1:$API_PORT/health" && http_ok "http://127.0.0.1:$CONTROL_PLANE_PORT/health" && { healthy=1; break; }
  kill -0 "$SUPERVISOR_PID" 2>/dev/null || die "the process supervisor exited during start-up"
  sleep 1
done
[ -n "$healthy" ] || { tail -n 30 "$DATA"/logs/*.log >&2; die "the API and control plane did not answer /health within 60 s (logs above, all in $DATA/logs)"; }

cat <<INFO

  mos is running ($MOS_ENV)
  API app            http://127.0.0.1:$API_PORT        (/health, /ready, /webhooks/messaging[/dev], /v1/*, /internal/*, /metrics)
  v1 reference       http://127.0.0.1:$API_PORT/v1/docs   (OpenAPI 3.1 at /v1/openapi.json; a key: pnpm mos api-keys create --workspace dev --name me)
  Control plane      http://127.0.0.1:$CONTROL_PLANE_PORT        (/trpc, /api/*)
  Temporal UI        $TEMPORAL_UI
  Temporal frontend  $TEMPORAL_ADDRESS
  Provider           $SIMULATOR
  PostgreSQL         $DATABASE_URL
  Sign in            $DEV_EMAIL / $DEV_PASSWORD   (workspace "dev"; all in $creds)
  Logs               $DATA/logs/

  A process that dies is restarted. Ctrl-C stops everything.
INFO

# The supervisor keeps the apps up and only returns when stopped (Ctrl-C runs the INT trap
# and exits there), so getting past this wait means it was itself killed.
wait "$SUPERVISOR_PID" || true
log "the process supervisor exited unexpectedly; stopping"
exit 1
