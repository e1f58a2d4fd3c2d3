/**
 * Helpers for send-governor.ts: the service processes as ./infra/up.sh runs them (provider
 * simulator, API, worker: each `tsx <main.ts>` in its own process, configured by env),
 * the pid checks behind their CPU figures (proc-cpu.ts), and the seed data of one sending workspace.
 *
 * Processes run as `node --import tsx <main.ts>` (what the `tsx` binary does, without its
 * wrapper process), so the pid we hold is the service itself: SIGKILL reaches it and its
 * /proc/<pid>/stat is its own CPU. Their stdout and stderr go to a log file in the run's
 * directory; readiness is read from that file or from an HTTP probe.
 *
 * Imports go through relative paths because infra/ is not a workspace package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newId, newToken, sha256Hex } from '../../packages/core/src/index';
import { cpuMs, procStat } from './proc-cpu';
import { insertApiKey, upsertSyncedTemplate, upsertWorkspace, type Db, type Vault } from '../../packages/db/src/index';
import type { TestDatabase } from '../../packages/db/src/testing/index';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A pid from an option or the bench stack's env file, if it names a running process. */
export function livePid(raw: string | undefined): number | null {
  if (!raw) return null;
  const pid = Number(raw);
  return Number.isInteger(pid) && procStat(pid) ? pid : null;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Service processes
// ---------------------------------------------------------------------------------------------

export interface Service {
  name: string;
  pid: number;
  logFile: string;
  startedAt: number;
  /** Resolves when the process exited (code or signal). */
  exited: Promise<string>;
  /** Its CPU ms now, or the last reading taken before it went away. */
  cpuMs(): number;
  /** Resolves once its log holds a line matching `pattern` (rejects at the deadline or on exit). */
  waitForLog(pattern: RegExp, timeoutMs: number): Promise<void>;
  /** SIGKILL, with its CPU read just before. */
  kill(): void;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** `node --import tsx <script>` from the repository root, output to `<logDir>/<name>.log`. */
export function startService(name: string, script: string, env: NodeJS.ProcessEnv, logDir: string): Service {
  const logFile = join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script)], { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (!child.pid) throw new Error(`${name} did not start`);
  const pid = child.pid;
  let lastCpu = 0;
  let gone: string | null = null;
  const exited = new Promise<string>((r) =>
    child.once('exit', (code, signal) => {
      gone = signal ?? `code ${code}`;
      r(gone);
    }),
  );
  const read = () => {
    const c = gone === null ? cpuMs(pid) : null;
    if (c !== null) lastCpu = c;
    return lastCpu;
  };
  // A process that dies unasked still reports the CPU it had a moment before.
  const sampler = setInterval(read, 1000);
  void exited.then(() => clearInterval(sampler));
  return {
    name,
    pid,
    logFile,
    startedAt: Date.now(),
    exited,
    cpuMs: read,
    async waitForLog(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let offset = 0;
      let tail = '';
      for (;;) {
        const f = openSync(logFile, 'r');
        try {
          const buf = Buffer.alloc(64 * 1024);
          for (let n; (n = readSync(f, buf, 0, buf.length, offset)) > 0; offset += n) tail = (tail + buf.toString('utf8', 0, n)).slice(-256 * 1024);
        } finally {
          closeSync(f);
        }
        if (pattern.test(tail)) return;
        if (gone !== null) throw new Error(`${name} exited (${gone}) before it was ready; see ${logFile}`);
        if (Date.now() > deadline) throw new Error(`${name} was not ready within ${timeoutMs} ms; see ${logFile}`);
        await sleep(100);
      }
    },
    kill() {
      read();
      child.kill('SIGKILL');
    },
    async stop(graceMs = 15_000) {
      if (gone !== null) return;
      read();
      child.kill('SIGTERM');
      if ((await Promise.race([exited, sleep(graceMs).then(() => 'timeout')])) === 'timeout') {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** Polls `url` until it answers 2xx. */
export async function waitForHttp(url: string, service: Service, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedAs: string | null = null;
  void service.exited.then((s) => (exitedAs = s));
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (exitedAs !== null) throw new Error(`${service.name} exited (${exitedAs}) before it answered ${url}; see ${service.logFile}`);
    if (Date.now() > deadline) throw new Error(`${service.name} did not answer ${url} within ${timeoutMs} ms; see ${service.logFile}`);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------
// Seed: one sending workspace, its template and its contacts
// ---------------------------------------------------------------------------------------------

export const PHONE_NUMBER_ID = '106540352242922';
export const WABA_ID = '102290129340398';
export const TEMPLATE = { name: 'bench_notice', language: 'en_US', bodyText: 'Hello {{1}}, this is a benchmark notice.', parameters: { body: ['friend'] } };

export interface SeededWorkspace {
  workspaceId: string;
  slug: string;
  apiKey: string;
  phones: number;
}

/**
 * The workspace (phone number id, access token and signing secret in the vault, throughput
 * upgraded or not), the approved template as a template sync would store it, an API key, and
 * `recipients` subscribed contacts with distinct E.164 numbers (+1555 and 7 digits), inserted
 * in bulk.
 */
export async function seedWorkspace(
  db: Db,
  pool: TestDatabase['pool'],
  vault: Vault,
  o: { slug: string; accessToken: string; signingSecret: string; upgraded: boolean; recipients: number },
): Promise<SeededWorkspace> {
  const { workspace } = await upsertWorkspace(db, o.slug, { wabaId: WABA_ID, phoneNumberId: PHONE_NUMBER_ID });
  await pool.query(`UPDATE workspaces SET throughput_upgraded = $2 WHERE id = $1`, [workspace.id, o.upgraded]);
  await vault.set(db, workspace.id, 'provider-access-token', o.accessToken);
  await vault.set(db, workspace.id, 'webhook-signing-secret', o.signingSecret);
  await upsertSyncedTemplate(
    db,
    workspace.id,
    {
      providerTemplateId: '900000000000001',
      name: TEMPLATE.name,
      language: TEMPLATE.language,
      category: 'UTILITY',
      status: 'approved',
      components: [{ type: 'BODY', text: TEMPLATE.bodyText }],
    },
    new Date(),
  );
  const apiKey = newToken('mos_live');
  await insertApiKey(db, workspace.id, { name: 'send benchmark', prefix: apiKey.slice(0, 12), keyHash: sha256Hex(apiKey) });
  if (o.recipients > 10_000_000) throw new Error('at most 10,000,000 recipients (7-digit subscriber numbers)');
  const CHUNK = 5000;
  for (let from = 0; from < o.recipients; from += CHUNK) {
    const ids: string[] = [];
    const phones: string[] = [];
    for (let i = from; i < Math.min(o.recipients, from + CHUNK); i++) {
      ids.push(newId('contact'));
      phones.push(`+1555${String(i).padStart(7, '0')}`);
    }
    await pool.query(
      `INSERT INTO contacts (id, workspace_id, phone_number, subscriber_status) SELECT id, $1, phone, 'subscribed' FROM unnest($2::text[], $3::text[]) AS t(id, phone)`,
      [workspace.id, ids, phones],
    );
  }
  return { workspaceId: workspace.id, slug: o.slug, apiKey, phones: o.recipients };
}
