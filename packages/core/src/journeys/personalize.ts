import type { PropertyOperator } from './definition';

/**
 * What a journey's template parameters may draw on: the trigger's personalization keys (any
 * keys the caller sent beside the phone number) and the contact's fields and properties.
 */
export interface PersonalizationContext {
  trigger: Record<string, unknown>;
  contact: Record<string, unknown>;
}

export type RenderResult = { ok: true; text: string } | { ok: false; missing: string[] };

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]{1,128})\s*(?:\|([^}]{0,256}))?\}\}/g;

/** A scalar as template text; objects and arrays do not render (they are not parameters). */
function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** `contact.x` reads the contact; any other key reads the trigger (a nested `a.b` path walks it). */
export function lookupPersonalization(ctx: PersonalizationContext, key: string): string | undefined {
  if (key.startsWith('contact.')) return scalar(own(ctx.contact, key.slice('contact.'.length)));
  const direct = scalar(own(ctx.trigger, key));
  if (direct !== undefined) return direct;
  let cur: unknown = ctx.trigger;
  for (const seg of key.split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = own(cur as Record<string, unknown>, seg);
  }
  return scalar(cur);
}

/**
 * Fills `{{key}}` and `{{key|fallback}}` placeholders. A key with no value and no fallback is
 * reported (the step fails rather than sending a blank parameter the provider would refuse).
 */
export function renderParameter(text: string, ctx: PersonalizationContext): RenderResult {
  const missing: string[] = [];
  const out = text.replace(PLACEHOLDER, (_m, key: string, fallback: string | undefined) => {
    const v = lookupPersonalization(ctx, key);
    if (v !== undefined && v.trim() !== '') return v;
    if (fallback !== undefined) return fallback.trim();
    missing.push(key);
    return '';
  });
  if (missing.length > 0) return { ok: false, missing: [...new Set(missing)] };
  return { ok: true, text: out };
}

/** A contact field or property as text, for a branch; undefined when absent. */
export function evaluatePropertyCondition(actual: unknown, operator: PropertyOperator, expected: string | undefined): boolean {
  const v = scalar(actual);
  switch (operator) {
    case 'exists':
      return v !== undefined && v !== '';
    case 'not_exists':
      return v === undefined || v === '';
    case 'equals':
      return v !== undefined && v.toLowerCase() === (expected ?? '').toLowerCase();
    case 'not_equals':
      return v === undefined || v.toLowerCase() !== (expected ?? '').toLowerCase();
    case 'contains':
      return v !== undefined && v.toLowerCase().includes((expected ?? '').toLowerCase());
  }
}
