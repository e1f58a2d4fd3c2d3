import { loadEnv } from '@mos/config';
import { AppError } from '@mos/core';
import { findWorkspaceBySlug, runMigrations } from '@mos/db';
import { createAppDeps, type AppDeps, type Scope } from '@mos/app';
import { cliEnv } from './local-stack';

export interface CliContext {
  deps: AppDeps;
  close(): Promise<void>;
}

/** Opens the database for one command; the CLI always runs pending migrations first. */
export async function openContext(): Promise<CliContext> {
  const { env: source, stackFile } = cliEnv(process.env);
  const env = loadEnv({ LOG_LEVEL: 'silent', ...source });
  await runMigrations(env.DATABASE_URL).catch((err: NodeJS.ErrnoException) => {
    // A stack.env left behind by an up.sh that was killed points at a stopped database.
    if (stackFile && err.code === 'ECONNREFUSED')
      throw new Error(`cannot reach the local stack's database (from ${stackFile}): is ./infra/up.sh still running?`);
    throw err;
  });
  return createAppDeps(env, 'cli');
}

export async function scopeForSlug(deps: AppDeps, slug: string): Promise<Scope> {
  const ws = await findWorkspaceBySlug(deps.db, slug);
  if (!ws) throw new AppError('not_found', { message: `no workspace with slug "${slug}"` });
  return { workspaceId: ws.id, actorId: 'cli', role: 'platform' };
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `-` means "read the value from stdin", so secrets stay out of shell history and ps. */
export async function valueOrStdin(value: string): Promise<string> {
  return value === '-' ? readStdin() : value;
}
