import { isWellFormedText } from './storable-text';

/**
 * Mapping expressions: parsing them once when a mapping is saved or loaded, and reading a
 * compiled path from a payload. Kept apart from the target rules (mapping.ts) because the
 * security property lives here: a path can only ever reach the payload's own data.
 */

export type CompiledExpression = { kind: 'path'; segments: (string | number)[]; source: string } | { kind: 'literal'; value: string; source: string };

export const MAX_EXPRESSION_LENGTH = 1024;
export const MAX_PATH_SEGMENTS = 32;

/** Names that reach an object's prototype machinery rather than its data: refused in targets and paths alike. */
export const FORBIDDEN_NAMES = ['__proto__', 'prototype', 'constructor'] as const;

const NAME_RE = /^[A-Za-z0-9_\-$]+$/;
// Canonical array index: no leading zeros (so `01` stays a key name), below 10^9.
const INDEX_RE = /^(?:0|[1-9]\d{0,8})$/;
const PATH_TOKEN_RE = /\[([^\]]*)\]|\.?([^.[\]]*)/y;

export type CompileResult = { ok: true; expression: CompiledExpression } | { ok: false; reason: string };

const bad = (reason: string): CompileResult => ({ ok: false, reason });

/**
 * `a.b.0.c`, `a.b[0].c`, `[0].a` (a payload that is an array). A dot segment that is a
 * canonical number is an index (read as the key of that name on an object); bracket content
 * must be one.
 */
export function parsePath(path: string): { ok: true; segments: (string | number)[] } | { ok: false; reason: string } {
  if (path === '') return { ok: false, reason: 'the path is empty' };
  const segments: (string | number)[] = [];
  PATH_TOKEN_RE.lastIndex = 0;
  let first = true;
  while (PATH_TOKEN_RE.lastIndex < path.length) {
    const start = PATH_TOKEN_RE.lastIndex;
    const m = PATH_TOKEN_RE.exec(path);
    if (!m || PATH_TOKEN_RE.lastIndex === start) return { ok: false, reason: 'the path is not dot-separated names and [index] brackets' };
    if (m[1] !== undefined) {
      if (!INDEX_RE.test(m[1])) return { ok: false, reason: 'a [bracket] must hold an array index' };
      segments.push(Number(m[1]));
    } else {
      const name = m[2] ?? '';
      // A dot is required between segments and forbidden before the first one.
      if (first === m[0].startsWith('.')) return { ok: false, reason: 'the path has a misplaced dot' };
      if (!NAME_RE.test(name)) return { ok: false, reason: 'a path segment must be letters, digits, _, - or $' };
      if ((FORBIDDEN_NAMES as readonly string[]).includes(name)) return { ok: false, reason: `the path segment ${name} is not allowed` };
      segments.push(INDEX_RE.test(name) ? Number(name) : name);
    }
    first = false;
    if (segments.length > MAX_PATH_SEGMENTS) return { ok: false, reason: `a path has at most ${MAX_PATH_SEGMENTS} segments` };
  }
  return { ok: true, segments };
}

/** A `json:` value as the text it stands for: a string, a finite number or a boolean. */
function jsonScalar(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed === 'string') return parsed;
  if (typeof parsed === 'boolean') return String(parsed);
  if (typeof parsed === 'number' && Number.isFinite(parsed)) return String(parsed);
  return null;
}

/**
 * `path:<path>`, `literal:<text>`, `json:<JSON scalar>`, or a bare legacy dot path. `json:` is
 * parsed here, once, and becomes a literal: processing never parses configuration again.
 * Reasons name the rule, never the expression's text (a literal may be anything).
 */
export function compileExpression(expression: unknown): CompileResult {
  if (typeof expression !== 'string') return bad('an expression must be a string');
  if (expression.length > MAX_EXPRESSION_LENGTH) return bad(`an expression has at most ${MAX_EXPRESSION_LENGTH} characters`);
  // Configuration lands in jsonb, which cannot hold NUL or an unpaired surrogate; nor could such a literal be sent.
  if (!isWellFormedText(expression)) return bad('an expression must not contain NUL characters or unpaired surrogates');
  if (expression.startsWith('literal:')) {
    const value = expression.slice('literal:'.length);
    if (value === '') return bad('a literal: expression needs text after the prefix');
    return { ok: true, expression: { kind: 'literal', value, source: expression } };
  }
  if (expression.startsWith('json:')) {
    const value = jsonScalar(expression.slice('json:'.length));
    if (value === null) return bad('a json: expression must be a JSON string, finite number or boolean');
    if (value === '') return bad('a json: string must not be empty');
    if (!isWellFormedText(value)) return bad('a json: string must not contain NUL characters or unpaired surrogates');
    return { ok: true, expression: { kind: 'literal', value, source: expression } };
  }
  const path = expression.startsWith('path:') ? expression.slice('path:'.length) : expression;
  const parsed = parsePath(path);
  if (!parsed.ok) return bad(parsed.reason);
  return { ok: true, expression: { kind: 'path', segments: parsed.segments, source: expression } };
}

/** How a stored run names the source of a target: the path (configuration), or only the kind of a constant. */
export function describeSource(e: CompiledExpression): string {
  if (e.kind === 'literal') return e.source.startsWith('json:') ? 'json' : 'literal';
  return e.source.startsWith('path:') ? e.source : `path:${e.source}`;
}

export type ReadResult = { found: true; value: unknown } | { found: false };

/**
 * Follows a path through own data only: object keys with Object.hasOwn, array elements by
 * index. `toString`, `length` or `__proto__` on a payload that lacks them are simply missing.
 */
export function readPath(payload: unknown, segments: readonly (string | number)[]): ReadResult {
  let current: unknown = payload;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (typeof segment !== 'number' || segment >= current.length || !Object.hasOwn(current, segment)) return { found: false };
      current = current[segment];
    } else if (current !== null && typeof current === 'object') {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) return { found: false };
      current = (current as Record<string, unknown>)[key];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
