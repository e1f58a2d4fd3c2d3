import { z } from 'zod';
import { AppError } from './errors';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a NUL that reached a query would fail in
 * the driver as a 500. Every request input refuses it at the boundary instead: a 400.
 */
export const NUL_MESSAGE = 'must not contain NUL characters';

export const hasNul = (s: string): boolean => s.includes('\u0000');

/** z.string() for request inputs: the same, without NUL. Chain .trim(), .min(), .max() as usual. */
export const safeString = () => z.string().refine((s) => !hasNul(s), NUL_MESSAGE);

/**
 * For free-form JSON bound for jsonb: no NUL in any string or key, at any depth. Iterative: a
 * request body can nest tens of thousands of levels, where a recursive walk throws RangeError.
 */
export function nulFree(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (hasNul(v)) return false;
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (hasNul(k)) return false;
        pending.push(child);
      }
    }
  }
  return true;
}

/** Hand-read inputs (path ids, query values): the value itself, or 400 invalid_request naming it. */
export function refuseNul<T>(value: T, name: string): T {
  if (!nulFree(value)) throw new AppError('invalid_request', { message: `${name} ${NUL_MESSAGE}` });
  return value;
}

/**
 * For stored-as-received data bound for jsonb (an ingress query string): rather than refusing
 * it, each NUL is kept visible as the six characters `\u0000`, in keys and values at any depth.
 */
export function escapeNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\\u0000');
  if (Array.isArray(value)) return value.map(escapeNul);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeNul(k) as string, escapeNul(v)]));
  return value;
}
