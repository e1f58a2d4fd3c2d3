import { AppError, isAppError } from '@mos/core';
import { ZodError } from 'zod';
import { openContext, type CliContext } from './context';

export interface OutputOptions {
  json?: boolean;
}

/**
 * Human output quotes stored values the provider or a customer wrote (event names, template
 * names, summaries): control characters other than newline and tab are shown as `\u00XX`, so
 * no stored value can move the cursor, recolour or retitle the admin's terminal.
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function print(result: unknown, opts: OutputOptions, human: (r: never) => string): void {
  if (opts.json) console.log(JSON.stringify(result, null, 2));
  else console.log(terminalSafe(human(result as never)));
}

function describeIssue(i: unknown): string {
  const { target, path, message } = (i ?? {}) as { target?: unknown; path?: unknown; message?: unknown };
  const where = typeof target === 'string' ? target : Array.isArray(path) ? path.join('.') : '';
  return `${where ? `${where}: ` : ''}${typeof message === 'string' ? message : JSON.stringify(i)}`;
}

/** One failure path: a message on stderr (JSON with --json) and a non-zero exit. */
export function fail(err: unknown, opts: OutputOptions): never {
  let code = 'internal_error';
  let message = err instanceof Error ? err.message : String(err);
  let issues: unknown[] | undefined;
  if (isAppError(err)) {
    code = err.code;
    message = err.message;
    issues = err.issues;
  } else if (err instanceof ZodError) {
    code = 'invalid_request';
    message = err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
  }
  if (opts.json) console.error(JSON.stringify({ error: code, message, ...(issues ? { issues } : {}) }));
  else console.error(terminalSafe([`mos: ${message}`, ...(issues ?? []).map((i) => `  - ${describeIssue(i)}`)].join('\n')));
  process.exit(err instanceof AppError || err instanceof ZodError ? 1 : 3);
}

/** Runs one command against the database: open, act, print, close; any failure exits non-zero. */
export async function run<T>(o: OutputOptions, fn: (ctx: CliContext) => Promise<T>, human: (r: T) => string): Promise<void> {
  const ctx = await openContext().catch((e) => fail(e, o));
  try {
    print(await fn(ctx), o, human);
  } catch (e) {
    fail(e, o);
  } finally {
    await ctx.close();
  }
}
