import { hostileBodies, hostileHeaders, hostileQueries, hostileSegments, seedOf, type JsonSchema } from './hostile-input';
import { leaksIn, type FuzzAnswer } from './answer-shape';

/**
 * What a hostile request is allowed to get back besides a 4xx:
 * - `refuse`: nothing (malformed on the wire, an id no store holds, a wrong-typed declared parameter);
 * - `input`: a 2xx exactly when the route's own schema accepts `value` (what the server parsed);
 * - `ignorable`: a 2xx exactly when the route answers its plain baseline request with one (an
 *   oddity a route may ignore, like an unknown header);
 * - `parser-431`: Node's own 431 (the request never reaches the app, so no body of ours).
 */
export type Expectation = { kind: 'refuse' } | { kind: 'input'; value: unknown } | { kind: 'ignorable' } | { kind: 'parser-431' };

export interface FuzzCase {
  name: string;
  method: string;
  /** Path and query as sent (percent-encoding included). */
  target: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  expect: Expectation;
}

export interface FuzzRoute {
  method: string;
  /** Express pattern (`/api/templates/:id`). */
  path: string;
  /** The body's schema, when the surface documents one. */
  bodySchema?: JsonSchema;
  /** Declared query parameters, when the surface documents them. */
  queryParams?: { name: string; schema?: JsonSchema }[];
}

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** An id no store holds, so a route that ignored the rest of a hostile request still answers 404. */
export const absentId = (seed: number): string => `fz${seed.toString(36)}`;

/** The route's path with its `which`-th parameter (all when omitted) set to `segment` (raw, as sent), the others to `rest`. */
export function fillPath(pattern: string, segment: string, which?: number, rest = segment): string {
  let i = 0;
  return pattern.replace(/[:*]\w+/g, () => (which === undefined || i++ === which ? segment : rest));
}

/** The plain request every case is a variation of: absent ids, no query, and `{}` for a body. */
export function baselineCase(route: FuzzRoute, auth: Record<string, string>): FuzzCase {
  const seed = seedOf(`${route.method} ${route.path}`);
  const body = BODY_METHODS.has(route.method) ? '{}' : undefined;
  return {
    name: 'baseline',
    method: route.method.toUpperCase(),
    target: fillPath(route.path, absentId(seed)),
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body } : {}),
    expect: { kind: 'input', value: {} },
  };
}

/**
 * The hostile requests for one route: each path parameter odd in turn (routes with
 * parameters), hostile query strings, bodies (methods that carry one) and headers. `random`
 * seeded random bodies join the fixed ones; `bodyLimit` is a size above the route's limit.
 */
export function restCases(route: FuzzRoute, opts: { auth: Record<string, string>; bodyLimit: number; random: number }): FuzzCase[] {
  const seed = seedOf(`${route.method} ${route.path}`);
  const base = baselineCase(route, opts.auth);
  const method = base.method;
  const cases: FuzzCase[] = [];
  const params = route.path.match(/[:*]\w+/g)?.length ?? 0;
  if (params) {
    // Each parameter odd in turn, the others absent ids: a route with several still gets every kind.
    hostileSegments().forEach((s, i) =>
      cases.push({ ...base, name: `path id: ${s.name}`, target: fillPath(route.path, s.raw, i % params, absentId(seed)), expect: { kind: 'refuse' } }),
    );
  }
  for (const q of hostileQueries(route.queryParams ?? [])) {
    cases.push({ ...base, name: `query: ${q.name}`, target: `${base.target}?${q.raw}`, expect: q.wrongForParam ? { kind: 'refuse' } : { kind: 'ignorable' } });
  }
  if (BODY_METHODS.has(route.method)) {
    for (const b of hostileBodies(route.bodySchema, { limit: opts.bodyLimit, seed, random: opts.random })) {
      cases.push({
        name: `body: ${b.name}`,
        method,
        target: base.target,
        headers: { ...opts.auth, ...b.headers },
        body: b.body,
        expect: b.parsed ? { kind: 'input', value: b.parsed.value } : { kind: 'refuse' },
      });
    }
  }
  for (const h of hostileHeaders(seed)) {
    cases.push({
      ...base,
      name: `headers: ${h.name}`,
      headers: { ...base.headers, ...h.headers },
      expect: h.overParserLimit ? { kind: 'parser-431' } : { kind: 'ignorable' },
    });
  }
  return cases;
}

/** Sends one case; a connection the server closed without an answer reads as status 0. */
export async function sendCase(base: string, c: FuzzCase): Promise<FuzzAnswer> {
  try {
    const res = await fetch(`${base}${c.target}`, { method: c.method, headers: c.headers, body: c.body, redirect: 'manual' });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, text, json };
  } catch (err) {
    return { status: 0, text: String((err as { cause?: unknown }).cause ?? err) };
  }
}

/**
 * What is wrong with this answer to this case, if anything: a status the case does not allow
 * (any 5xx, a 2xx the expectation does not grant), leaked internals, or a body not in the
 * surface's error shape (`shape` returns the problem).
 */
export function judge(
  c: FuzzCase,
  answer: FuzzAnswer,
  opts: { accepts: (value: unknown) => boolean; baselineAccepted: boolean; shape: (a: FuzzAnswer) => string | undefined },
): string | undefined {
  const { status } = answer;
  if (c.expect.kind === 'parser-431') return status === 431 ? undefined : `expected Node's 431, got ${status}`;
  const ok = status >= 200 && status < 300;
  if (ok) {
    const allowed = c.expect.kind === 'input' ? opts.accepts(c.expect.value) : c.expect.kind === 'ignorable' ? opts.baselineAccepted : false;
    return allowed ? undefined : `accepted with ${status}`;
  }
  if (status < 400 || status > 499) return `answered ${status}${answer.text ? `: ${answer.text.slice(0, 200)}` : ''}`;
  const leaks = leaksIn(answer.text);
  if (leaks.length) return `${status} leaks ${leaks.join(', ')}: ${answer.text.slice(0, 300)}`;
  const problem = opts.shape(answer);
  return problem ? `${status} ${problem}: ${answer.text.slice(0, 200)}` : undefined;
}

/** Runs `fn` over `items` in `lanes` concurrent lanes, each taking the next item when it is free; `fn` learns its lane. */
export async function eachInLanes<T>(items: readonly T[], lanes: number, fn: (item: T, lane: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (i: number) => {
    while (next < items.length) await fn(items[next++]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, (_, i) => lane(i)));
}

/**
 * For callers fuzzing one workspace: reads (GET) run `concurrency` at a time beside the writes,
 * which run one after another, so a write's before/after row counts see no other write.
 */
export async function fuzzRoutes<R extends { method: string }>(routes: readonly R[], concurrency: number, fn: (route: R) => Promise<void>): Promise<void> {
  const reads = routes.filter((r) => r.method === 'get');
  const writes = routes.filter((r) => r.method !== 'get');
  await Promise.all([eachInLanes(reads, concurrency, fn), eachInLanes(writes, 1, fn)]);
}
