import { refuseNul } from '@mos/core';

/**
 * A path parameter as one string (Express 5 types admit arrays for wildcard routes). Ids are
 * opaque, so an absurd one is bounded and then simply not found; a NUL is a 400.
 */
export function pathParam(v: unknown): string {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? refuseNul(s, 'path parameter').slice(0, 256) : '';
}
