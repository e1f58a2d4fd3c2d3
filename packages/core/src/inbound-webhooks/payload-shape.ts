import { hasUnstorable } from './storable-text';

/**
 * What a run keeps of a payload by default (spec: Inbound webhook run): its keys and types, so
 * an operator can write a mapping against it, never its values. Keys can be data too (a phone
 * number or an email used as a key), so those are replaced by their position.
 */

export type PayloadShape =
  | { type: 'object'; keys: Record<string, PayloadShape>; truncated?: true }
  | { type: 'array'; length: number; items?: PayloadShape }
  | { type: 'string' | 'number' | 'boolean' | 'null' }
  | { type: 'truncated' };

export const PAYLOAD_SHAPE_MAX_DEPTH = 8;
export const PAYLOAD_SHAPE_MAX_KEYS = 100;
/**
 * Nodes described in all. Depth and width caps alone still allow 100^8 nodes when one object is
 * reachable from many keys (possible in memory, not in parsed JSON); the budget bounds the work.
 */
export const PAYLOAD_SHAPE_MAX_NODES = 5000;
const MAX_KEY_CHARS = 128;

/** 6+ digits in all, not only in a row: a formatted phone number ("+1 555-123-4567") is still one. */
const looksPersonal = (key: string): boolean => key.includes('@') || (key.match(/\d/g)?.length ?? 0) >= 6;
/** The name a key is stored under: itself, or its position when it may be data or unstorable. */
function shapeKey(key: string, i: number): string {
  if (looksPersonal(key)) return `[redacted-key-${i}]`;
  if (key.length > MAX_KEY_CHARS || hasUnstorable(key)) return `[invalid-key-${i}]`;
  return key;
}

/** Own-property assignment that cannot touch a prototype, even for a key named __proto__. */
function define(target: Record<string, PayloadShape>, key: string, value: PayloadShape): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Keys and types, never values. Containers nested deeper than 8 levels become
 * {type:'truncated'}, objects describe their first 100 keys (then truncated: true), arrays their
 * length and the shape of their first element. Never throws.
 */
export function payloadShape(value: unknown): PayloadShape {
  const budget = { nodes: PAYLOAD_SHAPE_MAX_NODES };
  try {
    return describe(value, 0, budget);
  } catch {
    return { type: 'truncated' };
  }
}

function describe(value: unknown, depth: number, budget: { nodes: number }): PayloadShape {
  if (budget.nodes <= 0) return { type: 'truncated' };
  budget.nodes -= 1;
  if (value === null || value === undefined) return { type: 'null' };
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'number' || typeof value === 'bigint') return { type: 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value !== 'object') return { type: 'truncated' }; // functions, symbols: not JSON
  if (depth >= PAYLOAD_SHAPE_MAX_DEPTH) return { type: 'truncated' };
  if (Array.isArray(value)) {
    const shape: PayloadShape = { type: 'array', length: value.length };
    if (value.length > 0) shape.items = describe(value[0], depth + 1, budget);
    return shape;
  }
  const keys: Record<string, PayloadShape> = {};
  const own = Object.keys(value);
  own.slice(0, PAYLOAD_SHAPE_MAX_KEYS).forEach((key, i) => {
    define(keys, shapeKey(key, i), describe((value as Record<string, unknown>)[key], depth + 1, budget));
  });
  return own.length > PAYLOAD_SHAPE_MAX_KEYS ? { type: 'object', keys, truncated: true } : { type: 'object', keys };
}
