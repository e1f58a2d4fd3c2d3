#!/usr/bin/env bash
# A private PostgreSQL + Temporal dev server for the benchmarks, started exactly as
# ./infra/up.sh starts its embedded defaults (infra/lib/common.sh): PostgreSQL with fsync ON
# (MOS_PG_FSYNC is ignored here) and `temporal server start-dev` on a SQLite FILE (WAL,
# synchronous=normal, the pipeline's search attributes), on ports that do not clash with a
# dev stack, in a directory under /tmp.
#
#   infra/bench/stack.sh [start]   fresh stack (previous data removed); prints the env file's path
#   infra/bench/stack.sh stop      stops both servers
#   infra/bench/stack.sh status    says what runs
#
#   source "$(infra/bench/stack.sh)"     # or: infra/bench/stack.sh && source /tmp/mos-bench-stack/bench.env
#   pnpm exec tsx infra/bench/end-to-end.ts --rate 20 --duration 15
#
# The env file exports DATABASE_URL, TEMPORAL_ADDRESS, MOS_BENCH_TEMPORAL_PID (the Temporal
# server's own process, whose CPU time end-to-end.ts reads from /proc) and MOS_BENCH_PG_PID (the
# postmaster, for PostgreSQL's CPU time). Every start is fresh,
# so runs compare on an empty Temporal database: restart between runs you mean to compare.
#
# Knobs (environment): MOS_BENCH_DIR (/tmp/mos-bench-stack), MOS_BENCH_PG_PORT (56432),
# MOS_BENCH_TEMPORAL_PORT (57733), MOS_BENCH_TEMPORAL_UI_PORT (58733).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

DIR=${MOS_BENCH_DIR:-/tmp/mos-bench-stack}
PG_PORT=${MOS_BENCH_PG_PORT:-56432}
T_PORT=${MOS_BENCH_TEMPORAL_PORT:-57733}
T_UI_PORT=${MOS_BENCH_TEMPORAL_UI_PORT:-58733}
ENV_FILE="$DIR/bench.env"
STATE="$DIR/stack.state" # PG_STOP=<command>, TEMPORAL_PID=<pid>

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The process that is the Temporal server itself: `temporal` may be a shim (pyenv) that execs
# the binary (same pid) or a wrapper that spawns it (a child running `server start-dev`).
server_pid() {
  local pid=$1 child exe
  for _ in 1 2 3; do
    exe=$(readlink "/proc/$pid/exe" 2>/dev/null || true)
    case "$(basename "$exe")" in bash | sh | dash | python* | pyenv) ;; *)
      echo "$pid"
      return
      ;;
    esac
    child=$(pgrep -P "$pid" | head -n 1 || true)
    [ -n "$child" ] || break
    pid=$child
  done
  echo "$pid"
}

# A pid is still our Temporal server only if its command line says so (pids are reused).
is_our_temporal() {
  [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -- "start-dev.*--port $T_PORT "
}

stop_stack() {
  [ -f "$STATE" ] || {
    log "no bench stack recorded in $DIR"
    return 0
  }
  local PG_STOP="" TEMPORAL_PID=""
  # shellcheck disable=SC1090
  source "$STATE"
  if [ -n "$TEMPORAL_PID" ] && is_our_temporal "$TEMPORAL_PID"; then
    kill "$TEMPORAL_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$TEMPORAL_PID" 2>/dev/null || break
      sleep 0.2
    done
    kill -0 "$TEMPORAL_PID" 2>/dev/null && kill -KILL "$TEMPORAL_PID" 2>/dev/null || true
    log "Temporal dev server stopped (pid $TEMPORAL_PID)"
  fi
  if [ -n "$PG_STOP" ]; then
    $PG_STOP >/dev/null 2>&1 || true
    log "PostgreSQL stopped"
  fi
  rm -f "$STATE" "$ENV_FILE"
}

start_stack() {
  [ -d "$MOS_ROOT/node_modules" ] || die "run pnpm install first"
  if [ -f "$STATE" ]; then
    log "a bench stack is recorded in $DIR: stopping it first"
    stop_stack
  fi
  port_busy "$PG_PORT" && die "port $PG_PORT is in use (MOS_BENCH_PG_PORT)"
  port_busy "$T_PORT" && die "port $T_PORT is in use (MOS_BENCH_TEMPORAL_PORT)"
  port_busy "$T_UI_PORT" && die "port $T_UI_PORT is in use (MOS_BENCH_TEMPORAL_UI_PORT)"
  ensure_pnpm
  ensure_temporal

  rm -rf "$DIR"
  mkdir -p "$DIR"
  chmod 755 "$DIR"
  # As up.sh does for its embedded defaults; fsync stays on whatever the caller's shell says.
  MOS_PG_FSYNC=on start_postgres "$DIR/pg" "$PG_PORT"
  printf 'PG_STOP=%q\n' "$MOS_PG_STOP" >"$STATE"
  start_temporal "$T_PORT" "$T_UI_PORT" "$DIR/temporal.db" "$DIR/temporal.log"
  disown "$MOS_TEMPORAL_PID" 2>/dev/null || true
  local pid pg_pid
  pid=$(server_pid "$MOS_TEMPORAL_PID")
  printf 'TEMPORAL_PID=%q\n' "$pid" >>"$STATE"
  # The postmaster (first line of postmaster.pid): end-to-end.ts sums its backends' CPU time.
  pg_pid=$(head -n 1 "$DIR/pg/postmaster.pid" 2>/dev/null || true)

  (umask 077 && printf 'export DATABASE_URL=%q\nexport TEMPORAL_ADDRESS=%q\nexport MOS_BENCH_TEMPORAL_PID=%q\nexport MOS_BENCH_PG_PID=%q\n' \
    "$DATABASE_URL" "$TEMPORAL_ADDRESS" "$pid" "$pg_pid" >"$ENV_FILE")
  log "bench stack up: PostgreSQL $DATABASE_URL (fsync on), Temporal $TEMPORAL_ADDRESS (pid $pid, UI http://127.0.0.1:$T_UI_PORT, db $DIR/temporal.db)"
  echo "$ENV_FILE"
}

case "${1:-start}" in
  start) start_stack ;;
  stop) stop_stack ;;
  status)
    if [ -f "$ENV_FILE" ]; then
      cat "$ENV_FILE"
      TEMPORAL_PID=""
      # shellcheck disable=SC1090
      source "$STATE"
      is_our_temporal "$TEMPORAL_PID" && echo "temporal: running (pid $TEMPORAL_PID)" || echo "temporal: NOT running"
      port_busy "$PG_PORT" && echo "postgres: running (port $PG_PORT)" || echo "postgres: NOT running"
    else
      echo "no bench stack in $DIR"
    fi
    ;;
  *) die "usage: $0 [start|stop|status]" ;;
esac
