/**
 * Placeholder syntax. POSITIONAL templates use `{{1}}`..`{{n}}`; NAMED templates use
 * `{{snake_case_name}}`. Anything else between double braces (`{{ 1 }}`, `{{Name}}`,
 * `{{1a}}`) is malformed: the provider rejects it rather than treating it as text.
 */
export interface Placeholder {
  /** What is between the braces, verbatim. */
  inner: string;
  index: number;
  end: number;
}

const PLACEHOLDER_RE = /\{\{([^{}]*)\}\}/g;
export const POSITIONAL_PLACEHOLDER = /^[1-9][0-9]*$/;
export const NAMED_PLACEHOLDER = /^[a-z][a-z0-9_]*$/;

export function findPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  for (const m of text.matchAll(PLACEHOLDER_RE)) {
    out.push({ inner: m[1]!, index: m.index, end: m.index + m[0].length });
  }
  return out;
}

export function isValidPlaceholder(inner: string, format: string): boolean {
  return format === 'NAMED' ? NAMED_PLACEHOLDER.test(inner) : POSITIONAL_PLACEHOLDER.test(inner);
}

/** Distinct placeholder names in order of first appearance. */
export function placeholderNames(text: string): string[] {
  const seen: string[] = [];
  for (const p of findPlaceholders(text)) if (!seen.includes(p.inner)) seen.push(p.inner);
  return seen;
}

/** The text with every placeholder removed: the "fixed text" the ratio rule counts. */
export function fixedText(text: string): string {
  return text.replace(PLACEHOLDER_RE, ' ');
}

/** Words of fixed text: whitespace-separated tokens holding at least one letter or digit. */
export function fixedWordCount(text: string): number {
  return fixedText(text)
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Replaces placeholders through `value`; unknown names keep their `{{...}}` form. */
export function fillPlaceholders(text: string, value: (inner: string) => string | undefined): string {
  return text.replace(PLACEHOLDER_RE, (whole, inner: string) => value(inner) ?? whole);
}

/**
 * Template names: lower case, and every character outside [a-z0-9_] becomes `_` (the
 * provider's permitted set). Surrounding whitespace is trimmed first so a stray space does
 * not become a trailing underscore. Idempotent.
 */
export function normalizeTemplateName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
}

export const TEMPLATE_NAME_MAX = 512;
export const TEMPLATE_NAME_RE = /^[a-z0-9_]+$/;
