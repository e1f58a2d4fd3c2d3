/**
 * CPU time of local processes from /proc, for the benchmarks (end-to-end.ts, send-governor.ts).
 * Differences over a window are exact: utime/stime count every thread, and a parent's
 * cutime/cstime keep the time of children that already exited.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
const ticksToMs = (ticks: number) => (ticks * 1000) / CLK_TCK;

/** utime+stime (ticks) of the process itself and of its reaped children, and its ppid; null when gone. */
export function procStat(pid: number): { ppid: number; self: number; children: number } | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces): state ppid ... utime(11) stime cutime cstime.
  const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), self: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
}

/** A process's own CPU ms (all its threads), or null when it is gone. */
export function cpuMs(pid: number): number | null {
  const s = procStat(pid);
  return s ? ticksToMs(s.self) : null;
}

/** A PostgreSQL cluster's CPU ms: the postmaster, its live backends and (cutime/cstime) the ones that exited. */
export function treeCpuMs(rootPid: number): number | null {
  const root = procStat(rootPid);
  if (!root) return null;
  let ticks = root.self + root.children;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(Number(name));
    if (s && s.ppid === rootPid) ticks += s.self;
  }
  return ticksToMs(ticks);
}
