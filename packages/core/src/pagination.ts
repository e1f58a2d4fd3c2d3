import { AppError } from './errors';
import { refuseNul } from './text';

export interface IntParamRule {
  name: string;
  default: number;
  min: number;
  max?: number;
}

/**
 * Parses one integer query parameter. Anything that is not a plain integer inside
 * [min, max] is a 400 invalid_query naming the parameter: silently clamping would hide
 * client bugs.
 */
export function parseIntParam(raw: unknown, rule: IntParamRule): number {
  refuseNul(raw, rule.name);
  if (raw === undefined || raw === '') return rule.default;
  const text = Array.isArray(raw) ? undefined : String(raw);
  const range = rule.max === undefined ? `>= ${rule.min}` : `between ${rule.min} and ${rule.max}`;
  if (text === undefined || !/^-?\d+$/.test(text)) {
    throw new AppError('invalid_query', { message: `${rule.name} must be an integer ${range}` });
  }
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < rule.min || (rule.max !== undefined && n > rule.max)) {
    throw new AppError('invalid_query', { message: `${rule.name} must be an integer ${range}` });
  }
  return n;
}

/** An optional enum query parameter; anything else is 400 invalid_query naming it. */
export function enumParam<T extends string>(raw: unknown, name: string, values: readonly T[]): T | undefined {
  refuseNul(raw, name);
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as T;
  throw new AppError('invalid_query', { message: `${name} must be one of: ${values.join(', ')}` });
}

export const LIMITS = {
  contacts: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  templates: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  webhookEvents: { limit: { name: 'limit', default: 25, min: 1, max: 100 } },
  auditLogs: { limit: { name: 'limit', default: 25, min: 1, max: 100 } },
  webhooks: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  webhookRejections: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  accountEvents: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
} as const satisfies Record<string, Record<string, IntParamRule>>;
