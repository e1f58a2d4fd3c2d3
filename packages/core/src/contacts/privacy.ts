import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../hashing';

/**
 * Version of the GDPR export document; bump when its shape changes. 2: user id, username,
 * country, typed message content, versions, reactions and identity changes.
 */
export const GDPR_EXPORT_VERSION = 3 as const;

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

/**
 * Every needle naming a contact in a provider envelope: the phone number's (above) and the
 * business-scoped user id as a JSON string (`user_id`, `from_user_id`, `recipient_user_id`).
 * An erased contact's `anon_` token names nobody.
 */
export function envelopeIdentityNeedles(contact: { phoneNumber: string | null; providerUserId: string | null }): string[] {
  const phone = contact.phoneNumber && /^\+?\d+$/.test(contact.phoneNumber) ? envelopePhoneNeedles(contact.phoneNumber) : [];
  return contact.providerUserId ? [...phone, JSON.stringify(contact.providerUserId)] : phone;
}
