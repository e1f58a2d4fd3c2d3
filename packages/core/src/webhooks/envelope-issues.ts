import { get, record } from './value-readers';

/**
 * The envelope frame check, and why a JSON body is not an envelope, in sentences an operator
 * can act on: they end up in the delivery's failure message ("the envelope's object is "page";
 * ..."). They name paths and JSON kinds only; the one value quoted is the `object` name, which
 * is attacker-controlled, so it is cut to a few characters and reduced to printable ASCII with
 * escapes.
 *
 * A hand-written walk rather than a schema library: it stops at the tenth issue, so a body of a
 * hundred thousand broken changes costs ten sentences, never an exception (a schema library
 * collecting every issue threw RangeError on such a body, and the ingress answered 503).
 */

const MAX_ISSUES = 10;
const MAX_OBJECT_CHARS = 40;

type Path = (string | number)[];

/**
 * The issues of a parsed body as an envelope frame: `object` one of `acceptedObjects` (the
 * first is the provider's name, any others the spec's), `entry[]` of `{id, changes[]}` with a
 * non-empty string id, each change `{field, value}` with a non-empty string field and a value
 * present. Unknown keys are fine. At most ten issues, the `object` one first; none: a frame.
 */
export function envelopeFrameIssues(data: unknown, acceptedObjects: readonly string[]): string[] {
  const body = record(data);
  if (!body) return [`the body is JSON but not an object (it is ${kindOf(data)})`];
  const issues: string[] = [];
  const add = (sentence: string): boolean => {
    if (!issues.includes(sentence)) issues.push(sentence);
    return issues.length >= MAX_ISSUES;
  };
  const object = get(body, 'object');
  if (typeof object !== 'string' || !acceptedObjects.includes(object)) add(describeObject(object, acceptedObjects));
  const entries = arrayAt(body, ['entry'], add);
  for (const [i, entry] of (entries ?? []).entries()) {
    if (issues.length >= MAX_ISSUES) break;
    if (!record(entry)) {
      if (add(`${formatPath(['entry', i])} is ${kindOf(entry)}, not an object`)) break;
      continue;
    }
    expectName(entry, ['entry', i, 'id'], add);
    const changes = arrayAt(entry, ['entry', i, 'changes'], add) ?? [];
    for (const [j, change] of changes.entries()) {
      if (issues.length >= MAX_ISSUES) break;
      const at: Path = ['entry', i, 'changes', j];
      if (!record(change)) {
        add(`${formatPath(at)} is ${kindOf(change)}, not an object`);
        continue;
      }
      expectName(change, [...at, 'field'], add);
      if (get(change, 'value') === undefined) add(`${formatPath([...at, 'value'])} is missing`);
    }
  }
  return issues.slice(0, MAX_ISSUES);
}

/** The array under the path's last key of `parent`, or null after adding why it is not one. */
function arrayAt(parent: unknown, path: Path, add: (s: string) => boolean): unknown[] | null {
  const value = get(parent, String(path[path.length - 1]));
  if (Array.isArray(value)) return value;
  add(value === undefined ? `${formatPath(path)} is missing` : `${formatPath(path)} is ${kindOf(value)}, not an array`);
  return null;
}

/** A non-empty string (an entry id, a change field). */
function expectName(parent: unknown, path: Path, add: (s: string) => boolean): void {
  const value = get(parent, String(path[path.length - 1]));
  if (value === undefined) add(`${formatPath(path)} is missing`);
  else if (typeof value !== 'string') add(`${formatPath(path)} is ${kindOf(value)}, not a string`);
  else if (value === '') add(`${formatPath(path)} is empty`);
}

function describeObject(value: unknown, accepted: readonly string[]): string {
  const [provider, ...spec] = accepted;
  const reads = `mos reads ${provider}${spec.length > 0 ? ` (and the spec's ${spec.join(', ')})` : ''} deliveries`;
  if (value === undefined) return `the envelope has no "object"; ${reads}`;
  if (typeof value !== 'string') return `the envelope's object is ${kindOf(value)}, not a name; ${reads}`;
  return `the envelope's object is ${quoteName(value)}; ${reads}`;
}

/** `entry[0].changes[1].field`: frame keys and indices only. */
function formatPath(path: Path): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${key}` : key), '');
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  return `a ${typeof v}`;
}

/** At most 40 characters, printable ASCII only: quotes, backslashes and the rest escaped. */
function quoteName(name: string): string {
  const chars = Array.from(name);
  const shown = chars.slice(0, MAX_OBJECT_CHARS).map((c) => {
    if (c === '"' || c === '\\') return `\\${c}`;
    const code = c.codePointAt(0) ?? 0;
    return code >= 0x20 && code <= 0x7e ? c : `\\u{${code.toString(16)}}`;
  });
  return `"${shown.join('')}"${chars.length > MAX_OBJECT_CHARS ? ' (truncated)' : ''}`;
}
