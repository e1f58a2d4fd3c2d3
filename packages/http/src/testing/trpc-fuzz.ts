import { z } from 'zod';
import { hostileBodies, hostileHeaders, seedOf, type HostileBody, type JsonSchema } from './hostile-input';
import type { DiscoveredProcedure } from './route-discovery';
import type { FuzzCase } from './route-fuzz';

/** The procedure's input as JSON Schema (zod's own generator), when its parser is a zod schema that has one. */
export function inputSchemaOf(proc: DiscoveredProcedure): JsonSchema | undefined {
  const [parser] = proc.inputs;
  if (!(parser instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(parser, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined;
  }
}

/** Whether the procedure's own parsers accept this input (no parser: tRPC passes any input through unread). */
export function procedureAccepts(proc: DiscoveredProcedure, value: unknown): boolean {
  return proc.inputs.every((p) => !(p instanceof z.ZodType) || p.safeParse(value).success);
}

/** JSON text in a query string, brackets left raw: a 5,000-deep input then fits Node's 16 KB header limit. */
const queryText = (json: string): string => encodeURIComponent(json).replace(/%5B/g, '[').replace(/%5D/g, ']');
const queryJson = (value: unknown): string => queryText(JSON.stringify(value));
/** A body's JSON as text: its own when it is text (re-serialising 5,000 levels could overflow the stack), else its value's. */
const jsonText = (b: HostileBody): string => (typeof b.body === 'string' ? b.body : JSON.stringify(b.parsed!.value));

/** What tRPC reads from a query string: the first `input`, decoded as URLSearchParams does, then JSON. */
function parsedQueryInput(raw: string): { value: unknown } | undefined {
  const input = new URLSearchParams(raw).get('input');
  if (input === null) return { value: undefined };
  try {
    return { value: JSON.parse(input) };
  } catch {
    return undefined;
  }
}

/**
 * Hostile calls of one procedure over HTTP, unbatched as the client sends them: a query gets
 * its input in `?input=` (malformed, undecodable, repeated, oversized, and every hostile body
 * the generator makes, as JSON), a mutation gets the hostile bodies; both get the odd headers.
 */
export function trpcCases(proc: DiscoveredProcedure, opts: { auth: Record<string, string>; bodyLimit: number; random: number }): FuzzCase[] {
  const schema = inputSchemaOf(proc);
  const seed = seedOf(proc.path);
  const target = `/trpc/${proc.path}`;
  const bodies = hostileBodies(schema, { limit: opts.bodyLimit, seed, random: opts.random });
  const cases: FuzzCase[] = [];
  if (proc.type === 'query') {
    const wrong = bodies.find((b) => b.name === 'wrong-typed fields')!.parsed!.value;
    const raws: [string, string][] = [
      ['truncated JSON', 'input=%7B%22a%22%3A'],
      ['broken percent-encoding', 'input=%zz'],
      ['a lone %', 'input=%'],
      ['non-UTF-8 bytes', 'input=%22%ff%C0%AE%22'],
      ['NUL outside a string', 'input=%00'],
      ['repeated input', `input=${queryJson(1)}&input=${queryJson('x')}`],
      ...bodies.filter((b) => b.parsed && !b.headers['content-encoding']).map((b): [string, string] => [b.name, `input=${queryText(jsonText(b))}`]),
    ];
    // tRPC reads a query's input only for a procedure that declares one: the others ignore it, however malformed.
    const unreadable = proc.inputs.length ? ({ kind: 'refuse' } as const) : ({ kind: 'ignorable' } as const);
    for (const [name, raw] of raws) {
      const parsed = parsedQueryInput(raw);
      cases.push({
        name: `input: ${name}`,
        method: 'GET',
        target: `${target}?${raw}`,
        headers: opts.auth,
        expect: parsed ? { kind: 'input', value: parsed.value } : unreadable,
      });
    }
    // The batch form reads each call's input by its index: wrong-typed fields at index 0.
    const batch = `batch=1&input=${queryJson({ 0: wrong })}`;
    cases.push({ name: 'batched wrong-typed input', method: 'GET', target: `${target}?${batch}`, headers: opts.auth, expect: { kind: 'input', value: wrong } });
    cases.push({
      name: 'input over the header limit',
      method: 'GET',
      target: `${target}?input=${'9'.repeat(20 * 1024)}`,
      headers: opts.auth,
      expect: { kind: 'parser-431' },
    });
  } else {
    for (const b of bodies) {
      cases.push({
        name: `body: ${b.name}`,
        method: 'POST',
        target,
        headers: { ...opts.auth, ...b.headers },
        body: b.body,
        // tRPC decodes no Content-Encoding: a compressed body is refused whatever it holds.
        expect: b.parsed && !b.headers['content-encoding'] ? { kind: 'input', value: b.parsed.value } : { kind: 'refuse' },
      });
    }
  }
  const plain: FuzzCase =
    proc.type === 'query'
      ? { name: '', method: 'GET', target, headers: opts.auth, expect: { kind: 'ignorable' } }
      : { name: '', method: 'POST', target, headers: { ...opts.auth, 'content-type': 'application/json' }, body: '{}', expect: { kind: 'ignorable' } };
  for (const h of hostileHeaders(seed)) {
    cases.push({
      ...plain,
      name: `headers: ${h.name}`,
      headers: { ...plain.headers, ...h.headers },
      expect: h.overParserLimit ? { kind: 'parser-431' } : { kind: 'ignorable' },
    });
  }
  return cases;
}

/** The plain call the header cases vary: no input for a query, `{}` for a mutation. */
export function trpcBaseline(proc: DiscoveredProcedure, auth: Record<string, string>): FuzzCase {
  return proc.type === 'query'
    ? { name: 'baseline', method: 'GET', target: `/trpc/${proc.path}`, headers: auth, expect: { kind: 'input', value: undefined } }
    : {
        name: 'baseline',
        method: 'POST',
        target: `/trpc/${proc.path}`,
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
        expect: { kind: 'input', value: {} },
      };
}

/** Calls of procedures that do not exist, spelled badly: the router answers in tRPC's envelope too. */
export function trpcPathCases(auth: Record<string, string>): FuzzCase[] {
  return ['%E0%A4%A', '%zz', 'no.such%00procedure', `${'a.'.repeat(2000)}b`, '%ff%fe', '..%2F..%2Fapi%2Fme'].map((p) => ({
    name: `procedure path ${p.slice(0, 40)}`,
    method: 'GET',
    target: `/trpc/${p}`,
    headers: auth,
    expect: { kind: 'refuse' },
  }));
}
