import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const SUPERVISOR = fileURLToPath(new URL('./stack/supervisor.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mos-supervisor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A child that records each start's pid in FILE.pids and a graceful SIGTERM in FILE.stopped. */
const longRunning = (file: string) =>
  `const fs=require('fs');fs.appendFileSync(${JSON.stringify(`${file}.pids`)},process.pid+'\\n');` +
  `process.on('SIGTERM',()=>{fs.appendFileSync(${JSON.stringify(`${file}.stopped`)},process.pid+'\\n');process.exit(0)});setInterval(()=>{},1e6)`;
// Empty lines are dropped: the file can be read between the child's open and its write.
const pids = (file: string) =>
  existsSync(`${file}.pids`)
    ? readFileSync(`${file}.pids`, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(Number)
    : [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Supervisor {
  proc: ChildProcess;
  stderr: () => string;
  /** How it ended: stopping re-raises the signal that asked for it. */
  exited: Promise<NodeJS.Signals | number | null>;
}
const running: Supervisor[] = [];
// A failed test must not leave its children behind: they run in their own process groups.
afterEach(async () => {
  for (const s of running.splice(0)) {
    s.proc.kill('SIGTERM');
    await s.exited;
  }
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.pids'))) {
    for (const pid of pids(join(dir, f.slice(0, -'.pids'.length)))) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

function supervise(args: string[]): Supervisor {
  const proc = spawn(process.execPath, [SUPERVISOR, '--log-dir', dir, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const s = { proc, stderr: () => err, exited: new Promise<NodeJS.Signals | number | null>((r) => proc.on('exit', (code, signal) => r(signal ?? code))) };
  running.push(s);
  return s;
}

async function waitFor(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('infra/stack/supervisor.mjs', () => {
  it('restarts a killed process, says which one died and how, leaves the others alone, and stops all cleanly', async () => {
    const api = join(dir, 'api');
    const worker = join(dir, 'worker');
    const s = supervise([
      '--backoff-ms',
      '100',
      '--',
      'api',
      process.execPath,
      '-e',
      longRunning(api),
      '--',
      'worker',
      process.execPath,
      '-e',
      longRunning(worker),
    ]);
    await waitFor('both processes', () => pids(api).length === 1 && pids(worker).length === 1);
    const [apiPid] = pids(api);
    const [firstWorker] = pids(worker);

    process.kill(firstWorker!, 'SIGKILL');
    await waitFor('the restart', () => pids(worker).length === 2 && /worker restarted \(pid \d+\)/.test(s.stderr()));
    expect(s.stderr()).toMatch(/worker exited \(signal SIGKILL\) after [\d.]+s; restarting it in 0\.1s/);
    expect(readFileSync(join(dir, 'worker.log'), 'utf8')).toContain('restarting worker after it exited (signal SIGKILL)');
    expect(alive(apiPid!)).toBe(true);
    expect(pids(api)).toEqual([apiPid]);

    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe('SIGTERM');
    const out = s.stderr();
    const stopAt = out.indexOf('stopping api, worker (SIGTERM)');
    expect(stopAt).toBeGreaterThan(-1);
    expect(out.slice(stopAt)).not.toMatch(/restart/);
    // Both got a SIGTERM they could handle, and neither came back.
    expect(readFileSync(`${api}.stopped`, 'utf8').trim()).toBe(String(apiPid));
    expect(readFileSync(`${worker}.stopped`, 'utf8').trim()).toBe(String(pids(worker)[1]));
    expect([...pids(api), ...pids(worker)].some(alive)).toBe(false);
  }, 20_000);

  it('backs off exponentially up to a limit while a process keeps crashing', async () => {
    const s = supervise(['--backoff-ms', '100', '--max-backoff-ms', '400', '--', 'simulator', process.execPath, '-e', 'process.exit(3)']);
    await waitFor('five crashes', () => (s.stderr().match(/simulator exited \(code 3\)/g) ?? []).length >= 5);
    const delays = [...s.stderr().matchAll(/restarting it in ([\d.]+)s/g)].map((m) => Number(m[1]));
    expect(delays.slice(0, 5)).toEqual([0.1, 0.2, 0.4, 0.4, 0.4]);
    s.proc.kill('SIGINT');
    expect(await s.exited).toBe('SIGINT');
  }, 20_000);

  it('kills what a killed wrapper leaves behind before restarting, as tsx leaves its app after kill -9', async () => {
    const app = join(dir, 'wrapped');
    const s = supervise(['--backoff-ms', '100', '--', 'api', 'sh', '-c', `"${process.execPath}" -e "$1" & wait`, 'sh', longRunning(app)]);
    await waitFor('the wrapped app', () => pids(app).length === 1);
    const wrapper = Number(
      readFileSync(`/proc/${pids(app)[0]}/stat`, 'utf8')
        .split(') ')[1]!
        .split(' ')[1],
    );
    process.kill(wrapper, 'SIGKILL');
    await waitFor('the restart', () => pids(app).length === 2);
    await waitFor('the orphan to go', () => !alive(pids(app)[0]!));
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe('SIGTERM');
  }, 20_000);

  it("lets a Ctrl-C reach the INT trap of the script waiting on it, as up.sh's does", async () => {
    const app = join(dir, 'trapped');
    const script = `trap 'echo TRAP; wait "$sup"; exit 130' INT
      node "$1" --log-dir "$2" -- api "$3" -e "$4" & sup=$!
      wait "$sup"; echo FELL-THROUGH`;
    // Its own process group, the one a terminal's Ctrl-C signals as a whole.
    const sh = spawn('bash', ['-c', script, 'sh', SUPERVISOR, dir, process.execPath, longRunning(app)], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    sh.stdout!.on('data', (d) => (out += d));
    const done = new Promise<number | null>((r) => sh.on('exit', (code) => r(code)));
    await waitFor('the app', () => pids(app).length === 1);
    process.kill(-sh.pid!, 'SIGINT');
    expect(await done).toBe(130);
    expect(out).toContain('TRAP');
    expect(out).not.toContain('FELL-THROUGH');
    expect(alive(pids(app)[0]!)).toBe(false);
  }, 20_000);

  it('starts the backoff afresh once a process has stayed up long enough', async () => {
    const s = supervise(['--backoff-ms', '100', '--stable-ms', '0', '--', 'control-plane', process.execPath, '-e', 'process.exit(1)']);
    await waitFor('three crashes', () => (s.stderr().match(/control-plane exited \(code 1\)/g) ?? []).length >= 3);
    expect([...s.stderr().matchAll(/restarting it in ([\d.]+)s/g)].map((m) => m[1]).slice(0, 3)).toEqual(['0.1', '0.1', '0.1']);
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe('SIGTERM');
  }, 20_000);
});

describe('infra/stack/supervisor.mjs --pid-file', () => {
  it('lists the live process groups (so up.sh can stop them should the supervisor be SIGKILLed), and removes the list on a clean stop', async () => {
    const app = join(dir, 'pidfile-app');
    const pidFile = join(dir, 'app.pids-list');
    const s = supervise(['--pid-file', pidFile, '--backoff-ms', '100', '--', 'app', process.execPath, '-e', longRunning(app)]);
    await waitFor('the app', () => pids(app).length === 1 && existsSync(pidFile));
    expect(readFileSync(pidFile, 'utf8').trim().split('\n').map(Number)).toEqual(pids(app));

    process.kill(pids(app)[0]!, 'SIGKILL');
    await waitFor('the restart to be recorded', () => pids(app).length === 2 && readFileSync(pidFile, 'utf8').trim() === String(pids(app)[1]));

    s.proc.kill('SIGTERM');
    await s.exited;
    expect(existsSync(pidFile)).toBe(false);
  });
});
