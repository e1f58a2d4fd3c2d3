import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/**
 * Hostile pieces of a request (path ids, bodies, query strings, headers), generated per route
 * from whatever schema the surface documents and seeded by the route's name, so a failure
 * replays exactly. Each piece says what the server sees when it is well-formed (`parsed`), so
 * a test can ask the route's own schema whether accepting it would be legitimate; a piece
 * without `parsed` is malformed on the wire and must be refused whatever the route does.
 */

/** The subset of JSON Schema these generators read (OpenAPI 3.1 and zod's z.toJSONSchema). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

export interface HostileBody {
  name: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** The JSON value the server would parse from these bytes; absent when they are not well-formed UTF-8 JSON. */
  parsed?: { value: unknown };
}

export interface HostileSegment {
  name: string;
  /** As sent on the wire (percent-encoding included). */
  raw: string;
}

export interface HostileQuery {
  name: string;
  /** The query string as sent, without the `?`. */
  raw: string;
  /** The declared parameter it aims at, when there is one. */
  param?: string;
  /** A well-formed value of the wrong type (or a NUL) for that parameter: refusing it is the route's job. */
  wrongForParam?: boolean;
}

export interface HostileHeaders {
  name: string;
  headers: Record<string, string>;
  /** Past Node's 16 KB header limit: the HTTP parser answers 431 before the app sees the request. */
  overParserLimit?: boolean;
}

export const NESTING_DEPTH = 5_000;
const JSON_TYPE = { 'content-type': 'application/json' };

/** A stable 32-bit seed per route, so each route gets its own but repeatable random cases. */
export function seedOf(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** A value of a type the schema does not allow (or undefined when any type would do). */
export function wrongTyped(s: JsonSchema): unknown {
  if (s.enum || s.const !== undefined) return 'not-a-member-\u00e9';
  const types = typesOf(s);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const all = branches.flatMap(typesOf);
    if (branches.some((b) => b.enum || b.const !== undefined) && !all.includes('string')) return 'not-a-member';
    if (all.length === 0) return undefined;
    return candidates.find((c) => !all.some((t) => matches(t, c)));
  }
  if (types.length === 0) return undefined;
  return candidates.find((c) => !types.some((t) => matches(t, c)));
}

const candidates: unknown[] = [12345, 'a string where a number goes', ['an', 'array'], { an: 'object' }, true];

function matches(type: string, v: unknown): boolean {
  if (type === 'integer') return Number.isInteger(v);
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
  if (type === 'null') return v === null;
  return typeof v === type;
}

const propertiesOf = (s: JsonSchema | undefined): [string, JsonSchema][] =>
  s ? [...Object.entries(s.properties ?? {}), ...[...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].flatMap(propertiesOf)] : [];

/** Top-level fields to aim at: the schema's own (each branch's, for a union), or one neutral name when it declares none. */
export const fieldsOf = (s: JsonSchema | undefined): [string, JsonSchema][] => {
  const props = [...new Map(propertiesOf(s)).entries()];
  return props.length ? props : [['fuzz', {}]];
};

const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

function json(name: string, value: unknown): HostileBody {
  return { name, headers: JSON_TYPE, body: JSON.stringify(value), parsed: { value } };
}

/** What a UTF-8 JSON parser makes of these bytes (invalid sequences become U+FFFD), if anything. */
function parsedBytes(bytes: Uint8Array): HostileBody['parsed'] {
  try {
    return { value: JSON.parse(Buffer.from(bytes).toString('utf8')) };
  } catch {
    return undefined;
  }
}

/**
 * Hostile bodies for a route whose input has this schema: malformed and truncated JSON, arrays
 * and scalars for objects, wrong-typed fields, NULs in values and keys, 5,000-deep nesting,
 * invalid UTF-8, UTF-16, wrong media types, corrupt and valid gzip, a body over `limit`, and
 * `random` seeded random JSON values and byte strings.
 */
