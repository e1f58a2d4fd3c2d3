import { z } from 'zod';
import { AppError } from './errors';
import { refuseNul } from './text';

export interface IntParamRule {
  name: string;
  default: number;
  min: number;
  max?: number;
}

/** The integer parameters of one list: `limit`, and `offset` where the list pages by offset. */
export interface PageRules {
  limit: IntParamRule;
  offset?: IntParamRule;
}

/**
 * Parses one integer query parameter. Anything that is not a plain integer inside
 * [min, max] is a 400 invalid_query naming the parameter: silently clamping would hide
 * client bugs.
 */
export function parseIntParam(raw: unknown, rule: IntParamRule): number {
  refuseNul(raw, rule.name);
  if (raw === undefined || raw === '') return rule.default;
  // Only scalars have a decimal text: String() of an object without a prototype throws, and of any other object says nothing.
  const text = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'bigint' ? String(raw) : undefined;
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

/**
 * The page bounds of every list, one entry per list, named after it. The only place a bound
 * is written: tRPC inputs take `pageSchema(LIMITS.x)`, REST query strings and CLI flags
 * `pageQuery(query, LIMITS.x)`.
 */
export const LIMITS = {
  /** GET /internal/contacts (offset pages); tRPC contacts.list takes the same limit over keyset pages. */
  contacts: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  /** GET /internal/templates, tRPC syncedTemplates.list. */
  syncedTemplates: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  /** GET /internal/webhooks, tRPC webhooks.list (stored deliveries, evt_). */
  webhooks: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  /** GET /internal/webhook-events, tRPC webhookDeliveries.list (normalized deliveries, del_). */
  webhookDeliveries: { limit: { name: 'limit', default: 25, min: 1, max: 100 } },
  /** GET /internal/webhook-rejections, tRPC webhookRejections.list. */
  webhookRejections: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  /** GET /internal/audit-logs, tRPC auditLogs.list. */
  auditLogs: { limit: { name: 'limit', default: 25, min: 1, max: 100 } },
  /** GET /internal/account-events, tRPC account.events, `mos account events`. */
  accountEvents: { limit: { name: 'limit', default: 50, min: 1, max: 200 }, offset: { name: 'offset', default: 0, min: 0 } },
  /** Runs of one inbound webhook (keyset pages by id), tRPC inboundWebhooks.runs, GET /api/inbound-webhooks/{id}/runs. */
  inboundWebhookRuns: { limit: { name: 'limit', default: 50, min: 1, max: 200 } },
  /** Runs of one journey (keyset pages by id), tRPC journeys.runs, `mos journeys runs`. */
  journeyRuns: { limit: { name: 'limit', default: 50, min: 1, max: 200 } },
} as const satisfies Record<string, PageRules>;

/** One integer input with a rule's bounds and default (absent means the default). */
function intSchema(rule: IntParamRule) {
  const int = z.number().int().min(rule.min);
  return (rule.max === undefined ? int : int.max(rule.max)).default(rule.default);
}

/** A validated page: one number per parameter of the list's rules. */
export type Page<P extends PageRules> = { -readonly [K in keyof P]: number };
type PageShape<P extends PageRules> = { -readonly [K in keyof P]: ReturnType<typeof intSchema> };

const rulesOf = (rules: PageRules) => Object.entries(rules) as [string, IntParamRule][];

/**
 * The zod schema of a list's page for typed inputs (tRPC, service functions): the same
 * bounds and defaults as `pageQuery`. Spread its `.shape` into a list's input with filters.
 */
export function pageSchema<P extends PageRules>(rules: P): z.ZodObject<PageShape<P>> {
  const shape = Object.fromEntries(rulesOf(rules).map(([key, rule]) => [key, intSchema(rule)]));
  return z.object(shape) as unknown as z.ZodObject<PageShape<P>>;
}

/**
 * The same page read from strings (a REST query string, CLI flags): each bad value is 400
 * invalid_query naming it (`limit must be an integer between 1 and 200`), a NUL 400
 * invalid_request; absent or empty means the default. Parameters are checked in the rules'
 * order; keys the list does not page by are ignored.
 */
export function pageQuery<P extends PageRules>(query: Readonly<Record<string, unknown>>, rules: P): Page<P> {
  return Object.fromEntries(rulesOf(rules).map(([key, rule]) => [key, parseIntParam(query[rule.name], rule)])) as Page<P>;
}
