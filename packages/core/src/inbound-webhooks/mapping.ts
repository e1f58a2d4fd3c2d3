import { isWellFormedText, storableText } from './storable-text';
import { compileExpression, describeSource, FORBIDDEN_NAMES, readPath, type CompiledExpression } from './mapping-expressions';

export { type CompiledExpression } from './mapping-expressions';

/**
 * The mapping engine: turns a customer's JSON payload into a transactional template send
 * (spec: Inbound webhooks, Mapping). A mapping is saved once and applied to every request, so
 * it is validated and compiled up front and applying it cannot meet a malformed expression.
 * Issues are stored on runs: their messages name targets, paths and rules, never a value.
 */

export const MAPPING_FIXED_TARGETS = [
  'to',
  'templateName',
  'templateLocale',
  'externalId',
  'parameters.header.document.link',
  'parameters.header.document.filename',
] as const;
export type MappingFixedTarget = (typeof MAPPING_FIXED_TARGETS)[number];

export const MAX_MAPPING_ENTRIES = 120;
/** The template's {{1}}..{{n}} body placeholders that a mapping may fill. */
export const MAX_BODY_PARAMETERS = 100;

export type MappingIssueCode =
  | 'invalid_mapping'
  | 'unknown_target'
  | 'forbidden_target'
  | 'invalid_expression'
  | 'missing_target'
  | 'body_parameters_not_contiguous'
  | 'invalid_payload'
  | 'missing_value'
  | 'not_scalar'
  | 'invalid_phone'
  | 'invalid_value';
/** `message` NEVER contains a payload value or a phone number (it is stored); it may name the target and the path. */
export interface MappingIssue {
  code: MappingIssueCode;
  target?: string;
  message: string;
}
export interface FixedTemplate {
  templateName?: string | null;
  templateLocale?: string | null;
}
export interface CompiledMapping {
  entries: { target: string; expression: CompiledExpression }[];
}

export interface MappedRequest {
  to: string;
  templateName: string;
  templateLocale: string;
  externalId?: string;
  parameters: { body: string[]; header?: { document: { link: string; filename?: string } } };
}

const BODY_TARGET_RE = /^parameters\.body\.([1-9]\d{0,2})$/;
const TEMPLATE_NAME_RE = /^[a-z0-9_]{1,512}$/;
const TEMPLATE_LOCALE_RE = /^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/;
const MAX_BODY_PARAMETER_CHARS = 1024;
const MAX_LINK_CHARS = 2048;
const MAX_FILENAME_CHARS = 240;
const MAX_EXTERNAL_ID_CHARS = 255;
/** Unknown target names come from the customer; a stored issue quotes at most this much of one. */
const MAX_QUOTED_TARGET = 100;

const LINK = 'parameters.header.document.link';
const FILENAME = 'parameters.header.document.filename';

function bodyIndex(target: string): number | null {
  const m = BODY_TARGET_RE.exec(target);
  if (!m) return null;
  const n = Number(m[1]);
  return n <= MAX_BODY_PARAMETERS ? n : null;
}

