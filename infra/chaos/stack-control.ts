/**
 * The faults' levers on the stack run.sh started: PostgreSQL and the Temporal dev server are
 * stopped and started with the same shell functions that started them (infra/lib/common.sh),
 * so a restart is the real server on the same data, not a stand-in.
 *
 * run.sh exports: CHAOS_PG_STOP (pg_ctl stop -m immediate: a crash, recovered from the WAL on
 * start), CHAOS_PG_START, CHAOS_TEMPORAL_START, CHAOS_TEMPORAL_PORT.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ROOT, sleep } from '../bench/send-stack';

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run infra/chaos/run.sh, not run.ts directly`);
  return v;
}

function shell(command: string): void {
  execFileSync('bash', ['-c', `source infra/lib/common.sh && ${command}`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
}

export function stopPostgres(): void {
  shell(need('CHAOS_PG_STOP'));
}

export function startPostgres(): void {
  shell(need('CHAOS_PG_START'));
}

/** Every process whose command line is our dev server's (the CLI shim and the server it runs). */
function temporalPids(): number[] {
  const marker = `--port ${need('CHAOS_TEMPORAL_PORT')} `;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes('start-dev') && cmd.includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** SIGTERM, then SIGKILL after 10 s: the server is down when this returns. */
export async function stopTemporal(): Promise<void> {
  const pids = temporalPids();
  if (pids.length === 0) throw new Error('the chaos Temporal server is not running');
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && temporalPids().length > 0; i++) await sleep(100);
  for (const pid of temporalPids()) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 50 && temporalPids().length > 0; i++) await sleep(100);
}

/** Starts it on the same SQLite file and returns once it answers a health check. */
export function startTemporal(): void {
  shell(need('CHAOS_TEMPORAL_START'));
}
