import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Written by ./infra/up.sh while it runs, removed when it stops. */
export const STACK_ENV_FILE = 'stack.env';
const RECORDED = ['DATABASE_URL', 'TEMPORAL_ADDRESS'] as const;

export interface CliEnvSource {
  env: NodeJS.ProcessEnv;
  /** The stack.env file DATABASE_URL came from, when it did not come from the environment. */
  stackFile?: string;
}

/**
 * The environment the CLI runs with: a variable that is set always wins; otherwise the
 * connection the local stack recorded, so `pnpm mos` works from a second shell as is.
 */
export function cliEnv(source: NodeJS.ProcessEnv = process.env): CliEnvSource {
  const file = resolve(source.MOS_DATA_DIR || '.data', STACK_ENV_FILE);
  const recorded = existsSync(file) ? parseEnvFile(readFileSync(file, 'utf8')) : {};
  const env: NodeJS.ProcessEnv = { ...source };
  for (const key of RECORDED) if (!env[key] && recorded[key]) env[key] = recorded[key];
  if (!env.DATABASE_URL) {
    throw new Error(`DATABASE_URL is not set and no local stack is running (no ${file}): start ./infra/up.sh in another shell, or set DATABASE_URL`);
  }
  return { env, stackFile: source.DATABASE_URL ? undefined : file };
}

/** KEY=value lines as up.sh writes them (no quoting, no expansion). */
function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}
