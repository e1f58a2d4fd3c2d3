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

/** For free-form JSON bound for jsonb: no NUL in any string or key, at any depth. */
export function nulFree(value: unknown): boolean {
  if (typeof value === 'string') return !hasNul(value);
  if (Array.isArray(value)) return value.every(nulFree);
  if (value && typeof value === 'object') return Object.entries(value).every(([k, v]) => !hasNul(k) && nulFree(v));
  return true;
}

/** Hand-read inputs (path ids, query values): the value itself, or 400 invalid_request naming it. */
export function refuseNul<T>(value: T, name: string): T {
  if (!nulFree(value)) throw new AppError('invalid_request', { message: `${name} ${NUL_MESSAGE}` });
  return value;
}