function quoteTarget(target: string): string {
  const quoted = storableText(target, MAX_QUOTED_TARGET);
  const cut = target.length > MAX_QUOTED_TARGET && [...target.slice(0, MAX_QUOTED_TARGET * 2 + 2)].length > MAX_QUOTED_TARGET;
  if (quoted === '') return '(empty)';
  return cut ? `${quoted}...` : quoted;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * On save and before preview/processing. Rejects, with every issue found (never throws): a
 * non-object mapping or more than 120 entries; targets naming __proto__, prototype or
 * constructor anywhere (checked first, on own keys, so a JSON.parse'd "__proto__" key is
 * caught); unknown targets; bad expressions; `to` unmapped; templateName/templateLocale
 * unmapped unless fixed; body parameters that are not 1..n; a document filename without a link.
 */
export function validateMapping(mapping: unknown, fixed: FixedTemplate): { ok: true; mapping: CompiledMapping } | { ok: false; issues: MappingIssue[] } {
  try {
    return validate(mapping, fixed ?? {});
  } catch {
    return { ok: false, issues: [{ code: 'invalid_mapping', message: 'the mapping could not be read' }] };
  }
}

function validate(mapping: unknown, fixed: FixedTemplate): { ok: true; mapping: CompiledMapping } | { ok: false; issues: MappingIssue[] } {
  if (!isPlainObject(mapping)) return { ok: false, issues: [{ code: 'invalid_mapping', message: 'the mapping must be a JSON object of target: expression' }] };
  const keys = Object.keys(mapping);
  if (keys.length > MAX_MAPPING_ENTRIES) {
    return { ok: false, issues: [{ code: 'invalid_mapping', message: `the mapping has at most ${MAX_MAPPING_ENTRIES} entries` }] };
  }
  const issues: MappingIssue[] = [];
  // Forbidden names first, for every key, before any other rule can stop at an earlier one.
  const forbidden = new Set(keys.filter((k) => FORBIDDEN_NAMES.some((name) => k.includes(name))));
  for (const key of forbidden) {
    issues.push({ code: 'forbidden_target', target: quoteTarget(key), message: `target ${quoteTarget(key)} names __proto__, prototype or constructor` });
  }
  const entries: CompiledMapping['entries'] = [];
  const bodyIndexes: number[] = [];
  for (const target of keys) {
    if (forbidden.has(target)) continue;
    const index = bodyIndex(target);
    if (index === null && !(MAPPING_FIXED_TARGETS as readonly string[]).includes(target)) {
      issues.push({ code: 'unknown_target', target: quoteTarget(target), message: `unknown target ${quoteTarget(target)}` });
      continue;
    }
    const compiled = compileExpression(Object.getOwnPropertyDescriptor(mapping, target)?.value);
    if (!compiled.ok) {
      issues.push({ code: 'invalid_expression', target, message: `the expression for ${target} is invalid: ${compiled.reason}` });
      continue;
    }
    if (index !== null) bodyIndexes.push(index);
    entries.push({ target, expression: compiled.expression });
  }
  // Required targets are judged on the keys, so an invalid expression is not also reported missing.
  const mapped = new Set(keys);
  if (!mapped.has('to')) issues.push({ code: 'missing_target', target: 'to', message: 'to (the recipient phone number) must be mapped' });
  if (!mapped.has('templateName') && !fixed.templateName) {
    issues.push({ code: 'missing_target', target: 'templateName', message: 'templateName must be mapped when the configuration has no fixed template' });
  }
  if (!mapped.has('templateLocale') && !fixed.templateLocale) {
    issues.push({ code: 'missing_target', target: 'templateLocale', message: 'templateLocale must be mapped when the configuration has no fixed locale' });
  }
  if (mapped.has(FILENAME) && !mapped.has(LINK)) {
    issues.push({ code: 'missing_target', target: LINK, message: `${FILENAME} needs ${LINK}` });
  }
  const sorted = [...bodyIndexes].sort((a, b) => a - b);
  if (sorted.some((n, i) => n !== i + 1)) {
    issues.push({ code: 'body_parameters_not_contiguous', message: 'body parameters must be parameters.body.1 to parameters.body.n with no gap' });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, mapping: { entries } };
}

type Resolved = { ok: true; value: string } | { ok: false; issue: MappingIssue };

/** A payload value as template text, or why it cannot be one. */
function resolve(target: string, e: CompiledExpression, payload: unknown): Resolved {
  if (e.kind === 'literal') return { ok: true, value: e.value };
  const where = `${target} (${describeSource(e)})`;
  const read = readPath(payload, e.segments);
  const value = read.found ? read.value : undefined;
  if (value === undefined || value === null) return { ok: false, issue: { code: 'missing_value', target, message: `no value at the path for ${where}` } };
  if (typeof value === 'string') {
    // The send is stored and sent as JSON: NUL and unpaired surrogates would fail there, as a 500.
    if (!isWellFormedText(value)) {
      return { ok: false, issue: { code: 'invalid_value', target, message: `the value for ${where} contains NUL characters or unpaired surrogates` } };
    }
    return { ok: true, value };
  }
  if (typeof value === 'boolean') return { ok: true, value: String(value) };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, issue: { code: 'invalid_value', target, message: `the value for ${where} is not a finite number` } };
    // Safe integers never print with an exponent; String() is also what JSON.stringify would give.
    return { ok: true, value: String(value) };
  }
  return { ok: false, issue: { code: 'not_scalar', target, message: `the value for ${where} is not a scalar (text, a number or a boolean)` } };
}

