import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedWorkflowBundle } from '../testing';

/** A fixture worker process (the SIGKILL suites): its stdout lines, and `ready` once it prints `ready`. */
export interface FixtureWorker {
  child: ChildProcess;
  /** Every line it printed so far, `ready` excluded. */
  lines: string[];
  ready: Promise<void>;
}

/** Runs `services/worker/src/testing-fixtures/<fixture>.ts` under tsx with `env` added to this process's environment. */
export function spawnFixtureWorker(fixture: string, env: Record<string, string>): FixtureWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/worker/src/testing-fixtures/${fixture}.ts`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffered = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => reject(new Error(`worker exited early (${code ?? signal})`)));
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const complete = buffered.split('\n');
      buffered = complete.pop()!;
      for (const line of complete) {
        if (line === 'ready') resolve();
        else lines.push(line);
      }
    });
  });
  ready.catch(() => {});
  return { child, lines, ready };
}

/** The shared workflow bundle written to a file, for fixture workers to load as production does. */
export async function writeWorkflowBundle(prefix: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), 'workflows.js');
  writeFileSync(path, (await sharedWorkflowBundle()).code);
  return path;
}
