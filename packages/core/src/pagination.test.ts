import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { LIMITS, pageQuery, pageSchema, type IntParamRule, type PageRules } from './pagination';

const lists = Object.entries(LIMITS) as [keyof typeof LIMITS, PageRules][];
const rulesOf = (page: PageRules) => Object.entries(page) as [string, IntParamRule][];

/** What a surface answers for one raw value: the page, or the AppError's code and message. */
function fromQuery(page: PageRules, query: Record<string, unknown>) {
  try {
    return { page: pageQuery(query, page) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { error: err.code, message: err.message };
  }
}

describe('page schemas from LIMITS', () => {
  it.each(lists)('%s: absent parameters are the defaults on both surfaces', (_list, page) => {
    const defaults = Object.fromEntries(rulesOf(page).map(([key, rule]) => [key, rule.default]));
    expect(pageSchema(page).parse({})).toEqual(defaults);
    expect(pageQuery({}, page)).toEqual(defaults);
    expect(pageQuery(Object.fromEntries(rulesOf(page).map(([key]) => [key, ''])), page)).toEqual(defaults);
  });

  // The typed schema (tRPC) and the query-string reader (REST, CLI) accept exactly the same values.
  it.each(lists)('%s: schema and query string agree at every bound', (_list, page) => {
    for (const [key, rule] of rulesOf(page)) {
      const edges = [rule.min - 1, rule.min, rule.min + 1, ...(rule.max === undefined ? [Number.MAX_SAFE_INTEGER] : [rule.max - 1, rule.max, rule.max + 1])];
      for (const n of edges) {
        const inRange = n >= rule.min && (rule.max === undefined || n <= rule.max);
        expect(pageSchema(page).safeParse({ [key]: n }).success, `${key}=${n}`).toBe(inRange);
        expect('page' in fromQuery(page, { [key]: String(n) }), `${key}=${n}`).toBe(inRange);
      }
      expect(pageSchema(page).safeParse({ [key]: rule.min + 0.5 }).success).toBe(false);
      expect(pageSchema(page).safeParse({ [key]: String(rule.default) }).success).toBe(false);
    }
  });

  it('keeps the REST 400 bodies: invalid_query naming the parameter and its range', () => {
    const bad = { error: 'invalid_query', message: 'limit must be an integer between 1 and 200' };
    for (const raw of ['0', '201', '1.5', 'abc', '1e2', ' 5', '9007199254740993', ['5', '6']]) {
      expect(fromQuery(LIMITS.webhooks, { limit: raw }), JSON.stringify(raw)).toEqual(bad);
    }
    expect(fromQuery(LIMITS.auditLogs, { limit: '101' })).toEqual({ error: 'invalid_query', message: 'limit must be an integer between 1 and 100' });
    expect(fromQuery(LIMITS.contacts, { offset: '-1' })).toEqual({ error: 'invalid_query', message: 'offset must be an integer >= 0' });
    expect(fromQuery(LIMITS.contacts, { limit: '5\u0000' })).toEqual({ error: 'invalid_request', message: 'limit must not contain NUL characters' });
  });

  it('checks limit before offset, and reads only the parameters a list pages by', () => {
    expect(fromQuery(LIMITS.webhookRejections, { limit: '0', offset: '-1' })).toMatchObject({ message: expect.stringMatching(/^limit /) });
    expect(pageQuery({ limit: '7', offset: 'junk', topic: 'x' }, LIMITS.webhookDeliveries)).toEqual({ limit: 7 });
    expect(pageSchema(LIMITS.auditLogs).parse({ limit: 3, offset: 9 })).toEqual({ limit: 3 });
    expect(pageQuery({ limit: '200', offset: '40' }, LIMITS.syncedTemplates)).toEqual({ limit: 200, offset: 40 });
  });

  it('names each parameter after its key, so a query string and a typed input use the same words', () => {
    for (const [, page] of lists) for (const [key, rule] of rulesOf(page)) expect(rule.name).toBe(key);
  });
});