export function hostileBodies(schema: JsonSchema | undefined, opts: { limit: number; seed: number; random: number }): HostileBody[] {
  const fields = fieldsOf(schema);
  const wrong = Object.fromEntries(fields.map(([k, s]) => [k, wrongTyped(s) ?? ['unexpected']]));
  const withNul = { ...Object.fromEntries(fields.map(([k]) => [k, 'a\u0000b'])), ['k\u0000ey']: 'v' };
  const first = fields[0]![0];
  const nonUtf8 = Buffer.concat([Buffer.from(`{"${first}":"`), Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify({ [first]: 'x' }), 'utf16le')]);
  const deepBody = `{"${first}":${deep(NESTING_DEPTH)}}`;
  const bodies: HostileBody[] = [
    { name: 'truncated JSON', headers: JSON_TYPE, body: `{"${first}": "` },
    { name: 'JSON with trailing garbage', headers: JSON_TYPE, body: '{} }{' },
    json('a JSON array', [wrong]),
    json('a JSON scalar', [42, 'text', null, true][opts.seed % 4]),
    json('wrong-typed fields', wrong),
    json('NUL in every string and a key', withNul),
    { name: `${NESTING_DEPTH}-deep nesting`, headers: JSON_TYPE, body: deepBody, parsed: { value: JSON.parse(deepBody) } },
    { name: 'invalid UTF-8 bytes', headers: JSON_TYPE, body: nonUtf8, parsed: parsedBytes(nonUtf8) },
    { name: 'UTF-16 bytes labelled JSON', headers: JSON_TYPE, body: utf16, parsed: parsedBytes(utf16) },
    { name: 'UTF-16 charset', headers: { 'content-type': 'application/json; charset=utf-16' }, body: utf16 },
    { name: 'text/plain', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(wrong) },
    { name: 'form-encoded', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `${first}=1&${first}=2` },
    // Lenient parsers read this as plain JSON; what matters is that the body is then judged as such.
    { name: 'media type with a broken parameter', headers: { 'content-type': 'application/json; charset' }, body: '{}', parsed: { value: {} } },
    { name: 'corrupt gzip', headers: { ...JSON_TYPE, 'content-encoding': 'gzip' }, body: Buffer.from('\x1f\x8bnot deflate at all') },
    { name: 'unknown content-encoding', headers: { ...JSON_TYPE, 'content-encoding': 'br, x-fuzz' }, body: JSON.stringify(wrong) },
    {
      name: 'gzip of wrong-typed fields',
      headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(wrong)),
      parsed: { value: wrong },
    },
    { name: `over the ${opts.limit}-byte limit`, headers: JSON_TYPE, body: JSON.stringify({ [first]: 'x'.repeat(opts.limit) }) },
  ];
  const values = fc.sample(fc.jsonValue({ maxDepth: 4 }), { seed: opts.seed, numRuns: opts.random });
  values.forEach((v, i) => bodies.push(json(`random JSON #${i}`, v)));
  const bytes = fc.sample(fc.uint8Array({ maxLength: 64 }), { seed: opts.seed + 1, numRuns: opts.random });
  bytes.forEach((b, i) => bodies.push({ name: `random bytes #${i}`, headers: JSON_TYPE, body: b, parsed: parsedBytes(b) }));
  return bodies;
}

/** Path ids no store holds, each odd in its own way: broken and overlong percent-encoding, NUL, 10 KB, unicode, dot segments. */
export function hostileSegments(): HostileSegment[] {
  return [
    { name: 'broken percent-encoding %zz', raw: 'id%zz' },
    { name: 'a lone %', raw: '%' },
    { name: 'truncated UTF-8 escape', raw: '%E0%A4%A' },
    { name: 'NUL', raw: 'id%00x' },
    { name: 'overlong UTF-8 for "."', raw: '%C0%AE%C0%AE' },
    { name: 'non-UTF-8 byte', raw: '%ff%fe' },
    { name: '10 KB id', raw: 'i'.repeat(10 * 1024) },
    { name: 'unicode id', raw: encodeURIComponent('ид-\u{1F4A9}-\u202e-\ufeff') },
    { name: 'encoded dot segments', raw: '..%2F..%2Fetc%2Fpasswd' },
    { name: 'encoded slash and query', raw: 'a%2Fb%3Fc%23d' },
  ];
}

