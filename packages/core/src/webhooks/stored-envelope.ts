import { parseProviderEnvelope } from './envelope';
import type { NormalizableEnvelope } from './normalize';

/**
 * Decodes a stored raw body for the worker with the ingress's own parser, so the worker and
 * the ingress can never disagree about what is an envelope. Failures are permanent (the bytes
 * never change), which is why the worker turns them into non-retryable failures.
 */
export type DecodeFailure = 'invalid_json' | 'invalid_payload';

export type DecodeResult =
  | { ok: true; envelope: NormalizableEnvelope }
  | { ok: false; error: DecodeFailure; issues: string[] };

export function decodeStoredEnvelope(raw: Uint8Array | string): DecodeResult {
  const parsed = parseProviderEnvelope(typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
  if (parsed.ok) return { ok: true, envelope: parsed.envelope };
  return { ok: false, error: parsed.summary.topic === 'invalid_json' ? 'invalid_json' : 'invalid_payload', issues: parsed.issues };
}
