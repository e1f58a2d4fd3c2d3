// Keeps the local stack's app processes running (infra/up.sh starts it): a process that dies
// is restarted with exponential backoff, so one crash does not take the stack down (and
// webhook intake stays up). SIGINT/SIGTERM stop every process, and nothing restarts then.
//
// node supervisor.mjs [--log-dir DIR] [--pid-file FILE] [--backoff-ms 1000] [--max-backoff-ms 30000]
//   [--stable-ms 60000] [--stop-timeout-ms 15000] -- NAME COMMAND [ARGS...] [-- NAME ...]
// --pid-file lists the running process groups, so whoever started us can still stop them
// should we be killed outright (SIGKILL leaves no chance to stop them ourselves).
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';

const OPTIONS = {
  '--log-dir': 'logDir',
  '--pid-file': 'pidFile',
  '--backoff-ms': 'backoffMs',
  '--max-backoff-ms': 'maxBackoffMs',
  '--stable-ms': 'stableMs',
  '--stop-timeout-ms': 'stopTimeoutMs',
};
const opts = { logDir: null, pidFile: null, backoffMs: 1000, maxBackoffMs: 30_000, stableMs: 60_000, stopTimeoutMs: 15_000 };
const argv = process.argv.slice(2);
let i = 0;
for (; i < argv.length && argv[i] !== '--'; i += 2) {
  const key = OPTIONS[argv[i]];
  if (!key || argv[i + 1] === undefined) usage(`unknown option ${argv[i]}`);
  opts[key] = key === 'logDir' || key === 'pidFile' ? argv[i + 1] : Number(argv[i + 1]);
}
const procs = [];
for (const arg of argv.slice(i)) {
  if (arg === '--') procs.push({ argv: [], child: null, failures: 0, startedAt: 0, timer: null });
  else procs.at(-1).argv.push(arg);
}
if (procs.length === 0 || procs.some((p) => p.argv.length < 2)) usage('expected -- NAME COMMAND [ARGS...] for each process');
for (const p of procs) p.name = p.argv.shift();

function usage(problem) {
  console.error(`supervisor: ${problem}\nusage: supervisor.mjs [--log-dir DIR] [--backoff-ms N] ... -- NAME COMMAND [ARGS...] [-- NAME ...]`);
  process.exit(2);
}

const tag = process.stderr.isTTY ? '\x1b[1;34m[mos]\x1b[0m' : '[mos]';
const say = (msg) => process.stderr.write(`${tag} ${msg}\n`);
const logFile = (p) => (opts.logDir ? join(opts.logDir, `${p.name}.log`) : null);

let stopping = null; // the signal that stopped us

function start(p) {
  p.timer = null;
  const file = logFile(p);
  const out = file ? openSync(file, 'a') : 'inherit';
  // Its own process group, so a terminal's Ctrl-C reaches only us (we stop it in order) and
  // whatever it leaves behind can be killed with it.
  const child = spawn(p.argv[0], p.argv.slice(1), { stdio: ['ignore', out, out], detached: true });
  if (typeof out === 'number') closeSync(out);
  p.child = child;
  p.startedAt = Date.now();
  writePids();
  child.on('exit', (code, signal) => exited(p, child, code, signal));
  child.on('error', (err) => {
    if (child.pid === undefined) exited(p, child, null, null, err.message); // never started
  });
}

function describe(code, signal, error) {
  if (error) return `could not start: ${error}`;
  if (signal) return `signal ${signal}`;
  // A wrapper such as tsx reports its child's fatal signal as 128 + n.
  const name = code > 128 ? Object.keys(constants.signals).find((s) => constants.signals[s] === code - 128) : undefined;
  return name ? `code ${code}, ${name}` : `code ${code}`;
}

function exited(p, child, code, signal, error) {
  if (p.child !== child) return;
  p.child = null;
  killGroup(child.pid, 'SIGKILL'); // e.g. the app under a tsx that was killed -9
  if (stopping) return finishIfDone();
  const ranMs = Date.now() - p.startedAt;
  if (ranMs >= opts.stableMs) p.failures = 0;
  const delay = Math.min(opts.maxBackoffMs, opts.backoffMs * 2 ** p.failures);
  p.failures += 1;
  const how = describe(code, signal, error);
  say(`${p.name} exited (${how}) after ${seconds(ranMs)}; restarting it in ${seconds(delay)}${logFile(p) ? ` (log: ${logFile(p)})` : ''}`);
  p.timer = setTimeout(() => {
    const file = logFile(p);
    if (file) appendFileSync(file, `[mos supervisor] restarting ${p.name} after it exited (${how})\n`);
    start(p);
    if (p.child?.pid) say(`${p.name} restarted (pid ${p.child.pid})`);
  }, delay);
}

function writePids() {
  if (!opts.pidFile) return;
  const pids = procs.map((p) => p.child?.pid).filter(Boolean);
  writeFileSync(`${opts.pidFile}.tmp`, pids.map((pid) => `${pid}\n`).join(''));
  renameSync(`${opts.pidFile}.tmp`, opts.pidFile);
}

const seconds = (ms) => `${Math.round(ms / 100) / 10}s`;

function killGroup(pid, signal) {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    /* the group is already gone */
  }
}

function stop(signal) {
  if (stopping) return;
  stopping = signal;
  say(`stopping ${procs.map((p) => p.name).join(', ')} (${signal})`);
  for (const p of procs) {
    clearTimeout(p.timer);
    // The group leader only: tsx relays it to the app, which then shuts down gracefully.
    p.child?.kill('SIGTERM');
  }
  setTimeout(() => {
    for (const p of procs)
      if (p.child) {
        say(`${p.name} did not stop within ${seconds(opts.stopTimeoutMs)}: killing it`);
        killGroup(p.child.pid, 'SIGKILL');
      }
  }, opts.stopTimeoutMs).unref();
  finishIfDone();
}

function finishIfDone() {
  if (procs.some((p) => p.child)) return;
  if (opts.pidFile) rmSync(opts.pidFile, { force: true }); // stale pids must never be signalled later
  // Die of the signal we were stopped by: a shell waiting on us after a Ctrl-C only runs its
  // own INT trap when its child did not treat the signal as handled (exit 0).
  process.removeAllListeners(stopping);
  process.kill(process.pid, stopping);
}

process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGHUP'));
for (const p of procs) start(p);