/** Query strings aimed at the declared parameters (or a few usual names), plus odd ones aimed at none. */
export function hostileQueries(params: { name: string; schema?: JsonSchema }[]): HostileQuery[] {
  const aimed: { name: string; schema?: JsonSchema }[] = params.length ? params : [{ name: 'limit' }];
  const out: HostileQuery[] = [
    { name: 'broken percent-encoding in a key', raw: '%zz=1&%=2' },
    { name: 'a 10 KB key', raw: `${'k'.repeat(10 * 1024)}=1` },
    { name: 'bracketed keys', raw: 'a[b][c]=1&a[]=2&__proto__[x]=1&constructor[prototype][y]=1' },
  ];
  for (const { name, schema } of aimed) {
    const p = encodeURIComponent(name);
    const wrong = schema ? wrongTyped(schema) : undefined;
    // Only a declared parameter is the route's to refuse; a guessed name may simply be ignored.
    const declared = schema !== undefined;
    const scalar = typesOf(schema ?? {}).some((t) => t === 'integer' || t === 'number' || t === 'boolean') || Boolean(schema?.enum);
    out.push(
      { name: `${name}: broken percent-encoding`, raw: `${p}=%zz%E0%A4%A%`, param: name, wrongForParam: scalar },
      { name: `${name}: NUL`, raw: `${p}=1%00`, param: name, wrongForParam: declared },
      { name: `${name}: non-UTF-8 bytes`, raw: `${p}=%ff%C0%AE`, param: name, wrongForParam: scalar },
      { name: `${name}: repeated`, raw: `${p}=1&${p}=2&${p}=x`, param: name, wrongForParam: declared && !typesOf(schema!).includes('array') },
      { name: `${name}: 10 KB value`, raw: `${p}=${'9'.repeat(10 * 1024)}`, param: name, wrongForParam: scalar },
      { name: `${name}: huge and negative numbers`, raw: `${p}=-1e309`, param: name, wrongForParam: scalar },
    );
    if (typeof wrong === 'string') out.push({ name: `${name}: wrong type`, raw: `${p}=${encodeURIComponent(wrong)}`, param: name, wrongForParam: true });
  }
  return out;
}

/**
 * Odd but sendable headers (fetch refuses NUL and non-Latin-1 in headers, so those cannot be
 * sent). Headers are read by middleware shared by every route, so a route gets `perRoute` of
 * them, chosen by its seed: across the routes every one is sent many times.
 */
export function hostileHeaders(seed: number, perRoute = 2): HostileHeaders[] {
  const all: HostileHeaders[] = [
    { name: 'a 12 KB header', headers: { 'x-fuzz': 'h'.repeat(12 * 1024) } },
    { name: 'a hostile request id', headers: { 'x-request-id': `../../${'r'.repeat(300)}\t<script>` } },
    { name: 'malformed cookies', headers: { cookie: 'mos_session=%E0%A4%A; =; ;;; a=%zz' } },
    { name: 'odd accept headers', headers: { accept: 'text/html;q=nope, */*;;', 'accept-encoding': 'x-fuzz;q=2', 'accept-language': '\u00ff'.repeat(50) } },
    { name: 'a 20 KB header', headers: { 'x-fuzz': 'h'.repeat(20 * 1024) }, overParserLimit: true },
  ];
  return Array.from({ length: Math.min(perRoute, all.length) }, (_, i) => all[(seed + i) % all.length]!);
}
