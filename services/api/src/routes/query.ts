import { AppError } from '@mos/core';

/** An optional enum query parameter; anything else is 400 invalid_query naming it. */
export function enumParam<T extends string>(raw: unknown, name: string, values: readonly T[]): T | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
  throw new AppError('invalid_query', { message: `${name} must be one of: ${values.join(', ')}` });
}

/** Path ids are opaque; an absurd one is simply not found, so only bound its length. */
export function pathId(raw: unknown): string {
  return typeof raw === 'string' ? raw.slice(0, 64) : '';
}
