import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../hashing';

/** Version of the GDPR export document; bump when its shape changes. */
export const GDPR_EXPORT_VERSION = 1 as const;

/**
 * The phone number an erased contact keeps: a random token, so it cannot be reversed (a
 * plain hash of a phone number can be brute-forced over the number space) and stays unique.
 */
export function anonymousPhoneToken(): string {
  return `anon_${sha256Hex(randomBytes(32)).slice(0, 32)}`;
}

/**
 * How a phone number (E.164) appears in a provider envelope: as a JSON string of digits
 * (`wa_id`, `from`, `recipient_id`), possibly with a +. Quoted so that a number inside a
 * longer one never matches.
 */
export function envelopePhoneNeedles(phoneE164: string): string[] {
  const digits = phoneE164.replace(/^\+/, '');
  return [`"${digits}"`, `"+${digits}"`];
}
