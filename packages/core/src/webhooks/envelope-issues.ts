/**
 * Why a JSON body is not an envelope, in sentences an operator can act on: they end up in
 * the delivery's failure message ("the envelope's object is "page"; ..."). They name paths and
 * JSON kinds only; the one value quoted is the `object` name, which is attacker-controlled,
 * so it is cut to a few characters and reduced to printable ASCII with escapes.
 */

const ACCEPTED = 'mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries';
const MAX_ISSUES = 10;
const MAX_OBJECT_CHARS = 40;

/** The structural part of a zod issue this needs. */
export interface EnvelopeIssue {
  code: string;
  path: PropertyKey[];
  expected?: unknown;
}

export function describeEnvelopeIssues(data: unknown, issues: readonly EnvelopeIssue[]): string[] {
  if (!isRecord(data)) return [`the body is JSON but not an object (it is ${kindOf(data)})`];
  const out: string[] = [];
  const sorted = [...issues].sort((a, b) => Number(a.path[0] !== 'object') - Number(b.path[0] !== 'object'));
  for (const issue of sorted) {
    const sentence = issue.path[0] === 'object' && issue.path.length === 1 ? describeObject(data.object) : describePath(data, issue);
    if (!out.includes(sentence)) out.push(sentence);
    if (out.length === MAX_ISSUES) break;
  }
  return out;
}

function describeObject(value: unknown): string {
  if (value === undefined) return `the envelope has no "object"; ${ACCEPTED}`;
  if (typeof value !== 'string') return `the envelope's object is ${kindOf(value)}, not a name; ${ACCEPTED}`;
  return `the envelope's object is ${quoteName(value)}; ${ACCEPTED}`;
}

function describePath(data: Record<string, unknown>, issue: EnvelopeIssue): string {
  const where = formatPath(issue.path);
  const value = valueAt(data, issue.path);
  if (value === undefined) return `${where} is missing`;
  if (issue.code === 'too_small') return `${where} is empty`;
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string') return `${where} is ${kindOf(value)}, not ${article(issue.expected)}`;
  return `${where} is not readable`;
}

/** `entry[0].changes[1].field`: schema keys and indices only. */
function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '') || 'the body';
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let current: unknown = data;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  return `a ${typeof v}`;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** At most 40 characters, printable ASCII only: quotes, backslashes and the rest escaped. */
export function quoteName(name: string): string {
  const chars = Array.from(name);
  const shown = chars.slice(0, MAX_OBJECT_CHARS).map((c) => {
    if (c === '"' || c === '\\') return `\\${c}`;
    const code = c.codePointAt(0) ?? 0;
    return code >= 0x20 && code <= 0x7e ? c : `\\u{${code.toString(16)}}`;
  });
  return `"${shown.join('')}"${chars.length > MAX_OBJECT_CHARS ? ' (truncated)' : ''}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
