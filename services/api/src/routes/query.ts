import { AppError, refuseNul } from '@mos/core';

/** An optional enum query parameter; anything else is 400 invalid_query naming it. */
export function enumParam<T extends string>(raw: unknown, name: string, values: readonly T[]): T | undefined {
  refuseNul(raw, name);
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
  throw new AppError('invalid_query', { message: `${name} must be one of: ${values.join(', ')}` });
}
