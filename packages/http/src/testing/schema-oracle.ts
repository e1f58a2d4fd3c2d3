import type { JsonSchema } from './hostile-input';

const hasNul = (v: unknown): boolean => {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(hasNul);
  if (typeof v === 'object' && v !== null) return Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x));
  return false;
};

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'null':
      return v === null;
    default:
      return typeof v === type;
  }
}

function matches(s: JsonSchema, v: unknown, root: { components?: { schemas?: Record<string, JsonSchema> } }, depth: number): boolean {
  if (depth > 64) return true;
  if (s.$ref) {
    const target = root.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')];
    return target ? matches(target, v, root, depth + 1) : true;
  }
  if (s.const !== undefined && s.const !== v) return false;
  if (s.enum && !s.enum.includes(v)) return false;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length && !types.some((t) => typeOk(t, v))) return false;
  const branches = s.anyOf ?? s.oneOf;
  if (branches && !branches.some((b) => matches(b, v, root, depth + 1))) return false;
  if (s.allOf && !s.allOf.every((b) => matches(b, v, root, depth + 1))) return false;
  if (typeOk('object', v)) {
    const o = v as Record<string, unknown>;
    if ((s.required ?? []).some((k) => !(k in o))) return false;
    for (const [k, sub] of Object.entries(s.properties ?? {})) if (k in o && !matches(sub, o[k], root, depth + 1)) return false;
  }
  if (Array.isArray(v) && s.items) return v.every((x) => matches(s.items!, x, root, depth + 1));
  return true;
}

/**
 * Whether a value could pass a documented JSON Schema: types, required keys, enums and
 * branches are checked, finer constraints (lengths, patterns, formats) are assumed met, so a
 * "no" is certain. A NUL anywhere is never acceptable: every text input refuses it.
 */
export function mayAccept(schema: JsonSchema | undefined, value: unknown, root: object = {}): boolean {
  if (hasNul(value)) return false;
  return schema ? matches(schema, value, root as { components?: { schemas?: Record<string, JsonSchema> } }, 0) : true;
}
