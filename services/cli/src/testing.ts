import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'services/cli/src/main.ts');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/**
 * Spawns the real `mos` CLI (as `pnpm mos` would) with `env` on top of this process's; a key
 * set to undefined is removed (e.g. to run it as a shell without DATABASE_URL would).
 */
export function runCli(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CliRun> {
  const merged = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined));
  return new Promise((resolve) => {
    const child = execFile(TSX, [MAIN, ...args], { cwd: ROOT, env: merged }, (err, stdout, stderr) => {
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* human output */
      }
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr, json });
    });
    child.stdin!.end(stdin);
  });
}
