import { ERROR_STATUS, type ErrorCode } from '@mos/core';

/** An answer as the fuzzers read it: the status, the body as text, and its JSON when it is JSON. */
export interface FuzzAnswer {
  status: number;
  text: string;
  json?: unknown;
}

/**
 * What must never reach a client: stack frames, source paths, driver and SQL text. The words
 * are matched where they would appear in such text, not as substrings of ordinary messages.
 */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\] ]+ \(?(?:file:|node:|\/)[^)]*:\d+:\d+\)?/],
  ['a source path', /\.(?:ts|js|mjs|cjs):\d+/],
  ['node_modules', /node_modules/],
  ['SQL', /\b(?:SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/],
  ['a constraint violation', /\bviolates\b/i],
  ['a syntax error', /syntax error/i],
  ['a driver name', /\b(?:pg|postgres(?:ql)?|drizzle)\b/i],
  ['a driver failure', /Failed query|relation "|duplicate key/i],
];

/** The reasons this body leaks internals (empty when it does not). */
export function leaksIn(text: string): string[] {
  return LEAKS.filter(([, re]) => re.test(text)).map(([what]) => what);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Record<string, unknown>, allowed: string[]) => Object.keys(v).filter((k) => !allowed.includes(k));

/**
 * The Express surfaces' error body (`{error, message?, issues?, meta?}`, AppError.toBody):
 * a known code whose status is the answer's. `documented`, when given, is the list of codes
 * the OpenAPI document promises for this status on this operation; `extraKeys` are keys a
 * surface documents beside those (the inbound webhook's `runId`). Returns what is wrong, if anything.
 */
export function appErrorShapeProblem(answer: FuzzAnswer, opts: { documented?: readonly string[]; extraKeys?: string[] } = {}): string | undefined {
  const { documented } = opts;
  const b = answer.json;
  if (!isObject(b) || typeof b.error !== 'string') return 'not an {error} object';
  const extra = onlyKeys(b, ['error', 'message', 'issues', 'meta', ...(opts.extraKeys ?? [])]);
  if (extra.length) return `unexpected keys ${extra.join(', ')}`;
  if (b.message !== undefined && typeof b.message !== 'string') return 'message is not a string';
  if (b.issues !== undefined && !Array.isArray(b.issues)) return 'issues is not an array';
  const status = ERROR_STATUS[b.error as ErrorCode] as number | undefined;
  if (status !== answer.status) return `code ${b.error} belongs to status ${status ?? 'none'}, answered ${answer.status}`;
  if (documented && !documented.includes(b.error))
    return `code ${b.error} is not documented for ${answer.status} (documented: ${documented.join(', ') || 'none'})`;
  return undefined;
}

/** The legacy compat body: `{status: 'error', message, requestId?}`. */
export function compatShapeProblem(answer: FuzzAnswer): string | undefined {
  const b = answer.json;
  if (!isObject(b) || b.status !== 'error' || typeof b.message !== 'string') return 'not a legacy {status: "error", message} body';
  const extra = onlyKeys(b, ['status', 'message', 'requestId', 'errors', 'code']);
  return extra.length ? `unexpected keys ${extra.join(', ')}` : undefined;
}

/** tRPC's error envelope (one, or one per call in a batch) with our code in data.appCode and the answer's status in data.httpStatus. */
export function trpcShapeProblem(answer: FuzzAnswer): string | undefined {
  const items = Array.isArray(answer.json) ? answer.json : [answer.json];
  for (const item of items) {
    const e = isObject(item) ? item.error : undefined;
    if (!isObject(e) || typeof e.message !== 'string' || typeof e.code !== 'number' || !isObject(e.data)) return 'not a tRPC error envelope';
    const { appCode, httpStatus, stack } = e.data;
    if (stack !== undefined) return 'carries a stack';
    if (typeof appCode !== 'string' || !(appCode in ERROR_STATUS)) return `appCode ${String(appCode)} is not one of ours`;
    if (!Array.isArray(answer.json) && httpStatus !== answer.status) return `data.httpStatus ${String(httpStatus)} differs from ${answer.status}`;
  }
  return undefined;
}