/** Characters as the provider counts them (code points), without materialising a huge string. */
function charCount(s: string, cap: number): number {
  if (s.length > cap * 2) return s.length; // at least s.length/2 code points: over the cap either way
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

const invalid = (target: string, rule: string): MappingIssue => ({ code: 'invalid_value', target, message: `the value for ${target} ${rule}` });

function httpUrl(s: string): URL | null {
  try {
    const url = new URL(s);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The per-target rule; returns the value to send (the phone normalized) or the issue. */
function check(target: string, value: string): Resolved {
  if (target === 'to') {
    const phone = normalizeRecipientPhone(value);
    return phone
      ? { ok: true, value: phone }
      : { ok: false, issue: { code: 'invalid_phone', target, message: 'to is not a phone number in international format' } };
  }
  if (target === 'templateName') {
    return TEMPLATE_NAME_RE.test(value) ? { ok: true, value } : { ok: false, issue: invalid(target, 'must be 1-512 lowercase letters, digits or _') };
  }
  if (target === 'templateLocale') {
    return TEMPLATE_LOCALE_RE.test(value) ? { ok: true, value } : { ok: false, issue: invalid(target, 'must be a locale such as en or en_US') };
  }
  if (target === 'externalId') {
    const n = charCount(value, MAX_EXTERNAL_ID_CHARS);
    return n >= 1 && n <= MAX_EXTERNAL_ID_CHARS ? { ok: true, value } : { ok: false, issue: invalid(target, `must be 1-${MAX_EXTERNAL_ID_CHARS} characters`) };
  }
  if (target === LINK) {
    if (value.length > MAX_LINK_CHARS) return { ok: false, issue: invalid(target, `must be at most ${MAX_LINK_CHARS} characters`) };
    return httpUrl(value) ? { ok: true, value } : { ok: false, issue: invalid(target, 'must be an http or https URL') };
  }
  if (target === FILENAME) {
    const n = charCount(value, MAX_FILENAME_CHARS);
    return n >= 1 && n <= MAX_FILENAME_CHARS ? { ok: true, value } : { ok: false, issue: invalid(target, `must be 1-${MAX_FILENAME_CHARS} characters`) };
  }
  // Body parameters: the provider refuses a blank one, so whitespace alone does not count.
  if (value.trim() === '') return { ok: false, issue: invalid(target, 'must not be empty') };
  return charCount(value, MAX_BODY_PARAMETER_CHARS) <= MAX_BODY_PARAMETER_CHARS
    ? { ok: true, value }
    : { ok: false, issue: invalid(target, `must be at most ${MAX_BODY_PARAMETER_CHARS} characters`) };
}

export type ApplyMappingResult = { ok: true; request: MappedRequest } | { ok: false; issues: MappingIssue[]; partial: Partial<MappedRequest> };

/**
 * Applies a compiled mapping to a payload (any JSON value). A configured templateName or
 * templateLocale overrides the mapped one (which is then not even read). Every target is
 * evaluated and every issue collected, so one preview shows everything to fix.
 * `partial` holds only values that passed their checks; in `partial.parameters.body`, index i
 * is {{i+1}} and a failed parameter is a hole.
 */
export function applyMapping(m: CompiledMapping, payload: unknown, fixed: FixedTemplate): ApplyMappingResult {
  try {
    return apply(m, payload, fixed ?? {});
  } catch {
    return { ok: false, issues: [{ code: 'invalid_mapping', message: 'the mapping could not be applied' }], partial: {} };
  }
}

function apply(m: CompiledMapping, payload: unknown, fixed: FixedTemplate): ApplyMappingResult {
  const issues: MappingIssue[] = [];
  const payloadOk = Array.isArray(payload) || isPlainObject(payload);
  if (!payloadOk) issues.push({ code: 'invalid_payload', message: 'the payload must be a JSON object or array' });
  const values = new Map<string, string>();
  const fixedValues: [string, string | null | undefined][] = [
    ['templateName', fixed.templateName],
    ['templateLocale', fixed.templateLocale],
  ];
  for (const [target, configured] of fixedValues) {
    if (!configured) continue;
    const checked = check(target, configured);
    if (checked.ok) values.set(target, checked.value);
    else issues.push(checked.issue);
  }
  for (const { target, expression } of m.entries) {
    if (values.has(target) || (target === 'templateName' && fixed.templateName) || (target === 'templateLocale' && fixed.templateLocale)) continue;
    // Without a readable payload every path is moot (invalid_payload says so once); constants still get checked.
    if (expression.kind === 'path' && !payloadOk) continue;
    const resolved = resolve(target, expression, payload);
    const checked = resolved.ok ? check(target, resolved.value) : resolved;
    if (checked.ok) values.set(target, checked.value);
    else issues.push(checked.issue);
  }
  for (const required of ['to', 'templateName', 'templateLocale'] as const) {
    // A compiled mapping always maps these (or the configuration fixes them); this guards a hand-built one.
    const attempted = m.entries.some((e) => e.target === required) || (required !== 'to' && fixed[required]);
    if (!attempted) issues.push({ code: 'missing_target', target: required, message: `${required} is not mapped` });
  }

  const partial = buildRequest(m, values);
  if (issues.length > 0) return { ok: false, issues, partial };
  return { ok: true, request: partial as MappedRequest };
}

function buildRequest(m: CompiledMapping, values: Map<string, string>): Partial<MappedRequest> {
  const out: Partial<MappedRequest> = {};
  const to = values.get('to');
  const templateName = values.get('templateName');
  const templateLocale = values.get('templateLocale');
  const externalId = values.get('externalId');
  if (to !== undefined) out.to = to;
  if (templateName !== undefined) out.templateName = templateName;
  if (templateLocale !== undefined) out.templateLocale = templateLocale;
  if (externalId !== undefined) out.externalId = externalId;
  const bodyCount = m.entries.reduce((n, e) => Math.max(n, bodyIndex(e.target) ?? 0), 0);
  const body: string[] = new Array<string>(bodyCount);
  for (let i = 1; i <= bodyCount; i += 1) {
    const v = values.get(`parameters.body.${i}`);
    if (v !== undefined) body[i - 1] = v;
  }
  const parameters: MappedRequest['parameters'] = { body };
  const link = values.get(LINK);
  if (link !== undefined) {
    const filename = values.get(FILENAME);
    parameters.header = { document: filename !== undefined ? { link, filename } : { link } };
  }
  out.parameters = parameters;
  return out;
}

/**
 * Recipient phone to E.164: accepts `+`, `00` international prefix, spaces, dots, dashes,
 * parentheses; result `+` then 7..15 digits, first digit 1-9; null otherwise. Digits with no
 * prefix are taken as already international (the provider's own wa_id form, as toE164 does); a
 * national number starting with 0 has no country and is refused rather than guessed. The
 * "+44 (0)20..." convention marks a trunk 0 that is dialled only nationally: it is dropped.
 */
export function normalizeRecipientPhone(raw: string): string | null {
  if (typeof raw !== 'string' || raw.length > 64) return null;
  let s = raw.trim();
  if (!/^\+?[\d\s().-]+$/.test(s)) return null;
  const international = s.startsWith('+');
  if (international) s = s.slice(1).replace(/^\s*(\d{1,3})[\s.-]*\(0\)/, '$1');
  if ((s.match(/\(/g) ?? []).length !== (s.match(/\)/g) ?? []).length) return null;
  let digits = s.replace(/[\s().-]/g, '');
  if (!international && digits.startsWith('00')) digits = digits.slice(2);
  return /^[1-9]\d{6,14}$/.test(digits) ? `+${digits}` : null;
}

/** What is stored on a run: the shape of the mapped request without a single value (no phone number, no parameter, no link, no external id). */
export interface SanitizedMappedRequest {
  to: { present: boolean; valid: boolean };
  templateName: string | null;
  templateLocale: string | null;
  externalId: { present: boolean; length: number } | null;
  parameters: {
    body: { index: number; length: number }[];
    header: { document: { linkHost: string | null; filenameLength: number | null } } | null;
  };
  /** target -> 'path:...' | 'literal' | 'json' (a constant is summarized by its kind, never its text). */
  sources: Record<string, string>;
}

/**
 * The diagnostics a run keeps: which targets were mapped, from where, and how long each value
 * was. templateName/templateLocale are configuration, not personal data, so they are kept (only
 * when they have the shape of one). `present` says a target was mapped or a value was produced;
 * `valid` that a usable value came out.
 */
export function sanitizeMappedRequest(m: CompiledMapping, request: Partial<MappedRequest>): SanitizedMappedRequest {
  const entries = Array.isArray(m?.entries) ? m.entries : [];
  const req: Partial<MappedRequest> = request !== null && typeof request === 'object' ? request : {};
  const mapped = new Set(entries.map((e) => e.target));
  const str = (v: unknown): v is string => typeof v === 'string';

  const to = { present: mapped.has('to') || str(req.to), valid: str(req.to) && normalizeRecipientPhone(req.to) === req.to };
  const templateName = str(req.templateName) && TEMPLATE_NAME_RE.test(req.templateName) ? req.templateName : null;
  const templateLocale = str(req.templateLocale) && TEMPLATE_LOCALE_RE.test(req.templateLocale) ? req.templateLocale : null;
  const externalId = str(req.externalId) ? { present: true, length: req.externalId.length } : mapped.has('externalId') ? { present: false, length: 0 } : null;

  const params: Partial<MappedRequest['parameters']> = req.parameters !== null && typeof req.parameters === 'object' ? req.parameters : {};
  const body: { index: number; length: number }[] = [];
  if (Array.isArray(params.body)) {
    params.body.forEach((v: unknown, i) => {
      if (str(v)) body.push({ index: i + 1, length: v.length });
    });
  }
  const doc = params.header?.document;
  let header: SanitizedMappedRequest['parameters']['header'] = null;
  if (doc || mapped.has(LINK)) {
    const url = str(doc?.link) ? httpUrl(doc.link) : null;
    header = { document: { linkHost: url ? url.hostname : null, filenameLength: str(doc?.filename) ? doc.filename.length : null } };
  }

  const sources: Record<string, string> = {};
  for (const { target, expression } of entries) {
    // Targets are validated names, but a hand-built mapping could carry "__proto__": define, never assign.
    Object.defineProperty(sources, target, { value: describeSource(expression), enumerable: true, writable: true, configurable: true });
  }
  return { to, templateName, templateLocale, externalId, parameters: { body, header }, sources };
}
